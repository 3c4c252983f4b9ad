/*
 * The note `sim` and `run` print when `preset` changes more than a user may
 * have meant (issue 27: preset=ampere also swaps the core and the node): one
 * line per part the preset sets besides the memory, with its values and how
 * to take the memory alone (docs/presets.md "Parts"). preset=seed, the
 * seed's idealised core, prints none.
 */
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "warpsweep/params.h"
#include "warpsweep/sweep.h"

void cli_note_preset(FILE *out, const ws_config *c)
{
    if (c->v[WS_P_preset].i == 0) return;   /* preset none */
    static const int note_parts[] = {WS_PART_CORE, WS_PART_AREA};
    static const int part_param[] = {WS_P_preset_core, WS_P_preset_area};
    char name[64];
    ws_param_choice(WS_P_preset, c->v[WS_P_preset].i, name, sizeof name);
    if (strcmp(name, "seed") == 0) return;  /* the idealised core: changing the core is its point */
    for (int i = 0; i < 2; i++) {
        if (c->v[part_param[i]].i != 0) continue;   /* the part is chosen on its own */
        char buf[2048];
        if (!ws_preset_describe(c, note_parts[i], buf, sizeof buf)) continue;
        fprintf(out, "note: %s (%s=none keeps the defaults; preset_mem=%s alone takes only its memory)\n", buf,
                ws_params[part_param[i]].name, name);
    }
}

/* The note for each preset a sweep uses: its base's, or each value of the
 * axis that holds `preset` (the other axes at their first value). */
void cli_note_sweep_presets(FILE *out, const ws_sweep *sw)
{
    if (!sw->count) return;
    ws_point pt;
    ws_sweep_point(sw, 0, &pt);
    int axis = sw->param_axis[WS_P_preset];
    if (axis < 0) {
        cli_note_preset(out, &pt.cfg);
        return;
    }
    const ws_axis *a = &sw->axes[axis];
    int j = 0;
    while (a->params[j] != WS_P_preset) j++;
    for (uint64_t d = 0; d < a->n; d++) {
        ws_config c = pt.cfg;
        c.v[WS_P_preset] = a->values[d * (uint64_t)a->nparams + (uint64_t)j].v;
        ws_config_apply_preset(&c, sw->given);
        cli_note_preset(out, &c);
    }
}
