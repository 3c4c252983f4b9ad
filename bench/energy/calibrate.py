#!/usr/bin/python3
"""Per-event energies of the energy model (docs/energy.md "Calibration").

AccelWattch (Kandiah et al., MICRO 2021), the PTX-mode Volta model GPGPU-Sim 4.2 ships
(configs/tested-cfgs/SM7_QV100/accelwattch_ptx_sim.xml), reports each component's average
power over a kernel; accelwattch/KERNEL.txt holds those reports (gpu_sim_cycle and the
kernel's averages), recorded under SM7_QV100 cut to one SM (1447 MHz; the commands are in
docs/energy.md). A component's energy over the kernel is
its power x gpu_sim_cycle / 1.447 GHz. This script runs warpsweep on the same PTX under
preset=gpgpusim_qv100 for this model's own event counts, and divides: the per-event energy of a
component is its energy summed over the calibration kernels over its events summed over them
(components with several events: a least-squares fit, coefficients >= 0). It prints the fitted values and,
for every kernel, each component's energy as AccelWattch gives it and as the fitted model
gives it (energy, not power: the two simulators' cycles differ).

  bench/energy/calibrate.py [--bin build/warpsweep]
"""
import argparse, json, os, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
PEER = os.path.join(HERE, '..', 'peer')
CLOCK_HZ = 1.447e9                       # SM7_QV100 -gpgpu_clock_domains 1447.0
MC_IDLE_W = 0.55022                      # AccelWattch MCP of the kernels without DRAM traffic (ialu, warpvote)
CALIBRATE = ['ialu', 'ffma', 'fmul', 'dfma', 'sfu', 'rsqrt', 'tensor', 'l1hit', 'stream', 'smemreduce', 'dram',
             'l2hit', 'stwide']
VALIDATE = ['divergent', 'warpvote', 'sw_matmul', 'sw_cachesens', 'sw_stream', 'tiledmm', 'histatom', 'nbody',
            'idiv', 'histlow', 'l2read', 'stores',
            'dram_chip80', 'nbody_chip80']
# AccelWattch components -> this model's component, and the events (warpsweep metrics) whose
# per-event energies (registry parameters) it is fitted to
COMPONENTS = {
    'front': (['IBP', 'ICP', 'SCHEDP', 'PIPEP'], [('warp_insts', 'energy.inst_pj')]),
    'rf': (['RFP'], [('rf_accesses', 'energy.rf_read_pj'), ('rf_nonreg', 'energy.opnd_pj')]),
    'int': (['INTP'], [('int_add_lanes', 'energy.int_lane_pj')]),
    'int_mul': (['INT_MUL24P', 'INT_MUL32P', 'INT_MULP', 'INT_DIVP'], [('int_mul_lane_ops', 'energy.int_mul_lane_pj')]),
    'fp32': (['FPUP', 'FP_DIVP'], [('fp32_add_lanes', 'energy.fp32_lane_pj')]),
    'fp32_mul': (['FP_MULP'], [('fp32_mul_lane_ops', 'energy.fp32_mul_lane_pj')]),
    'fp64': (['DPUP', 'DP_MULP', 'DP_DIVP'], [('fp64_lane_ops', 'energy.fp64_lane_pj')]),
    'sfu': (['FP_LGP', 'FP_SINP', 'FP_EXP'], [('sfu_other_lanes', 'energy.sfu_lane_pj')]),
    'sfu_sqrt': (['FP_SQRTP'], [('sfu_sqrt_lane_ops', 'energy.sfu_sqrt_lane_pj')]),
    'tensor': (['TENSORP'], [('tensor_lane_ops', 'energy.tensor_lane_pj')]),
    'l1': (['DCP'], [('l1_hit_sectors', 'energy.l1_hit_pj'), ('l1_load_misses', 'energy.l1_miss_pj'),
                     ('store_hit_sectors', 'energy.l1_store_hit_pj'), ('store_misses', 'energy.l1_store_miss_pj')]),
    'smem': (['SHRDP'], [('smem_wavefronts', 'energy.smem_pj')]),
    'l2': (['L2CP'], [('l2_read_hit_sectors', 'energy.l2_read_hit_pj'), ('l2_read_miss_sectors', 'energy.l2_read_miss_pj'),
                      ('l2_write_sectors', 'energy.l2_write_pj')]),
    'noc': (['NOCP'], [('l2_sectors', 'energy.noc_sector_pj')]),
    'dram': (['DRAMP'], [('dram_32b', 'energy.dram_32b_pj')]),
}
def accelwattch(name):
    vals = {}
    for line in open(os.path.join(HERE, 'accelwattch', name + '.txt')):
        parts = line.replace(',', '').split()
        if len(parts) >= 3 and parts[1] == '=':
            vals[parts[0]] = parts[2]
    seconds = float(vals['gpu_sim_cycle']) / CLOCK_HZ
    comp = {c: sum(float(vals.get('gpu_avg_' + k, 0)) for k in ks) * seconds for c, (ks, _) in COMPONENTS.items()}
    comp['mc'] = float(vals['gpu_avg_MCP']) * seconds
    # the memory controllers' power above their idle floor is DRAM traffic; the floor is constant
    comp['dram'] += max(0.0, float(vals['gpu_avg_MCP']) - MC_IDLE_W) * seconds
    comp['aw_dram_32b'] = float(vals.get('gpu_tot_MEM_RD', 0)) + float(vals.get('gpu_tot_MEM_WR', 0))
    return comp, seconds


