/* PLACEHOLDER: replaced by the CFG / post-dominator analysis. */
#include "warpsweep/ptx.h"
int ws_cfg_build(ws_kernel *k, ws_error *err) { (void)k; return ws_fail(err, "CFG not implemented yet"); }
int ws_postdom(uint32_t n, const uint32_t *const *succ, const uint32_t *nsucc, uint32_t *ipdom)
{ (void)succ; (void)nsucc; for (uint32_t i = 0; i < n; i++) ipdom[i] = WS_PC_EXIT; return 0; }
