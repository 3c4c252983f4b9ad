/*
 * aware: AWARE (ElTantawy and Aamodt, "MIMD Synchronization on SIMT
 * Architectures", MICRO 2016): Multi-Path IPDOM's split and reconvergence
 * tables (div_multipath.c) with a timeout: lanes that have waited at a
 * reconvergence point for aware_timeout cycles go on without the lanes still
 * pending, which reconverge among themselves when they arrive. So a spin
 * lock's winner, waiting at the loop exit for the spinners, is released, leaves
 * the critical section and frees the lock: spin locks complete without
 * compiler help. Lanes waiting at a reconvergence point for lanes that wait
 * for them at a warp .sync op (lanes that return before __shfl_sync(~0, ..),
 * parked at nvcc's common tail) are released the same way. The timeout is
 * checked whenever the warp issues (the spinners keep issuing) and, when the
 * warp has nothing it could ever issue, by the core's call of mp_tick
 * (ws_div_ops.tick), which also wakes the warp when the next one runs out.
 * Area: Multi-Path's tables plus a timeout counter per RT entry
 * (ceil(log2(aware_timeout + 1)) bits).
 */
#include "div_mp.h"
#include "warpsweep/area.h"

static uint64_t aware_state_bits(const ws_config *cfg)
{
    uint64_t t = (uint64_t)ws_cfg_i(cfg, WS_P_aware_timeout), bits = 1;
    while (bits < 63 && (t >> bits)) bits++;
    return mp_state_bits(cfg) + ws_area_count(cfg, WS_P_area_stack_entries) * bits;
}

const ws_div_ops ws_div_aware = {
    .name = "aware",
    .at_branch = "as multipath; lanes waiting at the IPDOM (// reconverge: N) longer than aware_timeout go on",
    .per_lane_blocking = 1,
    .warp_sync_waits = 1,
    .needs_timeout = 1,
    .state_size = mp_size,
    .init = mp_init,
    .splits = mp_splits,
    .update = mp_update,
    .level = mp_level,
    .stats = mp_stats,
    .hash = mp_hash,
    .parked = mp_parked,
    .tick = mp_tick,
    .describe = mp_describe,
    .state_bits = aware_state_bits,
};
