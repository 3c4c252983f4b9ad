"""Rewrites a warpsweep results file in the HDF5 file format before 1.8 (version 1
object headers, no checksums), as warpsweep wrote it before it asked for the 1.8
format: damage then reaches warpsweep's own checks instead of HDF5's checksums."""
import sys
import h5py
src, dst = sys.argv[1:3]
with h5py.File(src, "r") as a, h5py.File(dst, "w", libver="earliest") as b:
    p = a["points"]   # written anew (a copy would keep the source's object header version)
    b.create_dataset("points", data=p[...], dtype=p.dtype, chunks=p.chunks, maxshape=p.maxshape,
                     compression=p.compression, compression_opts=p.compression_opts)
    for k in p.attrs:
        b["points"].attrs.create(k, p.attrs[k], dtype=p.attrs.get_id(k).dtype)
    for k in a.attrs:
        aid = a.attrs.get_id(k)
        b.attrs.create(k, a.attrs[k], dtype=aid.dtype)
