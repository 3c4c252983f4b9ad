/* LD_PRELOAD shim for tests/e2e/resume_verify.sh: after warpsweep renames a
 * rebuilt results file (OUT.h5.tmp -> OUT.h5) into place, cuts OUT.h5 to its
 * first 3000 bytes, as a disk or another process damaging it between the
 * rename and warpsweep's re-read would. Built at test time:
 *   cc -shared -fPIC -o shim.so damage_on_rename.c -ldl */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int rename(const char *from, const char *to)
{
    int (*real)(const char *, const char *) = (int (*)(const char *, const char *))dlsym(RTLD_NEXT, "rename");
    int rc = real(from, to);
    size_t n = strlen(from);
    if (rc == 0 && n > 8 && strcmp(from + n - 7, ".h5.tmp") == 0)
        rc = truncate(to, 3000);
    return rc;
}
