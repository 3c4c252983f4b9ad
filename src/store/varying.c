#include <string.h>
#include "warpsweep/store.h"

void ws_varying_add(ws_varying *v, const ws_row *row)
{
    if (v->rows++ == 0)
        memcpy(v->first, row->params, sizeof v->first);
    for (int i = 0; i < WS_NPARAMS; i++)
        if (row->params[i].i != v->first[i].i)   /* bit patterns: floats compare exactly */
            v->varies[i] = 1;
}
