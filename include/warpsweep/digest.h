#ifndef WARPSWEEP_DIGEST_H
#define WARPSWEEP_DIGEST_H
/* A fast 64-bit content digest: XXH64 as specified in the xxHash
 * specification (Yann Collet, "xxHash fast digest algorithm", doc/xxhash_spec.md
 * of the xxHash repository, v0.1.1). Used to recognise a changed input file
 * (the sweep hash of --resume); not a cryptographic hash. */
#include <stddef.h>
#include <stdint.h>

uint64_t ws_xxh64(const void *data, size_t len, uint64_t seed);

#endif
