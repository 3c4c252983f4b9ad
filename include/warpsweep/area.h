#ifndef WARPSWEEP_AREA_H
#define WARPSWEEP_AREA_H
/* The area model: silicon area of one SIMT core and of the chip, as a pure
 * function of the configuration (the area.* parameters, the core's warps,
 * schedulers, register file, divergence scheme and, when the memory system
 * registers them, l1_kb / smem_kb).  docs/area.md gives every formula, every
 * default with its source, the technology node and how to scale to another.
 *
 * All areas are in mm² at the node area.node_nm (default 16 nm, the class of
 * TSMC 12FFN on which GV100 is built: the calibration point). */
#include <stdint.h>
#include "params.h"

/* The node the area.* defaults describe (see docs/area.md). */
#define WS_AREA_REF_NODE_NM 16.0

typedef struct ws_area {
    double core_mm2;        /* one core: the sum of the seven core terms below */
    double chip_mm2;        /* cores × core_mm2 + uncore_mm2 */
    double rf_mm2;          /* register file */
    double l1_smem_mm2;     /* L1 data cache + shared memory SRAM (0 if not registered) */
    double warp_state_mm2;  /* per-warp scheduler entry, instruction buffer, scoreboard × warps */
    double divergence_mm2;  /* per-warp divergence state (stack or barrier) × warps */
    double collector_mm2;   /* operand collectors: 3 operands × warp_size × 32 bits each */
    double dispatch_mm2;    /* dispatch ports beyond the first (issue_width > 1) */
    double sched_mm2;       /* processing blocks: area.scheduler_mm2 × schedulers */
    double fixed_mm2;       /* area.core_fixed_mm2 */
    double uncore_mm2;      /* whole chip: area.uncore_mm2 + area.uncore_per_core_mm2 × cores */
} ws_area;

/* Fills out from cfg. Called once per simulated point (it looks up the
 * optional l1_kb / smem_kb parameters by name). Deterministic. */
void ws_area_compute(const ws_config *cfg, ws_area *out);

/* The area_* metrics (metrics.def): each core term x cores, and the uncore;
 * they sum to area_mm2 (docs/area.md "Metrics"). */
void ws_area_metrics(const ws_config *cfg, const ws_area *a, ws_value *metrics);

/* Bits of divergence state one warp needs under cfg's divergence scheme:
 * the scheme's ws_div_ops.state_bits (src/sim/div/div_*.c; docs/area.md). */
uint64_t ws_area_divergence_bits(const ws_config *cfg);

/* A float parameter that counts something (entries, bits), rounded to the
 * nearest integer and at least 1. */
uint64_t ws_area_count(const ws_config *cfg, ws_param_id id);

/* Area of one SRAM array of kb KiB split into `banks` banks, at the
 * calibration node (16 nm, before area.node_nm scaling):
 *   banks × area.sram_bank_mm2 + kb × area.sram_kb_mm2. */
double ws_area_sram_mm2(const ws_config *cfg, double kb, double banks);

/* (area.node_nm / 16)²: the first-order factor applied to every term. */
double ws_area_node_scale(const ws_config *cfg);

/* Giga thread-instructions per second per mm²: ipc × clock_ghz / area_mm2
 * (0 when area_mm2 <= 0). */
double ws_throughput_per_area(double ipc, double clock_ghz, double area_mm2);

#endif
