/* The divergence schemes in the order of parameter divergence's choices
 * (include/warpsweep/params.def). */
#include "divergence.h"

static const ws_div_ops *const schemes[] = {
    &ws_div_stack,      /* stack */
    &ws_div_sbi,        /* sbi */
    &ws_div_barrier,    /* barrier */
    &ws_div_multipath,  /* multipath */
    &ws_div_dualpath,   /* dualpath */
    &ws_div_aware,      /* aware */
    &ws_div_tbc,        /* tbc */
};

const ws_div_ops *ws_div_scheme(int64_t index)
{
    if (index < 0 || (uint64_t)index >= sizeof schemes / sizeof schemes[0]) return NULL;
    return schemes[index];
}
