#ifndef WS_H5_READ_H
#define WS_H5_READ_H
/* Reading root and dataset attributes of a results file without trusting it:
 * each attribute's dataspace, class and size are checked before H5Aread, so a
 * damaged or forged file cannot overflow a buffer (shared by h5.c and
 * shard.c). Each returns 1 (read), 0 (absent) or -1 (present but not what
 * warpsweep writes, or an HDF5 error: err says which, naming path). */
#include <hdf5.h>
#include <stdint.h>
#include "warpsweep/error.h"

/* the largest string attribute read (sweep_yaml is the sweep file's text) */
#define WS_H5_MAX_STR_ATTR ((size_t)16 << 20)

int ws_h5_attr_i64(hid_t loc, const char *path, const char *name, int64_t *v, ws_error *err);
/* a fixed-length string, malloc'ed into *out */
int ws_h5_attr_str(hid_t loc, const char *path, const char *name, char **out, ws_error *err);
/* a fixed-length string copied into out (cap bytes, NUL-terminated) */
int ws_h5_attr_strbuf(hid_t loc, const char *path, const char *name, char *out, size_t cap, ws_error *err);

#endif
