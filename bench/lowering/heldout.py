#!/usr/bin/env python3
"""Held-out check of the lowering: kernels the rules were NOT read off (bench/energy's
microbenchmarks, written for the energy calibration), each one loop whose trip count is a
parameter, every warp on the same path. Their dynamic SASS count per warp comes from ptxas's
own output with sass_count.py's walk (the same rules as sass_counts.tsv); the simulator's
lowered_insts is divided by the warps of the launch.

    python3 bench/lowering/heldout.py BUILD_DIR        # needs ptxas and nvdisasm, as sass_count.py

A benchmark, never a test. Prints kernel, trip, PTX and lowered instructions per warp, the SASS
count per warp (sm_75) and their ratio.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import sass_count  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(HERE))
EDIR = os.path.join(ROOT, 'bench', 'energy')
# kernel -> (trip count of its loop as the YAML launches it, warps in the launch)
HELD = {
    'fmul': (1000, 4), 'dfma': (1000, 4), 'sfu': (1000, 4), 'rsqrt': (1000, 4), 'l1hit': (1000, 4),
    'tensor': (500, 8), 'dram': (2097152 // (16 * 128), 64),
}


def sass_per_warp(name, tmp):
    ptx = open(os.path.join(EDIR, name + '.ptx')).read()
    entry = re.search(r'\.entry\s+(\w+)', ptx).group(1)
    insts, labels = sass_count.parse(sass_count.disassemble(ptx, 'sm_75', tmp), entry)
    dyn, _, _ = sass_count.walk(insts, labels, HELD[name][0])
    return dyn


def model(build, name):
    p = subprocess.run([os.path.join(build, 'warpsweep'), 'sim', os.path.join(EDIR, name + '.yaml'), '--json',
                        '--set', 'lowering=ptxas'], capture_output=True, text=True, env=dict(os.environ, WS_PTXAS=''))
    return json.loads(p.stdout)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    print(f"{'kernel':8} {'trip':>6} {'ptx/warp':>9} {'lowered/warp':>13} {'sass/warp':>10} {'ratio':>6}")
    with tempfile.TemporaryDirectory() as tmp:
        for name, (trip, warps) in HELD.items():
            m = model(sys.argv[1], name)
            s = sass_per_warp(name, tmp)
            low = m['lowered_insts'] / warps
            print(f"{name:8} {trip:6} {m['warp_insts'] / warps:9.1f} {low:13.1f} {s:10} {low / s:6.3f}")


if __name__ == '__main__':
    main()
