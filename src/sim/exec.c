/* PLACEHOLDER: replaced by the instruction semantics. */
#include <stdio.h>
#include <string.h>
#include "warpsweep/exec.h"
ws_region *ws_gmem_find(const ws_gmem *m, uint64_t addr, uint64_t size) { (void)m; (void)addr; (void)size; return NULL; }
int ws_exec_inst(ws_exec_env *env, ws_warp *w, const ws_inst *in, uint32_t pc, uint64_t active, ws_effect *eff)
{ (void)w; (void)in; (void)pc; (void)active; memset(eff, 0, sizeof *eff);
  snprintf(env->fault, sizeof env->fault, "executor not implemented yet"); return WS_EXEC_FAULT; }
void ws_warp_reset_regs(ws_warp *w, uint32_t nregs, uint32_t warp_size)
{ memset(w->regs, 0, sizeof(uint64_t) * nregs * warp_size); }
