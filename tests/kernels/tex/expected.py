#!/usr/bin/python3
"""Writes the texture/surface workloads of tests/kernels/tex (run: /usr/bin/python3 expected.py;
--check: only verify that every yaml is current, exit 1 if one differs).

The expected values come from a numpy model of the CUDA C++ Programming Guide, appendix
"Texture Fetching" (independent of the simulator):
  nearest-point sampling   tex(x) = T[i], i = floor(x)                                 (1D; 2D/3D alike)
  linear filtering         tex(x) = (1 - a) T[i] + a T[i+1], x_B = x - 0.5, i = floor(x_B), a = frac(x_B)
                           tex(x,y) = (1-a)(1-b) T[i,j] + a(1-b) T[i+1,j] + (1-a) b T[i,j+1] + a b T[i+1,j+1]
                           "a, b, g are stored in 9-bit fixed point format with 8 bits of fractional value"
  normalized coordinates   x is scaled by the size N
  address modes            clamp: index clamped to [0, N-1]; border: out of range reads 0;
                           wrap: x -> frac(x); mirror: x -> frac(x) (floor(x) even) or 1 - frac(x) (odd)
                           (normalized coordinates only); the neighbours of a linear footprint wrap
                           modulo N / mirror with period 2N
  read mode                cudaReadModeNormalizedFloat: u8 / 255, s8 / 127 (>= -1), u16 / 65535, ...
The model's choices where the Guide is silent (docs/model.md, "Textures and surfaces"): a = frac
rounded to the nearest 1/256, the sum in f32 in the Guide's term order, absent channels (0,0,0,1).
tld4 (PTX ISA): the footprint counter-clockwise from the lower left: T[i,j+1], T[i+1,j+1], T[i+1,j], T[i,j].
suld.b / sust.b (PTX ISA): x in bytes; .zero reads 0 out of range, .clamp reads the nearest location.
"""
import math
import os
import sys
import numpy as np

F = np.float32
HERE = os.path.dirname(os.path.abspath(__file__))
WRAP, CLAMP, MIRROR, BORDER = 0, 1, 2, 3
MODE_NAMES = {WRAP: "wrap", CLAMP: "clamp", MIRROR: "mirror", BORDER: "border"}
REGS = {"tex2d_int": 14, "tex2d_lod": 18, "tex2d_grid": 14, "tex3d_grid": 18, "fetch1d": 8, "gather_g": 14, "query": 12, "surf_rmw": 8,
        "surf_bounds": 12}   # ptxas -v (sm_75)
TIES = [0, 0, 0]   # alpha rounding: rounded down, rounded up, exact ties (counted over every test)


def addr_index(i, n, mode):
    if mode == WRAP:
        return i % n
    if mode == MIRROR:
        r = i % (2 * n)
        return r if r < n else 2 * n - 1 - r
    if mode == BORDER:
        return -1 if i < 0 or i >= n else i
    return min(max(i, 0), n - 1)


def coord(x, n, norm, mode):
    x = F(x)
    if not norm:
        return x
    if mode in (WRAP, MIRROR):
        f = F(math.floor(x))
        fr = F(x - f)
        if mode == MIRROR and int(f) % 2 != 0:
            fr = F(F(1) - fr)
        x = fr
    return F(x * F(n))


def linear_split(u):
    xb = F(u - F(0.5))
    i = math.floor(xb)
    fr = float(xb) - math.floor(float(xb))
    a = math.floor(fr * 256 + 0.5)
    exact = fr * 256
    TIES[2 if exact - math.floor(exact) == 0.5 else 0 if a <= exact else 1] += exact != a
    return i, a


