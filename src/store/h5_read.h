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

/* To be called by every store function before its first HDF5 call: turns
 * HDF5's error printing off (errors become warpsweep's one-line messages)
 * and its exit handler (H5dont_atexit). When H5Fclose fails (a full disk
 * while the metadata is flushed) the file stays half-closed in HDF5's tables
 * and no call can release it: the handler would crash on it at exit. Every
 * file warpsweep opens is closed explicitly, so the handler has nothing else
 * to do. */
void ws_h5_begin(void);

/* Checks that path can be read without crashing: reads everything the
 * store's readers read, in a forked child (vet.c); 0 if the child got
 * through, else -1 with one line in err naming the file. Each file (inode,
 * size, mtime) is vetted once per process. */
int ws_h5_vet(const char *path, ws_error *err);
/* ws_h5_begin, ws_h5_vet, then H5Fopen read-only: the only way the store
 * opens a file it did not just write */
hid_t ws_h5_open_read(const char *path, ws_error *err);

/* the largest string attribute read (sweep_yaml is the sweep file's text) */
#define WS_H5_MAX_STR_ATTR ((size_t)16 << 20)

int ws_h5_attr_i64(hid_t loc, const char *path, const char *name, int64_t *v, ws_error *err);
/* a fixed-length string, malloc'ed into *out */
int ws_h5_attr_str(hid_t loc, const char *path, const char *name, char **out, ws_error *err);
/* a fixed-length string copied into out (cap bytes, NUL-terminated) */
int ws_h5_attr_strbuf(hid_t loc, const char *path, const char *name, char *out, size_t cap, ws_error *err);

#endif
