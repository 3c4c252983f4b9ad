"""Copy a 1-D NumPy .npy file (format 1.0) with one element increased by 1:
an expectation that must now fail (used by tests/e2e/app_*.sh).

usage: npy_bump.py IN.npy OUT.npy INDEX STRUCT_FORMAT   (e.g. f for '<f4', i for '<i4')
"""
import struct
import sys

src, dst, index, fmt = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
data = bytearray(open(src, "rb").read())
assert data[:8] == b"\x93NUMPY\x01\x00", "not a version 1.0 .npy file"
off = 10 + struct.unpack_from("<H", data, 8)[0] + index * struct.calcsize("<" + fmt)
struct.pack_into("<" + fmt, data, off, struct.unpack_from("<" + fmt, data, off)[0] + 1)
open(dst, "wb").write(data)
