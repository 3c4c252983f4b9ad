/*
 * The structural limits of a core (docs/model.md, "Execution units",
 * "Operand collector", "Front end"): what may stop an instruction whose
 * operands are ready from issuing, and what its issue occupies.
 *
 *  - Execution units per scheduler: INT, FP32, FP64, SFU (and the branch
 *    unit, never busy). A warp instruction occupies its unit for the
 *    initiation interval ceil(warp_size / lanes) cycles, times int64_cost for
 *    64-bit integer arithmetic, or the interval of its cost class (the
 *    division and root sequences ptxas emits). The next instruction for that
 *    unit waits (idle_unit).
 *  - The LD/ST (MIO) pipe per core, shared by its schedulers: an access
 *    occupies it for its bytes over lsu_bytes_per_cycle (shared memory: one
 *    wavefront of smem_banks x 4 B per conflict degree; global/local: one
 *    l1_line per line request after coalescing).
 *  - Operand collectors per scheduler: an instruction with register sources
 *    takes a free collector at issue and holds it until its sources are read;
 *    each register-file bank serves rf_bank_ports reads per cycle, so sources
 *    in one bank serialise and delay execution (GPGPU-Sim opndcoll_rfu_t).
 *  - Front end per warp: an instruction buffer of `ibuffer` entries, refilled
 *    when it runs empty (GPGPU-Sim fetches for a warp whose buffer is empty)
 *    or when the next PC is not the buffered one (taken branch, reconvergence,
 *    a switch of splits); a refill takes one of fetch_width fetch ports of the
 *    core for a cycle and its instructions may issue fetch_latency cycles
 *    later (idle_fetch). While a warp runs several splits (convergence
 *    barriers) its fetch is ideal: one buffer shared by splits that the
 *    scheme interleaves on every stall would be taken from one split by the
 *    other forever (Turing switches splits only at YIELD/BSYNC, issue 13);
 *    reconverging to one split is a redirect.
 * Every limit is off when its parameter is 0 (the seed's idealised core).
 */
#include <stdlib.h>
#include "core_internal.h"

static uint32_t interval(double lanes, uint32_t ws)
{
    if (lanes <= 0) return 0;
    double ii = (double)ws / lanes;
    uint32_t n = (uint32_t)ii;
    if ((double)n < ii) n++;                 /* ceil */
    return n ? n : 1;
}

/* The tensor unit: latency tensor_latency; an mma of shape MxNxK occupies it
 * ceil(M*N*K / rate) cycles at its operand type's rate (0: never busy). */
static void tensor_setup(ws_simrun *r, const ws_config *cfg)
{
    static const struct { uint16_t macs; uint8_t rate; } form[WS_NMMA] = {
        [WS_MMA_M16N8K16_F16] = {16 * 8 * 16, 0}, [WS_MMA_M16N8K8_F16] = {16 * 8 * 8, 0},
        [WS_MMA_M16N8K8_TF32] = {16 * 8 * 8, 1},  [WS_MMA_M16N8K32_I8] = {16 * 8 * 32, 2},
        [WS_MMA_M16N8K16_I8] = {16 * 8 * 16, 2},  [WS_MMA_M8N8K4_F64] = {8 * 8 * 4, 3},
        [WS_MMA_M8N8K16_I8] = {8 * 8 * 16, 2},    [WS_MMA_M8N8K32_I4] = {8 * 8 * 32, 4},
        [WS_MMA_M8N8K4_F16] = {4 * 8 * 8 * 4, 0},  /* four 8x8x4 products per warp (one per quad pair) */
        [WS_MMA_M16N8K32_F8] = {16 * 8 * 32, 5},  [WS_MMA_M16N8K16_F8] = {16 * 8 * 16, 5},
    };
    const double rate[6] = {ws_cfg_f(cfg, WS_P_tensor_f16_macs), ws_cfg_f(cfg, WS_P_tensor_tf32_macs),
                            ws_cfg_f(cfg, WS_P_tensor_int8_macs), ws_cfg_f(cfg, WS_P_tensor_f64_macs),
                            ws_cfg_f(cfg, WS_P_tensor_int4_macs), ws_cfg_f(cfg, WS_P_tensor_fp8_macs)};
    r->lat_unit[WS_UNIT_TENSOR] = (uint64_t)ws_cfg_i(cfg, WS_P_tensor_latency);
    r->ii_unit[WS_UNIT_TENSOR] = 0;
    for (int f = 1; f < WS_NMMA; f++) r->ii_mma[f] = interval(rate[form[f].rate], form[f].macs);
}

