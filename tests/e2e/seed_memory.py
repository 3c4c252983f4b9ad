"""The seed's fixed-latency memory model as --set arguments, for e2e checks whose
closed forms assume it (every global access costs mem_latency) while the core keeps
its registry defaults.  Read from include/warpsweep/presets.def (the `seed` lines
whose source is docs/memory.md), so the list cannot drift from the preset.

    python3 seed_memory.py          prints: --set l1_kb=0 --set mem_latency=400 ...
    from seed_memory import SEED_MEMORY, seed_memory_sets
"""
import os
import re
import sys

_DEF = os.path.join(os.environ.get("WS_SOURCE_DIR",
                                   os.path.join(os.path.dirname(__file__), "..", "..")),
                    "include", "warpsweep", "presets.def")
_LINE = re.compile(r'^PRESET\(seed,\s*(\w+),\s*"([^"]*)",\s*"the seed\'s model \(docs/memory\.md\)')


def _read():
    out = {}
    with open(_DEF) as f:
        for line in f:
            m = _LINE.match(line)
            if m:
                out[m.group(1)] = m.group(2)
    if "mem_latency" not in out or "l1_kb" not in out:
        sys.exit("seed_memory.py: no seed memory lines in %s" % _DEF)
    return out


SEED_MEMORY = _read()


# The registry's core before model version 2 (CHANGES.md: the defaults became a V100 SM),
# for checks whose closed forms were derived on it (one scheduler, 32 warps, lrr, the stack).
V1_CORE = {"warps": "32", "schedulers": "1", "scheduler": "lrr", "divergence": "stack",
           "smem_latency": "24", "clock_ghz": "1.5", "tensor_f16_macs": "256"}


def v1_core_sets():
    return [a for k, v in V1_CORE.items() for a in ("--set", "%s=%s" % (k, v))]


def seed_memory_sets(**override):
    kv = dict(SEED_MEMORY)
    kv.update({k: str(v) for k, v in override.items()})
    args = []
    for k, v in kv.items():
        args += ["--set", "%s=%s" % (k, v)]
    return args


if __name__ == "__main__":
    print(" ".join(seed_memory_sets()))
