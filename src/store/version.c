/* Model versions (store.h): the one message that refuses to mix rows of two. */
#include <stdio.h>
#include "warpsweep/store.h"

const char *ws_model_mismatch(int64_t v, const char *path, const char *what, char *buf, size_t n)
{
    if (v == WS_MODEL_VERSION)
        return NULL;
    char theirs[64];
    if (v == 0)
        snprintf(theirs, sizeof theirs, "was written before model versions");
    else
        snprintf(theirs, sizeof theirs, "holds rows of model version %lld", (long long)v);
    snprintf(buf, n, "%s %s and this warpsweep's model is version %d (CHANGES.md says what changed): refusing to %s "
             "across model versions; run the sweep again into a new file (or use the warpsweep that wrote it)",
             path, theirs, WS_MODEL_VERSION, what);
    return buf;
}