void ws_pipe_setup(ws_simrun *r, const ws_config *cfg)
{
    uint64_t alu = r->lat_alu, sfu = r->lat_sfu;
    uint64_t fp64 = (uint64_t)ws_cfg_i(cfg, WS_P_fp64_latency);
    for (int u = 0; u < WS_NUNITS; u++) r->lat_unit[u] = alu;
    r->lat_unit[WS_UNIT_SFU] = sfu;
    r->lat_unit[WS_UNIT_FP64] = fp64 ? fp64 : alu;
    r->ii_unit[WS_UNIT_INT] = interval(ws_cfg_f(cfg, WS_P_int_lanes), r->ws);
    r->ii_unit[WS_UNIT_FP32] = interval(ws_cfg_f(cfg, WS_P_fp32_lanes), r->ws);
    r->ii_unit[WS_UNIT_FP64] = interval(ws_cfg_f(cfg, WS_P_fp64_lanes), r->ws);
    r->ii_unit[WS_UNIT_SFU] = interval(ws_cfg_f(cfg, WS_P_sfu_lanes), r->ws);
    tensor_setup(r, cfg);
    /* cost classes: 0 = the unit's latency / interval; the seed charged every
     * division and root at sfu_latency */
    uint64_t il = (uint64_t)ws_cfg_i(cfg, WS_P_idiv_latency), fl = (uint64_t)ws_cfg_i(cfg, WS_P_fdiv_latency),
             dl = (uint64_t)ws_cfg_i(cfg, WS_P_ddiv_latency);
    r->lat_cost[WS_COST_IDIV] = il ? il : sfu;
    r->lat_cost[WS_COST_FDIV] = fl ? fl : sfu;
    r->lat_cost[WS_COST_DDIV] = dl ? dl : sfu;
    r->occ_cost[WS_COST_IDIV] = (uint32_t)ws_cfg_i(cfg, WS_P_idiv_interval);
    r->occ_cost[WS_COST_FDIV] = (uint32_t)ws_cfg_i(cfg, WS_P_fdiv_interval);
    r->occ_cost[WS_COST_DDIV] = (uint32_t)ws_cfg_i(cfg, WS_P_ddiv_interval);
    r->int64_cost = (uint32_t)ws_cfg_i(cfg, WS_P_int64_cost);
    r->lat_simple = (uint64_t)ws_cfg_i(cfg, WS_P_simple_latency);
    r->lat_mad = (uint64_t)ws_cfg_i(cfg, WS_P_mad_latency);
    r->lat_minmax = (uint64_t)ws_cfg_i(cfg, WS_P_minmax_latency);
    r->lat_by_opcode = r->lat_simple || r->lat_mad || r->lat_minmax;
    r->unit_queue = (uint32_t)ws_cfg_i(cfg, WS_P_unit_queue);
    for (int u = 0; u < WS_NUNITS; u++) r->unit_back[u] = (uint64_t)r->unit_queue * r->ii_unit[u];
    r->lsu_bytes = (uint32_t)ws_cfg_i(cfg, WS_P_lsu_bytes_per_cycle);
    r->l1_line = (uint32_t)ws_cfg_i(cfg, WS_P_l1_line);
    r->rf_banks = (uint32_t)ws_cfg_i(cfg, WS_P_rf_banks);
    r->rf_ports = (uint32_t)ws_cfg_i(cfg, WS_P_rf_bank_ports);
    r->ncoll = (uint32_t)ws_cfg_i(cfg, WS_P_collectors);
    r->ibuf = (uint32_t)ws_cfg_i(cfg, WS_P_ibuffer);
    r->fetch_lat = (uint32_t)ws_cfg_i(cfg, WS_P_fetch_latency);
    r->fetch_width = (uint32_t)ws_cfg_i(cfg, WS_P_fetch_width);
}

uint32_t ws_unit_occupancy(const ws_simrun *r, const ws_inst *in)
{
    uint32_t o = r->occ_cost[in->cost];
    if (o) return o;
    if (in->unit == WS_UNIT_TENSOR) return in->subop < WS_NMMA ? r->ii_mma[in->subop] : 0;
    o = r->ii_unit[in->unit];
    return in->cost == WS_COST_WIDE ? o * r->int64_cost : o;
}

/* Per-opcode latencies beside the unit's (simple_latency, mad_latency,
 * minmax_latency; 0 = the unit's latency): GPGPU-Sim 4.2 times add/sub and
 * mul by its ptx_opcode_latency_* lists' entries for them, mad/fma and
 * min/max by theirs, and every opcode it does not list (logic, shifts,
 * compares, moves, selects, conversions, branches) in one cycle
 * (cuda-sim.cc ptx_instruction::set_opcode_and_latency). f64 mad and
 * min/max keep fp64_latency. */
