#ifndef WARPSWEEP_PASSES_H
#define WARPSWEEP_PASSES_H
/*
 * Load-time analyses and transformations over a decoded kernel.
 *
 *   ws_cfg_build / ws_postdom   (declared in ptx.h, src/ptx/cfg.c)
 *   ws_uniformity               (src/ptx/uniform.c)
 *   ws_barrier_transform        (src/ptx/barrier_pass.c)
 *   ws_list_schedule            (src/ptx/sched_pass.c)
 *
 * All of them are deterministic and use no global state.
 */
#include "ptx.h"

/* ---- uniformity analysis (src/ptx/uniform.c) ----
 *
 * Sets ws_inst.uniform = 1 on every branch (bra, brx) proven to take the same
 * direction for all active threads of a warp, 0 on the others (and 0 on every
 * non-branch instruction). Requires the CFG (k->blocks, block_of, ipdoms):
 * ws_cfg_build calls it at its end, so a loaded kernel already carries the flags.
 *
 * Uniform: bra.uni / brx.idx.uni, an unguarded bra, a guarded bra whose
 * predicate is uniform, a brx.idx whose index (and guard) are uniform.
 * A register is varying when any definition of it
 *   - reads a varying register (guard included) or the carry of a varying .cc,
 *   - reads %tid, %laneid, %warpid, %smid, %clock, %clock64, %lanemask_*
 *     (%ntid, %ctaid, %nctaid, %nwarpid, %nsmid, %gridid are uniform),
 *   - loads from anything but .param/.const (ld.global/.shared/.local/generic,
 *     ldu), is an atom, shfl, vote, match, activemask or bar.red result,
 *   - lies in code control-dependent on a varying branch: the blocks reachable
 *     from the branch before its immediate post-dominator (the whole rest of the
 *     kernel when that is the virtual exit).
 * Iterated to a fixed point (the set of varying registers only grows).
 * ws_inst.cta_uniform = 1 on the branches uniform by their registers alone:
 * no register above varies across the CTA's threads (those of %ctaid and
 * friends are the same for all of them), but .uni only asserts a warp's
 * agreement, so a .uni branch counts only when its registers prove it (and
 * the regions of the .uni branches they do not are control-dependent: the
 * analysis is rerun without .uni then). tbc_wait=divergent reads it. */
void ws_uniformity(ws_kernel *k);

