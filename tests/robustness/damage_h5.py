"""Writes a damaged copy of a fresh warpsweep results file, one kind of damage
per call, in the HDF5 file format before 1.8 (version 1 object headers, no
checksums: to_v1.py), where HDF5 decodes the damage instead of refusing it.
    damage_h5.py KIND GOOD.h5 OUT.h5
The places are found by the bytes around them (names, known values) and the
layouts of the HDF5 File Format Specification, version 0 superblock files
("Version 1 Object Header Prefix", "Attribute Message", "Datatype Message",
"Dataspace Message", "Data Layout Message" version 3); each kind asserts the
bytes it changes are what it expects, so a changed writer fails loudly.
Kinds:
  attr_dtsize   the high byte of the datatype-size field of the sweep_hash
                attribute message (HDF5 1.10 reads past the message in
                H5Aexists: SIGSEGV before warpsweep sees the attribute)
  attr_msgsize  the size field of the sweep_hash message in the root object
                header's message list set to 0xfff8 (a message list that runs
                past its chunk)
  dtype_offset  the high byte of the compound member offset of /points column
                sim_seconds (the conversion would copy outside its record)
  dtype_size    the /points record size grown by 64 KiB (a datatype conversion
                over a buffer of the stored size)
  hash_newline  a newline and an escape byte written into the value of
                sweep_hash (messages must not print it raw)
  huge_dim      the /points dataspace: 2^62 rows instead of its few
  huge_chunk    the /points chunk: 2*10^6 records (3 GB at ~1.5 kB a record, under
                HDF5's own 4 GiB bound)
                instead of 1024
"""
import os
import struct
import subprocess
import sys

kind, good, out = sys.argv[1:4]
subprocess.run([sys.executable, os.path.join(os.path.dirname(__file__), "to_v1.py"), good, out], check=True)
data = bytearray(open(out, "rb").read())


def find_one(pat):
    at = data.find(pat)
    assert at >= 0 and data.find(pat, at + 1) < 0, f"{kind}: {pat!r} not found exactly once"
    return at


def attr_message(name):
    """offset of the attribute message header (type 0x000c) whose name is name"""
    at = find_one(name + b"\0")
    body = at - 8                 # version 1, reserved, name size, datatype size, dataspace size
    hdr = body - 8                # type (2), size (2), flags (1), reserved (3)
    assert struct.unpack_from("<H", data, hdr)[0] == 0x000C and data[body] == 1, f"{kind}: no attribute message"
    assert struct.unpack_from("<H", data, body + 2)[0] == len(name) + 1
    return hdr


if kind == "attr_dtsize":
    hdr = attr_message(b"sweep_hash")
    data[hdr + 8 + 5] ^= 0xFF
elif kind == "attr_msgsize":
    hdr = attr_message(b"sweep_hash")
    struct.pack_into("<H", data, hdr + 2, 0xFFF8)
elif kind == "dtype_offset":
    at = find_one(b"\0sim_seconds\0") + 1
    data[at + (len(b"sim_seconds") + 1 + 7) // 8 * 8 + 3] = 0x10
elif kind == "dtype_size":
    at = find_one(b"\0point\0\0\0") + 1          # the first member's name
    size_at = at - 4                             # the compound's 4-byte size precedes its members
    size = struct.unpack_from("<I", data, size_at)[0]
    assert data[size_at - 4] & 0x0F == 6, f"{kind}: not a compound datatype"
    struct.pack_into("<I", data, size_at, size + 65536)
elif kind == "hash_newline":
    import h5py
    h = h5py.File(good, "r").attrs["sweep_hash"]
    h = h if isinstance(h, bytes) else h.encode()
    at = find_one(h)
    data[at + 4] = 0x0A
    data[at + 5] = 0x1B
elif kind == "huge_dim":
    import h5py
    rows = h5py.File(good, "r")["points"].shape[0]
    # version 1, rank 1, flags 1 (maximum dimensions present), 5 reserved, size, max size (unlimited)
    at = find_one(bytes([1, 1, 1, 0, 0, 0, 0, 0]) + struct.pack("<Q", rows) + b"\xff" * 8)
    struct.pack_into("<Q", data, at + 8, 1 << 62)
elif kind == "huge_chunk":
    import h5py
    p = h5py.File(good, "r")["points"]
    rec = p.dtype.itemsize
    # layout version 3, class 2 (chunked), dimensionality 2, B-tree address (8), chunk dims (4 each)
    at = find_one(struct.pack("<II", p.chunks[0], rec))
    assert data[at - 11:at - 8] == bytes([3, 2, 2]), f"{kind}: not a version 3 chunked layout message"
    struct.pack_into("<I", data, at, 2_000_000)
else:
    sys.exit(f"damage_h5.py: unknown kind {kind}")
open(out, "wb").write(data)
