/* The divergence schemes, registered from include/warpsweep/divergence.def (the parameter
 * divergence's choices and description come from the same rows). */
#include "divergence.h"

static const ws_div_ops *const schemes[] = {
#define DIV(name, ops, desc) &ops,
#include "warpsweep/divergence.def"
#undef DIV
};

const ws_div_ops *ws_div_scheme(int64_t index)
{
    if (index < 0 || (uint64_t)index >= sizeof schemes / sizeof schemes[0]) return NULL;
    return schemes[index];
}
