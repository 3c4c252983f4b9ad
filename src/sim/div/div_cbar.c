/* Convergence-barrier bookkeeping shared by sbi and barrier (div_cbar.h). */
#include <stdio.h>
#include "div_cbar.h"

uint64_t ws_cbar_waiting_at(const uint32_t *wait_pc, uint64_t lanes, uint32_t pc)
{
    uint64_t same = 0;
    for (uint64_t m = lanes; m; m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctzll(m);
        if (wait_pc[l] == pc) same |= 1ull << l;
    }
    return same;
}

void ws_cbar_exit(uint64_t *part, uint32_t nbar, uint64_t exited)
{
    for (uint32_t b = 0; b < nbar; b++) part[b] &= ~exited;
}

uint64_t ws_cbar_parked(const uint64_t *part, const uint64_t *blk, uint32_t nbar, uint64_t exited, uint64_t held)
{
    uint64_t parked = 0;
    for (uint32_t b = 0; b < nbar; b++) {
        if (!blk[b]) continue;
        uint64_t waited_for = part[b] & ~exited & ~blk[b];
        if (waited_for && !(waited_for & ~held)) parked |= blk[b];
    }
    return parked;
}

uint64_t ws_cbar_sync_parked(const uint64_t *part, const uint64_t *blk, uint32_t nbar, uint64_t exited,
                             uint64_t waiting, const uint32_t *wait_pc, uint32_t pc)
{
    uint64_t parked = 0;
    for (uint32_t b = 0; b < nbar; b++) {
        if (!blk[b]) continue;
        uint64_t waited_for = part[b] & ~exited & ~blk[b];
        if (!waited_for || (waited_for & ~waiting)) continue;
        for (uint64_t m = blk[b]; m; m &= m - 1)
            if (wait_pc[__builtin_ctzll(m)] > pc) parked |= m & -m;
    }
    return parked;
}

uint64_t ws_cbar_hash(uint64_t h, const uint64_t *part, const uint64_t *blk, uint32_t nbar, const uint32_t *wait_pc)
{
    for (uint32_t b = 0; b < nbar; b++) {
        h = ws_hmix(h, part[b]);
        h = ws_hmix(h, blk[b]);
        for (uint64_t m = blk[b]; m; m &= m - 1) h = ws_hmix(h, wait_pc[__builtin_ctzll(m)]);
    }
    return h;
}

size_t ws_cbar_describe(const ws_kernel *k, const uint64_t *part, const uint64_t *blk, uint32_t nbar,
                        const uint32_t *wait_pc, char *buf, size_t len, size_t n)
{
    for (uint32_t b = 0; b < nbar && n < len; b++)
        for (uint64_t m = blk[b]; m && n < len;) {
            uint32_t pc = wait_pc[__builtin_ctzll(m)];
            uint64_t same = ws_cbar_waiting_at(wait_pc, m, pc);
            n += (size_t)snprintf(buf + n, len - n, "%sblocked at WAIT B%u pc %u (line %u) lanes 0x%llx, participants 0x%llx",
                                  n ? "; " : "", b, pc, pc < k->ninsts ? k->insts[pc].line : 0,
                                  (unsigned long long)same, (unsigned long long)part[b]);
            m &= ~same;
        }
    return n;
}