static uint64_t opcode_latency(const ws_simrun *r, const ws_inst *in)
{
    const int unit = in->unit;
    if (unit == WS_UNIT_CTRL) return r->lat_simple;
    if (unit != WS_UNIT_INT && unit != WS_UNIT_FP32 && unit != WS_UNIT_FP64) return 0;
    const unsigned f = ws_opcode_flags(in->op);   /* isa.def's LAT_* flags */
    if (f & WS_OPF_LAT_UNIT) return 0;
    if (f & WS_OPF_LAT_MAD) return unit == WS_UNIT_FP64 ? 0 : r->lat_mad;
    if (f & WS_OPF_LAT_MINMAX) return unit == WS_UNIT_FP64 ? 0 : r->lat_minmax;
    return r->lat_simple;
}

uint64_t ws_unit_latency(const ws_simrun *r, const ws_inst *in)
{
    uint64_t l = r->lat_cost[in->cost];
    if (l) return l;
    if (r->lat_by_opcode && in->cost <= WS_COST_WIDE && (l = opcode_latency(r, in))) return l;
    return r->lat_unit[in->unit];
}

int ws_uses_lsu(const ws_inst *in)
{
    const unsigned f = ws_opcode_flags(in->op);   /* isa.def: LSU unless .param/.const; TEXP always */
    if (f & WS_OPF_TEXP) return 1;
    return (f & WS_OPF_LSU) && in->space != WS_SP_PARAM && in->space != WS_SP_CONST;
}

/* Register sources that go through the operand collector (predicates live
 * in their own file). */
static int is_rf_source(const ws_simrun *r, uint32_t reg)
{
    return reg < r->k->nregs && r->k->reg_types[reg] != WS_TY_PRED;
}

int ws_pipe_decode(ws_simrun *r)
{
    const uint32_t n = r->k->ninsts;
    ws_lowered *low = NULL;
    if (ws_cfg_i(r->cfg, WS_P_lowering) == 0) {          /* ptxas */
        low = malloc(sizeof *low * (n ? n : 1));
        if (!low || ws_lower_kernel(r->k, low) < 0) {
            free(low);
            return -1;
        }
    }
    for (uint32_t pc = 0; pc < n; pc++) {
        const ws_inst *in = &r->k->insts[pc];
        ws_pipe_inst *pi = &r->pinst[pc];
        pi->occ = ws_unit_occupancy(r, in);
        pi->lat = ws_unit_latency(r, in);
        pi->lsu = r->lsu_bytes && ws_uses_lsu(in);
        pi->nrf = 0;
        for (uint32_t q = 0; q < in->n_rd && q < WS_PIPE_MAX_RF; q++)
            if (is_rf_source(r, in->rd[q])) pi->rf_reg[pi->nrf++] = in->rd[q];
        pi->rf = r->ncoll && pi->nrf;
        pi->membermask = ws_warp_membermask(in);
        pi->aligned = (uint8_t)ws_warp_aligned(in);
        pi->plain = (uint8_t)(ws_inst_plain(in) && !pi->membermask && !pi->aligned);
        pi->opf = (uint16_t)ws_opcode_flags(in->op);
        pi->timing = (pi->opf & WS_OPF_MEMT) ? WS_TIME_MEM : (pi->opf & WS_OPF_CPASYNC) ? WS_TIME_CPASYNC : WS_TIME_UNIT;
        pi->n_warp = pi->n_lanes = 0;
        pi->slots = low ? low[pc].slots : 1;
        pi->ifconv = low ? low[pc].ifconv : 0;
        pi->unit = in->unit;
        if (low && low[pc].unit && in->unit < WS_NUNITS && in->unit != WS_UNIT_TENSOR)
            pi->occ = (uint32_t)low[pc].unit * r->ii_unit[in->unit];   /* the expansion's own instructions on its unit */
        if (low && low[pc].xu) {         /* I2F/F2I/F2F: the XU, at the MUFU's rate (docs/model.md "Lowering") */
            pi->unit = WS_UNIT_SFU;
            pi->occ = r->ii_unit[WS_UNIT_SFU];
        }
        if (!pi->slots) {                /* folded: no unit, port, collector or latency of its own */
            pi->occ = 0;
            pi->lat = 0;
            pi->lsu = 0;
            pi->rf = 0;
        }
    }
    free(low);
    return 0;
}

/* Takes a fetch port from cycle `from` on; returns the cycle the fetch starts. */
static uint64_t book_fetch(const ws_simrun *r, ws_core *c, uint64_t from)
{
    uint32_t best = 0;
    for (uint32_t k = 1; k < r->fetch_width; k++)
        if (c->fetch_free[k] < c->fetch_free[best]) best = k;
    uint64_t start = c->fetch_free[best] > from ? c->fetch_free[best] : from;
    c->fetch_free[best] = start + 1;
    return start;
}

