/* Global memory regions: lookup by address. */
#include "warpsweep/exec.h"

ws_region *ws_gmem_find(const ws_gmem *m, uint64_t addr, uint64_t size)
{
    if (!m || !m->nregions) return NULL;
    /* last region whose addr <= addr */
    uint32_t lo = 0, hi = m->nregions;
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (m->regions[mid].addr <= addr) lo = mid; else hi = mid;
    }
    ws_region *r = &m->regions[lo];
    if (addr < r->addr) return NULL;
    uint64_t off = addr - r->addr;
    if (off >= r->size || size > r->size - off) return NULL;
    return r;
}