class Tex:
    """texels[z][y][x][c] as channel values (floats after the read mode), plus the sampler"""

    def __init__(self, vals, ctype="f32", norm_read=False, norm=False, address=(CLAMP, CLAMP, CLAMP), linear=False):
        self.raw = np.asarray(vals)
        while self.raw.ndim < 4:
            self.raw = self.raw[np.newaxis]
        self.depth, self.height, self.width, self.channels = self.raw.shape
        self.dims = 3 if self.depth > 1 else 2 if self.height > 1 else 1
        self.ctype, self.norm_read, self.norm, self.address, self.linear = ctype, norm_read, norm, address, linear

    def chan(self, x, y, z, c):
        v = self.raw[z, y, x, c]
        if self.ctype == "f32":
            return F(v)
        if self.ctype == "f16":   # the texel holds binary16 bits
            return F(np.array([v], dtype=np.uint16).view(np.float16)[0])
        if self.norm_read:
            scale = {"u8": 255, "s8": 127, "u16": 65535, "s16": 32767}[self.ctype]
            return max(F(F(int(v)) / F(scale)), F(-1))
        return int(v)

    def texel(self, idx):
        if any(i < 0 for i in idx):
            return [F(0)] * 4 if self.floats() else [0] * 4
        x, y, z = (list(idx) + [0, 0])[:3]
        one = F(1) if self.floats() else 1
        return [self.chan(x, y, z, c) if c < self.channels else (one if c == 3 else one * 0) for c in range(4)]

    def floats(self):
        return self.ctype in ("f32", "f16") or self.norm_read

    def sizes(self):
        return [self.width, self.height, self.depth][:self.dims]

    def point(self, cs, integer=False):
        idx = []
        for d, n in enumerate(self.sizes()):
            i = cs[d] if integer else math.floor(coord(cs[d], n, self.norm, self.address[d]))
            idx.append(addr_index(i, n, self.address[d]))
        return self.texel(idx)

    def footprint(self, cs):
        per = []
        for d, n in enumerate(self.sizes()):
            i, a = linear_split(coord(cs[d], n, self.norm, self.address[d]))
            per.append(([addr_index(i, n, self.address[d]), addr_index(i + 1, n, self.address[d])], a))
        return per

    def filtered(self, cs):
        per = self.footprint(cs)
        acc, first = [F(0)] * 4, True
        ks = [0, 1] if self.dims == 3 else [0]
        js = [0, 1] if self.dims >= 2 else [0]
        for k in ks:
            for j in js:
                for i in (0, 1):
                    sel = [i, j, k][:self.dims]
                    w = None
                    for d in range(self.dims):
                        a = per[d][1]
                        wd = F((256 - a) / 256) if sel[d] == 0 else F(a / 256)
                        w = wd if w is None else F(w * wd)
                    t = self.texel([per[d][0][sel[d]] for d in range(self.dims)])
                    for c in range(4):
                        term = F(w * t[c])
                        acc[c] = term if first else F(acc[c] + term)
                    first = False
        return acc

    def fetch(self, cs):
        return self.filtered(cs) if self.linear else self.point(cs)

    def gather(self, cs, comp):
        (ix, _), (iy, _) = self.footprint(cs)
        order = [(0, 1), (1, 1), (1, 0), (0, 0)]
        return [self.texel([ix[a], iy[b]])[comp] for a, b in order]


def fmt(v):
    if isinstance(v, (int, np.integer)):
        return str(int(v))
    f = float(F(v))
    return repr(f) if f != int(f) else str(int(f))


def vals(seq, per=8):
    items = [fmt(v) for v in seq]
    rows = [", ".join(items[i:i + per]) for i in range(0, len(items), per)]
    return "[\n      " + ",\n      ".join(rows) + "]"


def buffer_of(tex, pitch_texels, pad):
    """the texels laid out with a row pitch of pitch_texels, padding filled with pad"""
    out = []
    for z in range(tex.depth):
        for y in range(tex.height):
            for x in range(pitch_texels):
                for c in range(tex.channels):
                    out.append(tex.raw[z, y, x, c] if x < tex.width else pad)
    return out


def tex_yaml(name, tex, buf, pitch_bytes=None):
    keys = [f"buffer: {buf}", f"type: {tex.ctype}", f"channels: {tex.channels}", f"width: {tex.width}"]
    if tex.dims >= 2:
        keys.append(f"height: {tex.height}")
    if tex.dims == 3:
        keys.append(f"depth: {tex.depth}")
    if pitch_bytes:
        keys.append(f"pitch: {pitch_bytes}")
    if tex.norm:
        keys.append("normalized_coords: true")
    modes = {tex.address[d] for d in range(tex.dims)}
    keys.append("address: " + (MODE_NAMES[tex.address[0]] if len(modes) == 1 else
                               "[" + ", ".join(MODE_NAMES[tex.address[d]] for d in range(tex.dims)) + "]"))
    keys.append("filter: " + ("linear" if tex.linear else "point"))
    if tex.norm_read:
        keys.append("read_mode: normalized_float")
    return f"  {name}: {{" + ", ".join(keys) + "}\n"


STALE = []


def write(fname, text):
    text = "# GENERATED by tests/kernels/tex/expected.py; do not edit.\n" + text
    path = os.path.join(HERE, fname)
    if "--check" in sys.argv:
        if not os.path.exists(path) or open(path).read() != text:
            STALE.append(fname)
        return
    with open(path, "w") as f:
        f.write(text)


