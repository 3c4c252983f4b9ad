/* The energy model (docs/energy.md): per-event dynamic energy from counters
 * the timing run keeps, leakage in proportion to the area model's mm², and a
 * constant power per core; a pure function of the run's counts and the
 * configuration, computed once after the run (no work in the cycle loop
 * beyond two additions per issue). */
#ifndef WS_SIM_ENERGY_H
#define WS_SIM_ENERGY_H
#include <stdint.h>
#include "warpsweep/ptx.h"

/* Core-side events of the launches run, the detailed part's in a sampled run
 * (memory-side ones are the memory system's metrics: gmem_sectors, l2_bytes,
 * dram_bytes). */
typedef struct ws_energy_events {
    uint64_t warp_insts;              /* every warp instruction issued (divergence ops included;
                                         not warp_insts + div_insts: a sampled run extrapolates those) */
    uint64_t lanes[WS_NUNITS];        /* active lanes of those issues, by execution unit */
    uint64_t int_mul_lanes;           /* of lanes[WS_UNIT_INT]: integer multiplies (mul, mad, mul24, mad24, madc) */
    uint64_t fp32_mul_lanes;          /* of lanes[WS_UNIT_FP32]: multiplies, fma and mad (.f32/.f16) */
    uint64_t sfu_sqrt_lanes;          /* of lanes[WS_UNIT_SFU]: square roots (sqrt.approx, rsqrt.approx) */
    uint64_t rf_reads, rf_writes;     /* register operand accesses, warp_size lanes each */
    uint64_t rf_nonreg;               /* source operands not from a register (immediates, special
                                         registers, a load's memory operand), warp_size lanes each */
} ws_energy_events;

struct ws_simrun;
struct ws_config;
struct ws_result;

/* Adds the launch's per-instruction issue counts (ws_pipe_inst.n_warp,
 * n_lanes) to r->ev; called when a launch's cycles end. */
void ws_energy_fold(struct ws_simrun *r);

/* Fills the energy metrics of res from r's events, res's memory metrics,
 * area_mm2 and cycles. */
void ws_energy_metrics(const struct ws_simrun *r, const struct ws_config *cfg, struct ws_result *res);

#endif