CHIP = '_chip80'   # a kernel name ending so: the whole QV100 (80 SMs, CORES=80), not one SM


def workload(name):
    name = name[:-len(CHIP)] if name.endswith(CHIP) else name
    if name.startswith('sw_'):                  # a shipped kernel (sweeps/kernels), host by gen_host.py
        return os.path.join(HERE, '..', '..', 'sweeps', 'kernels', name[3:] + '.yaml')
    p = os.path.join(HERE, name + '.yaml')
    return p if os.path.exists(p) else os.path.join(PEER, name + '.yaml')


def counts(binary, name):
    chip = ['--set', 'cores=80'] if name.endswith(CHIP) else []
    out = subprocess.run([binary, 'sim', workload(name), '--set', 'preset=gpgpusim_qv100', '--json'] + chip,
                         capture_output=True, text=True, check=True).stdout
    m = json.loads(out)
    m['warp_insts'] = m['warp_insts'] + m['div_insts']
    m['l2_sectors'] = m['l2_bytes'] / 32
    m['dram_32b'] = m['dram_bytes'] / 32
    # one energy per register access, read or write: AccelWattch charges them nearly alike (1.34
    # and 1.24 pJ fitted on its own counts of these kernels), and this model counts a load's
    # writeback once where GPGPU-Sim counts it twice, so the two do not fit apart on ours
    m['rf_accesses'] = m['rf_reads'] + m['rf_writes']
    m['int_add_lanes'] = m['int_lane_ops'] - m['int_mul_lane_ops']
    m['fp32_add_lanes'] = m['fp32_lane_ops'] - m['fp32_mul_lane_ops']
    m['sfu_other_lanes'] = m['sfu_lane_ops'] - m['sfu_sqrt_lane_ops']
    m['store_misses'] = m['store_sectors'] - m['store_hit_sectors']
    m['l1_load_misses'] = (m['gmem_sectors'] - m['atom_sectors'] - m['l1_bypass_sectors'] - m['store_sectors']
                           - m['l1_hit_sectors'])
    return m


def fit(rows):
    """Least squares through the origin of energy = sum(coef x count), coefficients >= 0
    (one that would be negative is dropped and the rest refitted); rows: (counts, energy)."""
    n = len(rows[0][0])
    keep = list(range(n))
    while True:
        a = [[sum(r[0][i] * r[0][j] for r in rows) for j in keep] for i in keep]
        b = [sum(r[0][i] * r[1] for r in rows) for i in keep]
        x = solve(a, b)
        if all(v >= 0 for v in x) or not keep:
            out = [0.0] * n
            for i, v in zip(keep, x):
                out[i] = v
            return out
        keep = [i for i, v in zip(keep, x) if v >= 0 and v == v]


