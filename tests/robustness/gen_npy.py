"""Writes one .npy file per malformed header (issue 27 item 11) into DIR, each
with 256 f32 elements of data after the header, and prints one line per file:
    NAME<TAB>the message warpsweep must give (after "PATH: offset 10: ")
The headers follow numpy.lib.format (NEP 1, "A Simple File Format for NumPy
Arrays"): magic, version 1.0, a 2-byte little-endian length, the dict's text
padded with spaces to a multiple of 64 bytes and a newline. The expected
messages are written out here by hand from what each header breaks.
    gen_npy.py DIR"""
import os
import struct
import sys

d = sys.argv[1]
data = struct.pack("<256f", *range(256))
GOOD = "{'descr': '<f4', 'fortran_order': False, 'shape': (256,), }"
E = "header: expected "
cases = [
    # name, header text, expected message
    ("good", GOOD, None),
    ("neg_dim", "{'descr': '<f4', 'fortran_order': False, 'shape': (-256,), }",
     E + "a non-negative dimension in 'shape', found '-256,), }'"),
    ("pipe_f4", "{'descr': '|f4', 'fortran_order': False, 'shape': (256,), }",
     "dtype '|f4' does not match the buffer's type f32"),
    ("f4junk", "{'descr': '<f4junk', 'fortran_order': False, 'shape': (256,), }",
     "dtype '<f4junk' does not match the buffer's type f32"),
    ("f04", "{'descr': '<f04', 'fortran_order': False, 'shape': (256,), }",
     "dtype '<f04' does not match the buffer's type f32"),
    ("falsehood", "{'descr': '<f4', 'fortran_order': Falsehood, 'shape': (256,), }",
     E + "fortran_order False, found 'Falsehood, \\'shape\\': (256' ..."),
    # a key's text inside another key's string value: the <f8 file is not read as <f4
    ("key_in_value", "{'descr': '<f8', 'fortran_order': False, 'shape': (128,), 'x': \"'descr': '<f4'\", }",
     "dtype '<f8' does not match the buffer's type f32"),
    ("unknown_key", "{'descr': '<f4', 'fortran_order': False, 'shape': (256,), 'x': \"'shape': (1,)\", }",
     "header: unknown key 'x': expected 'descr', 'fortran_order' and 'shape'"),
    ("key_in_descr", "{'descr': \"'descr': '<f4'\", 'fortran_order': False, 'shape': (256,), }",
     "dtype '\\'descr\\': \\'<f4\\'' does not match the buffer's type f32"),
    ("dup_key", "{'descr': '<f4', 'fortran_order': False, 'shape': (256,), 'descr': '<f4', }",
     "header: duplicate key 'descr'"),
    ("trailing_junk", GOOD + " junk",
     E + "only spaces and a newline after the dict, found 'junk'"),
    ("not_tuple", "{'descr': '<f4', 'fortran_order': False, 'shape': (256), }",
     "header: 'shape' (256) is an integer, not a tuple: expected (256,)"),
    ("missing_shape", "{'descr': '<f4', 'fortran_order': False, }",
     "header has no 'shape': expected a dict with 'descr', 'fortran_order' and 'shape'"),
    ("newline_in_descr", "{'descr': '<f4\n', 'fortran_order': False, 'shape': (256,), }",
     E + "a quoted string without escapes, found '\\'<f4\\n\\', \\'fortran_order\\':' ..."),
    ("control_bytes", "{'descr': '<f4\x1b[2J', 'fortran_order': False, 'shape': (256,), }",
     "dtype '<f4\\x1b[2J' does not match the buffer's type f32"),
    ("huge_dim", "{'descr': '<f4', 'fortran_order': False, 'shape': (18446744073709551616,), }",
     E + "a dimension below 2^64 in 'shape', found '18446744073709551616,), ' ..."),
    ("leading_zero", "{'descr': '<f4', 'fortran_order': False, 'shape': (0256,), }",
     E + "a decimal integer dimension in 'shape', found '0256,), }'"),
]
for name, text, want in cases:
    pad = 64 - (10 + len(text) + 1) % 64
    header = (text + " " * (pad % 64) + "\n").encode("latin-1")
    with open(os.path.join(d, name + ".npy"), "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header + data)
    print(f"{name}\t{want or ''}")
