/* The warp schedulers, registered in the order of parameter scheduler's choices
 * (include/warpsweep/params.def); each row's ops.name is that choice (checked by
 * tests/unit/test_sched.c). The core picks a policy only through this table. */
#include "sched.h"

static const ws_sched_ops *const policies[] = {
    &ws_sched_lrr,          /* lrr: loose round robin (GPGPU-Sim lrr) */
    &ws_sched_gto,          /* gto: greedy then oldest (Rogers et al., MICRO 2012; GPGPU-Sim gto) */
    &ws_sched_two_level,    /* two_level: an active set in front of a pending FIFO (Narasiman et al., MICRO 2011) */
    &ws_sched_oldest,       /* oldest: strict age order */
    &ws_sched_swl,          /* swl: gto over the swl_limit oldest warps (Rogers et al., MICRO 2012) */
    &ws_sched_fetch_group,  /* fetch_group: groups of fetch_group_size warps (Narasiman et al., MICRO 2011) */
    &ws_sched_ccws,         /* ccws: cache-conscious wavefront scheduling (Rogers et al., MICRO 2012) */
    &ws_sched_daws,         /* daws: divergence-aware warp scheduling (Rogers et al., MICRO 2013) */
};

const ws_sched_ops *ws_sched_policy(int64_t index)
{
    if (index < 0 || (uint64_t)index >= sizeof policies / sizeof policies[0]) return NULL;
    return policies[index];
}

size_t ws_sched_npolicies(void) { return sizeof policies / sizeof policies[0]; }
