#ifndef WS_DIV_MP_H
#define WS_DIV_MP_H
/* Multi-Path IPDOM's tables (div_multipath.c), shared with AWARE (div_aware.c). */
#include "divergence.h"

typedef struct mp_rt {
    uint32_t used, pc;       /* reconvergence PC R */
    uint32_t outer, pad;     /* the entry R's lanes belong to after it (UINT32_MAX: none) */
    uint64_t mask, pending;  /* lanes that diverged / those not at R yet */
    uint64_t since;          /* cycle the first lanes arrived (0: none waiting), for AWARE */
} mp_rt;

typedef struct mpst {
    uint32_t nst, cap, nrt, cursor;
    uint32_t max_splits, max_rt;
    uint64_t timeouts;
    _Alignas(8) unsigned char data[];   /* ws_split st[cap]; mp_rt rt[cap] */
} mpst;

size_t mp_size(const ws_div_ctx *c);
void mp_init(const ws_div_ctx *c, void *st, uint64_t valid);
uint32_t mp_splits(void *st, const ws_split **out, uint32_t *start);
int mp_update(const ws_div_ctx *c, void *st, const ws_split *sp, const ws_inst *in, const ws_effect *eff,
              char *err, size_t errlen);
uint32_t mp_level(const void *st, uint32_t idx);
void mp_stats(const void *st, uint32_t *depth, uint32_t *splits);
uint64_t mp_parked(const ws_div_ctx *c, const void *st, uint64_t held);
int mp_tick(const ws_div_ctx *c, void *st, uint64_t now, uint64_t *next, char *err, size_t errlen);
uint64_t mp_hash(const ws_div_ctx *c, const void *st, uint64_t h);
int mp_describe(const ws_div_ctx *c, const void *st, char *buf, size_t len);
uint64_t mp_state_bits(const ws_config *cfg);

#endif
