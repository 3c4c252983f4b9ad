"""An independent model of warpsweep's jitter stream (docs/noise.md), for
tests/unit/test_mem_hier.c: test_jitter. Prints the first draws of the
generator of (seed, core) for jitter J.

The definition: splitmix64 (Steele, Lea and Flood, OOPSLA 2014) with
  mix(z) = z ^= z >> 30; z *= 0xbf58476d1ce4e5b9; z ^= z >> 27;
           z *= 0x94d049bb133111eb; z ^= z >> 31           (mod 2^64)
core c's state starts at mix(seed ^ mix(0x6a09e667f3bcc909 + c)); each draw
adds 0x9e3779b97f4a7c15 to the state, mixes it to x, and returns
floor(x * (J + 1) / 2^64), uniform in 0..J.

usage: python3 jitter_model.py SEED CORE J COUNT
"""
import sys

M = (1 << 64) - 1


def mix(z):
    z = ((z ^ (z >> 30)) * 0xbf58476d1ce4e5b9) & M
    z = ((z ^ (z >> 27)) * 0x94d049bb133111eb) & M
    return z ^ (z >> 31)


def draws(seed, core, j, count):
    s = mix(seed ^ mix((0x6a09e667f3bcc909 + core) & M))
    out = []
    for _ in range(count):
        s = (s + 0x9e3779b97f4a7c15) & M
        out.append((mix(s) * (j + 1)) >> 64)
    return out


if __name__ == "__main__":
    seed, core, j, count = (int(a) for a in sys.argv[1:5])
    print(", ".join(str(d) for d in draws(seed, core, j, count)))
