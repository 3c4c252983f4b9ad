/*
 * Shared-memory bank conflicts (docs/memory.md): 4-byte banks, bank of a
 * word = word mod banks; one pass delivers one distinct word per bank, every
 * lane reading that word gets it (broadcast); degree = the number of passes.
 * Atomics (atom/red.shared) do not broadcast: since Maxwell they are native
 * read-modify-writes in the shared-memory unit and lanes on one address are
 * serialised (NVIDIA Maxwell Tuning Guide 1.4.3.3, "native shared memory
 * atomic operations"; N. Sakharnykh, "GPU Pro Tip: Fast Histograms Using
 * Shared Atomics on Maxwell", NVIDIA blog 2015: low-entropy input, many
 * lanes on one bin, is the slow case), smem_atomic_serial.
 */
#include "mem_internal.h"

/* Atomics (atomic_lanes): a read-modify-write per lane, so lanes on one word
 * take one pass each and the degree is the most lane-words on one bank. */
static uint32_t atomic_degree(const ws_effect *eff, uint32_t banks)
{
    uint32_t count[WS_SMEM_MAX_BANKS] = {0}, degree = 0;
    const uint64_t bytes = eff->mem_bytes ? eff->mem_bytes : 1;
    for (uint64_t mask = eff->mem_mask; mask; mask &= mask - 1) {
        unsigned l = (unsigned)__builtin_ctzll(mask);
        if (l >= WS_MAX_WARP_SIZE) break;
        if (eff->mem_lane_space[l] != WS_SP_SHARED) continue;
        uint64_t a = eff->mem_addr[l];
        for (uint64_t w = a / 4; w <= (a + bytes - 1) / 4; w++) {
            uint32_t b = (uint32_t)(w % banks);
            if (++count[b] > degree) degree = count[b];
        }
    }
    return degree;
}

uint32_t ws_smem_conflict_degree(const ws_effect *eff, uint32_t banks, int atomic_lanes)
{
    if (banks == 0) banks = 1;
    if (banks > WS_SMEM_MAX_BANKS) banks = WS_SMEM_MAX_BANKS;
    if (atomic_lanes && eff->mem_kind == 3) return atomic_degree(eff, banks);
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