/* ---- convergence-barrier pass (src/ptx/barrier_pass.c) ----
 *
 * Returns a NEW kernel (deep copy of k: every array and string of ws_kernel
 * is the copy's own, so ws_kernel_free frees it; k is not modified) with the
 * pseudo-instructions of the Volta-style convergence-barrier scheme inserted:
 *
 *   ADD  Bx  (WS_OP_BADD, unit CTRL)  the threads that execute it join the
 *            participants of barrier Bx (the mask is emptied when Bx clears).
 *   WAIT Bx  (WS_OP_BWAIT, unit SYNC) an arriving participant is blocked; a
 *            non-participant passes. Bx clears when every participant is
 *            blocked at WAIT Bx, yielded, or exited; the blocked threads are
 *            then released together (reconvergence) and the mask is emptied.
 *            (The core should release every thread blocked at WAIT Bx when
 *            it clears, and let a WAIT on an empty barrier pass.)
 *   YIELD    (WS_OP_YIELD, unit CTRL) the thread is marked yielded, so a
 *            spinning split does not hold a barrier, and the scheduler may
 *            switch to another split.
 *
 * Placement:
 *  - every potentially divergent branch b (a guarded bra, or a brx, whose
 *    ws_inst.uniform is 0 after ws_uniformity) with an immediate post-dominator
 *    P that is not the virtual exit gets a barrier: WAIT Bx immediately before
 *    P, every edge into P now entering through the WAITs (when several
 *    barriers reconverge at P their WAITs are ordered innermost first: the
 *    barrier whose ADD comes later in program order first);
 *    ADD Bx immediately before b, except when b lies on a cycle that avoids P
 *    (a loop exited through b, e.g. the spin lock): the ADD is hoisted to
 *    the entry of that cycle, as ptxas places BSSY before the loop (the
 *    strongly connected component of b's block in the CFG without P): it is
 *    inserted before the loop header and only edges from outside the loop go
 *    through it (a fall-through from inside the loop into the header gets an
 *    inserted `bra.uni header` to skip it). Branches of the same loop that
 *    reconverge at the same P share one barrier.
 *  - a divergent branch whose post-dominator is the virtual exit gets no
 *    barrier at all (no WAIT would ever read it; its threads leave by exit).
 *  - YIELD immediately before a backward branch (ws_inst.is_backedge), after
 *    the branch's ADD when both are present, according to yield_policy:
 *      WS_YIELD_ALL   before every backward branch;
 *      WS_YIELD_SPIN  only before the back-edges of loops that may spin waiting
 *                     for another thread (SSDE-style, ElTantawy & Aamodt,
 *                     MICRO 2016; what Volta/Turing compilers do, Shoushtary
 *                     et al.). The loop of back-edge b -> h is its natural
 *                     loop: h plus every block that reaches b without passing
 *                     through h. A register is *tainted* when a definition of
 *                     it inside the loop
 *                       - is a load that another thread can change under it:
 *                         ld / ldu from .global, .shared or generic memory
 *                         (volatile or not; .local, .param, .const excluded),
 *                         an atom, a shfl / vote / match / redux /
 *                         activemask or bar.red result, or a read of
 *                         %clock / %clock64;
 *                       - reads a tainted register (guard included) or the
 *                         carry of a tainted .cc instruction in the loop;
 *                       - lies in a block of the loop control-dependent on a
 *                         loop branch with a tainted predicate/index (reachable
 *                         from it before its immediate post-dominator).
 *                     Registers defined only outside the loop are not tainted
 *                     (a loop-invariant value cannot change while spinning);
 *                     the analysis is flow-insensitive within the loop, so a
 *                     value live into the loop and redefined in it counts.
 *                     The loop is the blocks on a cycle through h and b
 *                     (they reach b avoiding h and h reaches them), also when
 *                     h does not dominate b.
 *                     The loop may spin when the guard (brx: index) of one of
 *                     its exits is tainted: a branch in the loop with a
 *                     successor outside it, the back-edge branch itself, or a
 *                     guarded exit / ret / trap in the loop. Such back-edges
 *                     get a YIELD; counted loops (exit on a counter or a
 *                     tid-derived bound, even when the body loads data) get
 *                     none, so their early leavers wait at the loop's WAIT
 *                     and the warp reconverges at the loop exit.
 *                     Not tracked: values carried through memory (a tainted
 *                     value stored and reloaded from .local).
 *    Edges from inside such a loop into its header skip the header's WAITs as
 *    well as the hoisted ADD (fine for a reducible loop: threads on its back
 *    edge are not participants of a barrier reconverging at the header).
 * Barrier registers. One barrier per reconvergence point: a divergent branch Y
 * gets no barrier when a non-hoisted barrier X with the same reconvergence
 * point encloses it (Y's branch block, or every block of Y's loop, lies in
 * X's region and is dominated by X's branch block): every thread of Y is a
 * participant of X and X's WAIT reconverges them (ptxas: one BSSY/BSYNC per
 * join). A branch whose successors other than its reconvergence point are
 * all terminal blocks (early exits, cfg.c) gets no barrier. Two barriers get
 * different registers when their regions (ADD .. WAIT, at block-part
 * granularity) overlap, when they can be reached from different successors of
 * one divergent branch (the diverged splits run concurrently), or when both
 * are, lie inside the region of, or are reachable after the WAIT of, one
 * barrier X with a YIELD in its region: X may clear while yielded
 * participants are still inside it, and the threads it releases run on out of
 * step with them. Otherwise registers are reused, greedily in program order of the
 * ADDs (lowest free index first). At run time a blocked thread resumes after
 * the WAIT it blocked at (div_barrier.c), so even threads of one register
 * blocked at different WAITs resume correctly.
 * Inserted instructions carry the line/col of the instruction they were
 * inserted for, have no operands, no registers, guard WS_NO_REG. Branch
 * targets, brx tables, ipdoms and the CFG are rebuilt for the new indices.
 *
 * Spilling (more than nregs registers needed): barriers are marked spilled,
 * outermost first (the largest region; ties: the earlier ADD), until the B
 * registers needed fit, where a spilled barrier needs one only at its ADD
 * and its WAIT points (two barriers conflict when they interfere and, with
 * one spilled, those points meet the other's). A spilled barrier gets BMOV (WS_OP_BMOV, unit INT, subop 0:
 * spill R <- B) right after each of its ADDs and BMOV (subop 1: fill B <- R)
 * right before its WAIT; a branch to the WAIT enters at the fill. Every
 * barrier keeps its own index (the run gives a spilled barrier a slot of its
 * own, standing for the general register: BMOV has no functional effect);
 * k->bmov_regs = the most spilled barriers whose regions share a point (the
 * general registers they hold, added for occupancy).
 * Fails (NULL, one-line message in err naming the kernel) when more than
 * nregs barrier registers are needed with every barrier spilled, or when
 * the CFG cannot be built. */
