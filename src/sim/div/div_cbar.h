#ifndef WS_DIV_CBAR_H
#define WS_DIV_CBAR_H
/* Convergence-barrier bookkeeping shared by sbi (div_sbi.c) and barrier
 * (div_barrier.c): barrier_regs participation masks part[] and blocked masks
 * blk[], and per lane the WAIT it is blocked at (patent US10067768B2's
 * per-thread state). Each scheme keeps its own split order. */
#include "divergence.h"

/* The lanes of `lanes` blocked at the WAIT at pc. */
uint64_t ws_cbar_waiting_at(const uint32_t *wait_pc, uint64_t lanes, uint32_t pc);
/* Exited lanes leave every barrier's participants. */
void ws_cbar_exit(uint64_t *part, uint32_t nbar, uint64_t exited);
/* Lanes blocked at a WAIT whose other participants all wait at a CTA barrier
 * (or are blocked there too): they reconverge only after those lanes move
 * (ws_div_ops.parked). */
uint64_t ws_cbar_parked(const uint64_t *part, const uint64_t *blk, uint32_t nbar, uint64_t exited, uint64_t held);
/* ws_cbar_parked for a warp-level .sync op at pc: only lanes blocked at a
 * WAIT after pc (the tail the op's lanes are on their way to), so lanes
 * released later cannot come to the op the others already ran. */
uint64_t ws_cbar_sync_parked(const uint64_t *part, const uint64_t *blk, uint32_t nbar, uint64_t exited,
                             uint64_t waiting, const uint32_t *wait_pc, uint32_t pc);
/* Hash step over the barriers' masks and the blocked lanes' WAITs. */
uint64_t ws_cbar_hash(uint64_t h, const uint64_t *part, const uint64_t *blk, uint32_t nbar, const uint32_t *wait_pc);
/* Appends "blocked at WAIT Bx pc P (line L) lanes .., participants .." per
 * group of blocked lanes to buf (n characters already there); returns n. */
size_t ws_cbar_describe(const ws_kernel *k, const uint64_t *part, const uint64_t *blk, uint32_t nbar,
                        const uint32_t *wait_pc, char *buf, size_t len, size_t n);

#endif
