/* The unified L1 / shared-memory array and its carve-out (docs/memory.md
 * "Carve-out"): Volta and later GPUs have one SRAM array per SM that the
 * driver splits between the L1 data cache and shared memory, at one of the
 * sizes the hardware offers (CUDA's cudaFuncAttributePreferredSharedMemoryCarveout
 * picks it). l1_smem_kb is the array, smem_carveout_kb the shared part. */
#include <stdio.h>
#include <string.h>
#include "warpsweep/params.h"

/* The shared-memory sizes each preset's hardware offers, KiB (CUDA C++
 * Programming Guide, "Compute Capabilities": 2.x: 16 or 48 KB of the 64 KB;
 * 7.0: 0, 8, 16, 32, 64 or 96 KB; 7.5: 32 or 64 KB; 8.0: 0, 8, 16, 32, 64,
 * 100, 132 or 164 KB). gpgpusim_qv100 is GPGPU-Sim's SM7_QV100, whose
 * -gpgpu_shmem_option lists Volta's: 0,8,16,32,64,96. */
static const struct { const char *preset; int n; int16_t kb[8]; } carveouts[] = {
    {"fermi", 2, {16, 48}},
    {"volta", 6, {0, 8, 16, 32, 64, 96}},
    {"turing", 2, {32, 64}},
    {"ampere", 8, {0, 8, 16, 32, 64, 100, 132, 164}},
    {"gpgpusim_qv100", 6, {0, 8, 16, 32, 64, 96}},
};

void ws_config_apply_carveout(ws_config *c)
{
    const int64_t carve = c->v[WS_P_smem_carveout_kb].i, array = c->v[WS_P_l1_smem_kb].i;
    if (carve < 0 || array <= 0)
        return;
    c->v[WS_P_smem_kb].i = carve;
    c->v[WS_P_l1_kb].i = array > carve ? array - carve : 0;
}

int ws_config_check_carveout(const ws_config *c, ws_error *err)
{
    const int64_t carve = c->v[WS_P_smem_carveout_kb].i, array = c->v[WS_P_l1_smem_kb].i;
    if (carve < 0)
        return 0;
    if (array <= 0)
        return ws_fail(err, "smem_carveout_kb=%lld needs the unified array: l1_smem_kb is 0 (l1_kb and smem_kb are "
                       "separate; set l1_smem_kb, or a preset that has one)", (long long)carve);
    if (carve > array)
        return ws_fail(err, "smem_carveout_kb=%lld is more than the array, l1_smem_kb=%lld", (long long)carve,
                       (long long)array);
    /* the memory preset's own array: only the carve-outs its hardware offers */
    const int64_t preset = ws_config_part_preset(c, WS_PART_MEM);
    ws_value own;
    char name[64];
    if (!ws_preset_get(preset, WS_P_l1_smem_kb, &own) || own.i != array)
        return 0;
    ws_param_choice(WS_P_preset, preset, name, sizeof name);
    for (size_t p = 0; p < sizeof carveouts / sizeof carveouts[0]; p++) {
        if (strcmp(carveouts[p].preset, name))
            continue;
        char list[96] = "";
        for (int k = 0; k < carveouts[p].n; k++) {
            if (carveouts[p].kb[k] == carve)
                return 0;
            size_t at = strlen(list);
            snprintf(list + at, sizeof list - at, "%s%d", k ? ", " : "", carveouts[p].kb[k]);
        }
        return ws_fail(err, "smem_carveout_kb=%lld: %s's %lld KiB array offers shared memory of %s KiB only (CUDA C++ "
                       "Programming Guide); another l1_smem_kb models other hardware", (long long)carve, name,
                       (long long)array, list);
    }
    return 0;
}
