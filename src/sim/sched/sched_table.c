/* The warp schedulers, registered from include/warpsweep/schedulers.def (the parameter
 * scheduler's choices come from the same rows); each ops.name is its row's name (checked by
 * tests/unit/test_sched.c). The core picks a policy only through this table. */
#include "sched.h"

static const ws_sched_ops *const policies[] = {
#define SCHED(name, ops, desc) &ops,
#include "warpsweep/schedulers.def"
#undef SCHED
};

const ws_sched_ops *ws_sched_policy(int64_t index)
{
    if (index < 0 || (uint64_t)index >= sizeof policies / sizeof policies[0]) return NULL;
    return policies[index];
}

size_t ws_sched_npolicies(void) { return sizeof policies / sizeof policies[0]; }