enum { WS_YIELD_SPIN = 0, WS_YIELD_ALL = 1 };   /* = parameter barrier_yield's choice index */
ws_kernel *ws_barrier_transform(const ws_kernel *k, unsigned nregs, int yield_policy, ws_error *err);

/* BSYNC after a spin lock's release (divergence=barrier; Shoushtary et al.,
 * arXiv 2407.02944: ptxas places the BSYNC of a spin loop after the lock's
 * release, so the lock holder leaves the critical section before it waits).
 * In a kernel from ws_barrier_transform: for every spin loop (a YIELD right
 * before a guarded backward bra) whose exit (the instruction after the
 * branch) is a WAIT, the WAIT moves down to just after the last memory write
 * (st / atom / red: the release) of the following straight-line code of the
 * same block, stopping at a branch, ret/exit/trap, a guarded instruction, a
 * CTA barrier, a warp-level .sync op, an .aligned warp instruction (mma,
 * ldmatrix, stmatrix, the wmma parts: they need the warp the WAIT converges)
 * or another ADD/WAIT/YIELD/BMOV (a spilled barrier's fill moves with its WAIT). No write there: the WAIT stays. Edges into the exit block now enter at its code.
 * Returns 0, or -1 (err set) if the CFG cannot be rebuilt. */
int ws_barrier_sink_release(ws_kernel *k, ws_error *err);

/* The YIELD decision alone: out[i] = 1 for every backward branch i of k (CFG
 * built) that gets a YIELD under yield_policy, 0 elsewhere (out has k->ninsts
 * entries). Returns 0, or -1 on allocation failure (out then all 1: safe). */
int ws_yield_points(const ws_kernel *k, int yield_policy, uint8_t *out);

/* ---- instruction order as ptxas schedules it (src/ptx/sched_pass.c) ----
 *
 * Returns a NEW kernel (deep copy of k, freeable with ws_kernel_free; k is not
 * modified) whose basic blocks are list-scheduled the way ptxas orders the
 * machine code: independent loads and long-latency operations hoisted above
 * independent instructions (parameter inst_order = ptxas; docs/model.md,
 * "Instruction order"). Meant for the raw kernel, before ws_barrier_transform.
 *
 *  - Only within a basic block: every block keeps its index range, so branch
 *    targets, brx tables and reconvergence points are unchanged (the CFG and
 *    the uniformity flags are rebuilt from the new order all the same). A
 *    block's terminating bra / brx / exit / ret / trap stays last; an ADD /
 *    WAIT / YIELD pseudo-instruction, and a cp.async.wait_group / wait_all,
 *    stays in place and nothing moves across it. Instructions move with their line, column, rd/wr lists and unit.
 *  - Dependences kept: RAW, WAR and WAW on every register (predicates and
 *    guards included); the carry flag: every add.cc/sub.cc/mad.cc and
 *    addc/subc/madc keeps its order relative to the others; memory: ld / ldu
 *    (not volatile, relaxed, acquire or release) and prefetch may pass each
 *    other, but nothing else. Every store, atom, red, ld.volatile (and ld with
 *    a memory-order qualifier), membar, fence, bar, barrier, bar.warp, shfl,
 *    vote, match, redux, activemask, nanosleep and read of %clock / %clock64
 *    is *ordered*: no load moves across it in either direction, and ordered
 *    operations keep their relative order (whatever the state space: the
 *    pass assumes that everything may alias).
 *  - Order: the DAG's instructions are placed one per step on a notional
 *    in-order pipeline. Priority = the latency-weighted length of the longest
 *    path from the instruction to the end of the block (data edges weigh the
 *    producer's latency, order-only edges 1). Latencies are heuristic
 *    constants of the pass, not model parameters (they only choose an order):
 *    ld / ldu / atom from .global, .local or generic memory 400, from .shared
 *    24, SFU-unit operations 20, everything else 4. At each step the
 *    candidates are the instructions whose DAG predecessors are placed; the
 *    one whose operands are ready by the step's cycle with the highest
 *    priority goes next (ties: the earlier in the PTX); when none is ready,
 *    the one ready first (then priority, then PTX order).
 *  - Register pressure: the live 32-bit slots (64-bit registers count two,
 *    predicates none, as ws_reg_pressure) are tracked greedily along the new
 *    order, starting from the block's live-in set: a value lives from its
 *    definition while an unplaced instruction of the block reads it, or to
 *    the block's end when it is live out and not redefined. A candidate that
 *    would raise the count above reg_budget is passed over while another
 *    candidate does not; when every candidate does, the rule is ignored for
 *    that step. reg_budget 0 = no bound.
 *  - Blocks longer than 256 instructions are scheduled as consecutive windows
 *    of 256 (the priority then runs to the window's end).
 *  - est_regs_per_thread is the original's (occupancy does not change with the
 *    order). Deterministic, no global state.
 *
 * Fails (NULL, one-line message in err) on allocation failure or when the CFG
 * cannot be built. */
