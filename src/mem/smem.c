/*
 * Shared-memory bank conflicts (docs/memory.md): 4-byte banks, bank of a
 * word = word mod banks; one pass delivers one distinct word per bank, every
 * lane reading that word gets it (broadcast); degree = the number of passes.
 */
#include "mem_internal.h"

uint32_t ws_smem_conflict_degree(const ws_effect *eff, uint32_t banks)
{
    if (banks == 0) banks = 1;
    if (banks > WS_SMEM_MAX_BANKS) banks = WS_SMEM_MAX_BANKS;
    /* distinct words, ascending (lanes x at most 8 words each) */
    uint64_t words[WS_MAX_WARP_SIZE * 8];
    uint32_t n = 0;
    const uint64_t bytes = eff->mem_bytes ? eff->mem_bytes : 1;
    uint64_t mask = eff->mem_mask;
    while (mask) {
        unsigned l = (unsigned)__builtin_ctzll(mask);
        mask &= mask - 1;
        if (l >= WS_MAX_WARP_SIZE) break;
        if (eff->mem_lane_space[l] != WS_SP_SHARED) continue;
        uint64_t a = eff->mem_addr[l];
        for (uint64_t w = a / 4; w <= (a + bytes - 1) / 4 && n < WS_MAX_WARP_SIZE * 8; w++) {
            /* insertion into the sorted, duplicate-free list */
            uint32_t i = n;
            while (i > 0 && words[i - 1] > w) i--;
            if (i > 0 && words[i - 1] == w) continue;
            for (uint32_t j = n; j > i; j--) words[j] = words[j - 1];
            words[i] = w;
            n++;
        }
    }
    uint32_t count[WS_SMEM_MAX_BANKS] = {0};
    uint32_t degree = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t b = (uint32_t)(words[i] % banks);
        if (++count[b] > degree) degree = count[b];
    }
    return degree;
}