static void refill(const ws_simrun *r, ws_core *c, ws_cwarp *w, uint32_t pc, uint64_t from)
{
    w->ib_pc = pc;
    w->ib_left = r->ibuf;
    w->ib_ready = book_fetch(r, c, from) + r->fetch_lat;
}

uint64_t ws_front_end_ready_at(const ws_simrun *r, ws_core *c, ws_cwarp *w, uint32_t pc, uint64_t now)
{
    if (!r->ibuf) return 0;
    if (pc != w->ib_pc || !w->ib_left) {
        if (w->ib_ready > now) return w->ib_ready;   /* a fetch for another PC is under way */
        refill(r, c, w, pc, now);                    /* a switch of splits: fetch now */
    }
    return w->ib_ready;
}

/* Schedules the source reads of `in` (warp slot `slot`) from cycle `now`;
 * returns the cycle of the last read. */
static uint64_t read_sources(const ws_simrun *r, ws_pipe *p, uint32_t slot, const ws_pipe_inst *pi, uint64_t now)
{
    uint64_t last = now;
    for (uint32_t q = 0; q < pi->nrf; q++) {
        uint32_t reg = pi->rf_reg[q];
        uint32_t b = (reg + slot) % r->rf_banks;
        if (p->bank_cycle[b] < now) { p->bank_cycle[b] = now; p->bank_used[b] = 0; }
        if (p->bank_used[b] >= r->rf_ports) { p->bank_cycle[b]++; p->bank_used[b] = 0; }
        p->bank_used[b]++;
        if (p->bank_cycle[b] > last) last = p->bank_cycle[b];
    }
    return last;
}

uint64_t ws_pipe_issue(const ws_simrun *r, ws_core *c, ws_cwarp *w, uint32_t slot, uint32_t pc, uint64_t now)
{
    ws_pipe *p = &c->pipes[w->sched];
    const ws_pipe_inst *pi = &r->pinst[pc];
    uint8_t unit = pi->unit;
    uint64_t wait = 0;                   /* behind the unit's queue (unit_queue) */
    if (pi->occ) {
        const uint64_t start = p->unit_busy[unit] > now ? p->unit_busy[unit] : now;
        const uint64_t back = r->unit_back[unit];
        p->unit_busy[unit] = start + pi->occ;
        p->unit_free[unit] = p->unit_busy[unit] > back ? p->unit_busy[unit] - back : 0;
        wait = start - now;
    }
    w->last_unit = unit;
    if (!pi->rf) return wait;
    uint32_t k = p->coll_first;
    uint64_t last = read_sources(r, p, slot, pi, now);
    if (now + wait > last) last = now + wait;   /* the operands are read while it waits */
    p->coll_free[k] = last + 1;
    uint32_t best = 0;                   /* the collector the next instruction takes */
    for (uint32_t q = 1; q < r->ncoll; q++)
        if (p->coll_free[q] < p->coll_free[best]) best = q;
    p->coll_first = best;
    return last - now;
}

uint64_t ws_lsu_occupy(const ws_simrun *r, ws_core *c, uint64_t bytes, uint64_t now)
{
    if (!r->lsu_bytes || !bytes) return 0;
    uint64_t cycles = (bytes + r->lsu_bytes - 1) / r->lsu_bytes;
    uint64_t start = c->lsu_free > now ? c->lsu_free : now;
    c->lsu_free = start + cycles;
    return cycles;
}

void ws_front_end_issued(const ws_simrun *r, ws_core *c, ws_cwarp *w, uint32_t pc, uint64_t now)
{
    w->next_pc = pc + 1;
    if (!r->ibuf || !w->live) return;
    if (!r->pinst[pc].slots && r->k->insts[pc].unit != WS_UNIT_CTRL) {
        if (w->ib_pc == pc) w->ib_pc = pc + 1;    /* folded: not in the SASS the buffer holds */
        return;
    }
    if (w->ib_left) w->ib_left--;
    w->ib_pc = pc + 1;
    const ws_split *sps;
    uint32_t start;
    uint32_t ns = r->div->splits(w->div, &sps, &start);
    if (ns > 1) {                                    /* fetched ideally while split */
        w->ib_pc = UINT32_MAX;
        w->ib_left = 0;
        return;
    }
    uint32_t next = ns ? sps[start].pc : pc + 1;
    if (next != w->ib_pc)
        refill(r, c, w, next, now + 1);              /* redirect: fetch once the branch resolved */
    else if (!w->ib_left)
        refill(r, c, w, next, now);                  /* empty: fetch in the same cycle */
}