ws_kernel *ws_list_schedule(const ws_kernel *k, unsigned reg_budget, ws_error *err);

/* Deep copy of a kernel (every array and string duplicated; CFG included).
 * NULL on allocation failure. Freeable with ws_kernel_free. */
ws_kernel *ws_kernel_clone(const ws_kernel *k);

/* Estimated registers per thread: the most 32-bit slots simultaneously live
 * (64-bit values count two, predicates none), by liveness over the CFG.
 * Used when a workload gives no regs_per_thread (src/ptx/regpressure.c). */
uint32_t ws_reg_pressure(const ws_kernel *k);

/* The registers whose values can matter (src/ptx/relevance.c): read by a
 * branch, a guard, an address, an atomic's operands, a warp-level or barrier
 * instruction, or by a pure computation (mov .. cvta, no carry) whose result
 * matters; a fixed point over the kernel. Sets their bits in rel
 * ((nregs + 63) / 64 words, cleared first); returns how many. The livelock
 * proof with changing memory ignores the others (src/sim/deadlock.c). */
uint32_t ws_reg_relevance(const ws_kernel *k, uint64_t *rel);

/* Register compaction (src/ptx/regcompact.c): sets k->reg_slot (each virtual
 * register's row in the per-lane register file) and k->nslots (the rows) so
 * that registers share a row only when they are never live at once (linear
 * scan over live intervals). Storage only: instructions keep their register
 * numbers. ws_cfg_build calls it at its end. Without memory for the
 * liveness every register gets its own row; returns -1 (k unchanged) only
 * when not even that map can be allocated, else 0. */
int ws_reg_compact(ws_kernel *k);

/* Liveness over the CFG (src/ptx/regpressure.c): the registers live into each
 * block, as bit sets of *nwords 64-bit words per block (block b's at
 * [b * *nwords]); a guarded write does not end a live range. The caller frees
 * it; NULL on allocation failure. ws_live_out writes block b's live-out set
 * (the union of its successors' live-in sets) into out (nwords words). */
uint64_t *ws_live_in(const ws_kernel *k, size_t *nwords);
void ws_live_out(const ws_kernel *k, const uint64_t *live_in, size_t nwords, uint32_t b, uint64_t *out);

/* Lowering (src/sim/lower.c, include/warpsweep/lowering.def; docs/model.md "Lowering"): per
 * instruction of k, the SASS instructions ptxas makes of it (slots: 0 folded into its consumers,
 * n an expansion), for a branch it if-converts the body's slots (ifconv), of an expansion those on
 * its own unit (unit; 0: the unit's own interval), and whether it is a conversion on the XU (xu).
 * Returns -1 when out of memory. ws_lower_form_slots: lowering.def's count for `in` alone (1 when
 * no row matches). ws_lower_form_mix: for an expansion (a row of two or more slots) its SASS by
 * energy class into mix (WS_LMIX_*: lowering.def's X column) and returns its slots; 0 (mix
 * untouched) when `in` is charged as itself. */
enum { WS_LMIX_F, WS_LMIX_FM, WS_LMIX_D, WS_LMIX_I, WS_LMIX_IM, WS_LMIX_S, WS_LMIX_SQ, WS_LMIX_N };
typedef struct ws_lowered {
    uint8_t slots, ifconv, unit;
    uint8_t xu;
} ws_lowered;
int ws_lower_kernel(const ws_kernel *k, ws_lowered *out);
int ws_lower_form_slots(const ws_inst *in);
int ws_lower_form_mix(const ws_inst *in, uint8_t mix[WS_LMIX_N]);

#endif