def header(name, entry, comment, grid, block):
    return (f"# {comment}\nname: {name}\nkernel: tex.ptx\nentry: {entry}\ngrid: {grid}\nblock: {block}\n"
            f"regs_per_thread: {REGS[entry]}        # ptxas -v (sm_75)\n")


def grid2d(nx, ny, ox, oy, sx, sy):
    pts = []
    for p in range(nx * ny):
        pts.append((F(F(ox) + F(p % nx) * F(sx)), F(F(oy) + F(p // nx) * F(sy))))
    return pts


CHAN_BYTES = {"f16": 2, "u8": 1, "s8": 1, "u16": 2, "s16": 2, "u32": 4, "s32": 4, "f32": 4}


def tex2d_case(name, comment, tex, pitch_texels, pad, nx, ny, ox, oy, sx, sy, btype="f32", entry="tex2d_grid"):
    pts = grid2d(nx, ny, ox, oy, sx, sy)
    out = [v for pt in pts for v in tex.fetch(pt)]
    np_ = nx * ny
    otype = "s32" if entry == "tex2d_int" else "f32"
    text = header(name, entry, comment, 1, 128)
    text += "buffers:\n"
    text += f"  texels: {{type: {btype}, count: {pitch_texels * tex.height * tex.channels}, init: " \
            f"{vals(buffer_of(tex, pitch_texels, pad))}}}\n"
    text += f"  out: {{type: {otype}, count: {4 * np_}, init: -7}}\n"
    text += "textures:\n" + tex_yaml("t", tex, "texels", pitch_texels * tex.channels * CHAN_BYTES[btype])
    text += f"params: [t, out, {nx}, {np_}, {ox}, {oy}, {sx}, {sy}]\n"
    text += f"expect:\n  out: {vals(out)}\n"
    write(name + ".yaml", text)


def main():
    rng = np.random.default_rng(24)
    f4 = np.round(rng.uniform(-8, 8, size=(4, 5, 4)), 3).astype(np.float32)   # 5x4 RGBA f32
    # coordinates with 16 fractional bits: exact in f32 (the kernel's fma is exact too), and
    # frac(x_B) beyond the 8 bits of the weights, so the fixed-point rounding matters
    tex2d_case("tex2d_point_clamp", "tex2D<float4>, nearest-point sampling, clamp, unnormalized coordinates, pitched rows",
               Tex(f4, address=(CLAMP, CLAMP, CLAMP)), 6, 999, 12, 9, -1.15625, -0.90625, 48157 / 65536, 44837 / 65536)
    tex2d_case("tex2d_linear_border", "tex2D<float4>, linear filtering (9-bit weights), border, unnormalized coordinates",
               Tex(f4, address=(BORDER, BORDER, BORDER), linear=True), 6, 999, 12, 9, -1.15625, -0.90625,
               48157 / 65536, 44837 / 65536)
    tex2d_case("tex2d_linear_wrap_mirror", "tex2D<float4>, linear filtering, normalized coordinates, wrap in x, mirror in y",
               Tex(f4, norm=True, address=(WRAP, MIRROR, CLAMP), linear=True), 5, 0, 12, 9, -0.40625, -0.65625,
               9637 / 65536, 19231 / 65536)
    tex2d_case("tex2d_point_wrap", "tex2D<float4>, nearest-point sampling, normalized coordinates, wrap",
               Tex(f4, norm=True, address=(WRAP, WRAP, CLAMP)), 5, 0, 12, 9, -0.40625, -0.65625, 9637 / 65536, 19231 / 65536)
    u8 = rng.integers(0, 256, size=(5, 6, 4))
    tex2d_case("tex2d_u8_normalized", "tex2D<float4> of uchar4 texels, cudaReadModeNormalizedFloat, linear, mirror/clamp",
               Tex(u8, ctype="u8", norm_read=True, norm=True, address=(MIRROR, CLAMP, CLAMP), linear=True), 8, 17,
               12, 9, -0.40625, -0.65625, 9637 / 65536, 19231 / 65536, btype="u8")

    # signed normalized: s8 / 127, clamped at -1 (-128 reads -1.0); 8 fractional bits of weights
    s8 = rng.integers(-128, 128, size=(4, 5, 4))
    s8[0, 0, :] = [-128, 127, -127, 0]
    tex2d_case("tex2d_s8_normalized", "tex2D<float4> of char4 texels, cudaReadModeNormalizedFloat (-128 -> -1.0), linear, clamp",
               Tex(s8, ctype="s8", norm_read=True, address=(CLAMP, CLAMP, CLAMP), linear=True), 5, 0, 12, 9, -1.15625,
               -0.90625, 48157 / 65536, 44837 / 65536, btype="s8")
    # integer texels in element mode: s16 channels sign-extended into .s32, absent channels (0, 1)
    s16 = rng.integers(-32768, 32768, size=(4, 5, 2))
    s16[0, 0, :] = [-32768, 32767]
    tex2d_case("tex2d_s16_element", "tex2D<int4> of short2 texels (element read mode, tex.2d.v4.s32): sign-extended, "
               "absent channels 0 and 1, border, point", Tex(s16, ctype="s16", address=(BORDER, BORDER, BORDER)), 6, 5,
               12, 9, -1.15625, -0.90625, 48157 / 65536, 44837 / 65536, btype="s16", entry="tex2d_int")

    # half-precision texels (cudaChannelFormatKindFloat, 16 bits; the buffer holds their bits)
    h = rng.uniform(-4, 4, size=(4, 5, 2)).astype(np.float16).view(np.uint16)
    tex2d_case("tex2d_f16_linear", "tex2D<float4> of half2 texels, linear filtering, border",
               Tex(h, ctype="f16", address=(BORDER, BORDER, BORDER), linear=True), 5, 0, 12, 9, -1.15625, -0.90625,
               48157 / 65536, 44837 / 65536, btype="u16")

    # tex2DLod / tex2DGrad (tex.level, tex.grad): one mipmap level, so every level of detail
    # reads level 0: the same values as tex2D, each point twice
    tl = Tex(f4, norm=True, address=(WRAP, MIRROR, CLAMP), linear=True)
    nx, ny, ox, oy, sx, sy = 6, 5, -0.40625, -0.65625, 9637 / 65536, 19231 / 65536
    out = [v for pt in grid2d(nx, ny, ox, oy, sx, sy) for v in tl.fetch(pt) * 2]
    text = header("tex2d_lod_grad", "tex2d_lod", "tex2DLod / tex2DGrad (tex.level, tex.grad) of a texture with one "
                  "mipmap level: level 0 at any level of detail", 1, 32)
    text += "buffers:\n"
    text += f"  texels: {{type: f32, count: {f4.size}, init: {vals(buffer_of(tl, 5, 0))}}}\n"
    text += f"  out: {{type: f32, count: {len(out)}, init: -7}}\n"
    text += "textures:\n" + tex_yaml("t", tl, "texels")
    text += f"params: [t, out, {nx}, {nx * ny}, {ox}, {oy}, {sx}, {sy}, 0.75]\nexpect:\n  out: {vals(out)}\n"
    write("tex2d_lod_grad.yaml", text)

    # 3D linear: a 1-channel float volume 3x3x2 (tex3D<float4>: (v, 0, 0, 1))
    vol = np.round(rng.uniform(-4, 4, size=(2, 3, 3, 1)), 2).astype(np.float32)
    t3 = Tex(vol, address=(CLAMP, CLAMP, CLAMP), linear=True)
    nx, ny, nz, o, s = 4, 4, 3, -0.28125, 64069 / 65536
    out = []
    for p in range(nx * ny * nz):
        pt = [F(F(o) + F(c) * F(s)) for c in (p % nx, (p // nx) % ny, p // (nx * ny))]
        out += t3.fetch(pt)
    text = header("tex3d_linear", "tex3d_grid", "tex3D<float4> of a float volume, trilinear filtering, clamp", 1, 64)
    text += "buffers:\n"
    text += f"  vol: {{type: f32, count: {vol.size}, init: {vals(vol.flatten())}}}\n"
    text += f"  out: {{type: f32, count: {len(out)}, init: -7}}\n"
    text += "textures:\n" + tex_yaml("t", t3, "vol")
    text += f"params: [t, out, {nx}, {ny}, {nx * ny * nz}, {o}, {s}]\nexpect:\n  out: {vals(out)}\n"
    write("tex3d_linear.yaml", text)

    # tex1Dfetch<int> at 3i - 5: border and clamp
    ints = rng.integers(-1000, 1000, size=(1, 1, 20, 1))
    for mode in (BORDER, CLAMP):
        t1 = Tex(ints, ctype="s32", address=(mode, mode, mode))
        n = 12
        out = [t1.point([3 * i - 5], integer=True)[0] for i in range(n)]
        name = "fetch1d_" + MODE_NAMES[mode]
        text = header(name, "fetch1d", f"tex1Dfetch<int> (tex.1d.v4.s32.s32) at 3i - 5, {MODE_NAMES[mode]}", 1, 32)
        text += f"buffers:\n  ints: {{type: s32, count: 20, init: {vals(ints.flatten())}}}\n"
        text += f"  out: {{type: s32, count: {n}, init: -7}}\n"
        text += "textures:\n" + tex_yaml("t", t1, "ints")
        text += f"params: [t, out, {n}]\nexpect:\n  out: {vals(out)}\n"
        write(name + ".yaml", text)

    # tld4.g on a float2 texture, clamp
    f2 = np.round(rng.uniform(-9, 9, size=(4, 4, 2)), 2).astype(np.float32)
    tg = Tex(f2, address=(CLAMP, CLAMP, CLAMP))
    nx, ny, ox, oy, sx, sy = 7, 6, -0.65625, -0.40625, 48029 / 65536, 38497 / 65536
    out = [v for pt in grid2d(nx, ny, ox, oy, sx, sy) for v in tg.gather(pt, 1)]
    text = header("tld4_green", "gather_g", "tex2Dgather<float4>(t, x, y, 1): tld4.g.2d, the footprint's green channel", 1, 64)
    text += f"buffers:\n  texels: {{type: f32, count: {f2.size}, init: {vals(f2.flatten())}}}\n"
    text += f"  out: {{type: f32, count: {len(out)}, init: -7}}\n"
    text += "textures:\n" + tex_yaml("t", tg, "texels")
    text += f"params: [t, out, {nx}, {nx * ny}, {ox}, {oy}, {sx}, {sy}]\nexpect:\n  out: {vals(out)}\n"
    write("tld4_green.yaml", text)

    # txq: 7x5, normalized, linear, wrap / mirror -> cudaTextureAddressMode 0 / 2, cudaFilterModeLinear 1
    text = header("txq_query", "query", "txq width/height/depth/normalized_coords/filter_mode/addr_mode_0/1/num_mipmap_levels", 1, 1)
    text += "buffers:\n  texels: {type: f32, count: 35, init: iota}\n  out: {type: s32, count: 8, init: -7}\n"
    text += "textures:\n  t: {buffer: texels, type: f32, width: 7, height: 5, normalized_coords: true, " \
            "address: [wrap, mirror], filter: linear}\n"
    text += "params: [t, out]\nexpect:\n  out: [7, 5, 0, 1, 1, 0, 2, 1]\n"
    write("txq_query.yaml", text)

    # surf2Dread / surf2Dwrite in place: 8x5 floats with a pitch of 10 (the padding stays)
    w, h, pitch = 8, 5, 10
    init = np.round(rng.uniform(-50, 50, size=h * pitch), 2).astype(np.float32)
    want = [F(F(v) * F(2) + F(1)) if (i % pitch) < w else F(v) for i, v in enumerate(init)]
    text = header("surf2d_rmw", "surf_rmw", "surf2Dread<float> / surf2Dwrite (suld.b.2d.b32.trap, sust.b.2d.b32.trap)",
                  1, "[8, 5]")
    text += f"buffers:\n  img: {{type: f32, count: {h * pitch}, init: {vals(init)}}}\n"
    text += "surfaces:\n" + f"  s: {{buffer: img, type: f32, width: {w}, height: {h}, pitch: {pitch * 4}}}\n"
    text += f"params: [s, {w}, {h}]\nexpect:\n  img: {vals(want)}\n"
    write("surf2d_rmw.yaml", text)

    # out-of-range surface reads, .zero and .clamp: x = i - 3 texels, y = i / 2 - 2 on a 4x3 int surface
    sw, sh, n = 4, 3, 10
    sv = rng.integers(-100, 100, size=(sh, sw))
    out = []
    for i in range(n):
        x, y = i - 3, i // 2 - 2
        inside = 0 <= x < sw and 0 <= y < sh
        out.append(int(sv[y, x]) if inside else 0)
        out.append(int(sv[min(max(y, 0), sh - 1), min(max(x, 0), sw - 1)]))
    text = header("surf2d_bounds", "surf_bounds", "surf2Dread<int> out of range: cudaBoundaryModeZero (.zero) and "
                  "cudaBoundaryModeClamp (.clamp)", 1, 32)
    text += f"buffers:\n  img: {{type: s32, count: {sw * sh}, init: {vals(sv.flatten())}}}\n"
    text += f"  out: {{type: s32, count: {2 * n}, init: -7}}\n"
    text += f"surfaces:\n  s: {{buffer: img, type: s32, width: {sw}, height: {sh}}}\n"
    text += f"params: [s, out, {n}]\nexpect:\n  out: {vals(out)}\n"
    write("surf2d_bounds.yaml", text)
    print("alpha rounding: %d down, %d up, %d ties" % tuple(TIES))
    if STALE:
        print("DIFFERS:", " ".join(STALE))
    return 1 if STALE else 0


if __name__ == "__main__":
    sys.exit(main())