def solve(a, b):
    n = len(b)
    m = [row[:] + [bb] for row, bb in zip(a, b)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        if abs(m[p][c]) < 1e-300:
            return [0.0] * n
        m[c], m[p] = m[p], m[c]
        for r in range(n):
            if r != c:
                f = m[r][c] / m[c][c]
                m[r] = [x - f * y for x, y in zip(m[r], m[c])]
    return [m[i][n] / m[i][i] for i in range(n)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--bin', default=os.path.join(HERE, '..', '..', 'build', 'warpsweep'))
    ap.add_argument('--markdown', action='store_true', help='the per-kernel table as Markdown (docs/energy.md)')
    a = ap.parse_args()
    aw = {k: accelwattch(k) for k in CALIBRATE + VALIDATE}
    ws = {k: counts(a.bin, k) for k in CALIBRATE + VALIDATE}
    pj = {}
    for c, (_, evs) in COMPONENTS.items():
        # DRAM: per access as AccelWattch counts them (MEM_RD + MEM_WR, 32 B each): GPGPU-Sim's
        # -gpgpu_perf_sim_memcpy leaves the last 6 MiB copied in its L2, so its DRAM traffic is
        # not this model's, and an energy per access must be per its accesses
        cnt = (lambda k, e: aw[k][0]['aw_dram_32b']) if c == 'dram' else (lambda k, e: ws[k][e])
        rows = [([cnt(k, e) for e, _ in evs], aw[k][0][c]) for k in CALIBRATE]
        for (e, name), v in zip(evs, fit(rows)):
            pj[name] = v * 1e12
    pj['energy.rf_write_pj'] = pj['energy.rf_read_pj']
    mc_w = MC_IDLE_W
    print('# per-event energies (pJ), fitted on %s' % ', '.join(CALIBRATE))
    for name in sorted(pj):
        print('%-24s %10.3f' % (name, pj[name]))
    print('# memory controllers idle (AccelWattch MCP floor, in energy.const_w_core): %.4f W' % mc_w)
    st = [float(l.split()[2]) for k in CALIBRATE for l in open(os.path.join(HERE, 'accelwattch', k + '.txt'))
          if l.startswith('gpu_avg_STATICP')]
    print('# static (AccelWattch STATICP, whole chip): mean %.2f W over the calibration kernels' % (sum(st) / len(st)))

    def model(m):
        return {c: sum(m[e] * pj[name] for e, name in evs) * 1e-12 for c, (_, evs) in COMPONENTS.items()}
    print('\n# energy per kernel, uJ: AccelWattch / this model (ratio); components above 5% of the dynamic total')
    shown = ['front', 'rf', 'int', 'int_mul', 'fp32', 'fp32_mul', 'fp64', 'sfu', 'sfu_sqrt', 'tensor', 'l1', 'smem',
             'l2', 'noc', 'dram']
    if a.markdown:
        print('| kernel | set | ' + ' | '.join(shown + ['dynamic']) + ' |')
        print('|---' * (len(shown) + 3) + '|')
    else:
        print('%-11s %-4s ' % ('kernel', 'set') + ' '.join('%-20s' % c for c in shown + ['dynamic']))
    for k in CALIBRATE + VALIDATE:
        e_aw, e_ws = aw[k][0], model(ws[k])
        tot_aw = sum(e_aw[c] for c in COMPONENTS)
        tot_ws = sum(e_ws[c] for c in COMPONENTS)
        cells = []
        for c in shown + ['dynamic']:
            x, y = (tot_aw, tot_ws) if c == 'dynamic' else (e_aw[c], e_ws[c])
            if c != 'dynamic' and x < 0.05 * tot_aw and y < 0.05 * tot_ws:
                cells.append('%-20s' % '.')
            else:
                cells.append('%-20s' % ('%.2f/%.2f (%.2f)' % (x * 1e6, y * 1e6, y / x if x else float('inf'))))
        if a.markdown:
            print('| %s | %s | ' % (k, 'fit' if k in CALIBRATE else 'held out') + ' | '.join(c.strip() for c in cells) + ' |')
        else:
            print('%-11s %-4s ' % (k, 'fit' if k in CALIBRATE else 'val') + ' '.join(cells))
    return 0


if __name__ == '__main__':
    sys.exit(main())
