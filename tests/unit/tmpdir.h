/* A temporary directory for unit tests that write workload files: tmpdir_make
 * in a cmocka setup, tmpdir_write for each file, tmpdir_remove in teardown
 * (removes the files, then the directory). Include after <cmocka.h>. */
#ifndef WS_TEST_TMPDIR_H
#define WS_TEST_TMPDIR_H
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static char dir[64];

static void tmpdir_make(const char *prefix)
{
    snprintf(dir, sizeof dir, "/tmp/%s_XXXXXX", prefix);
    assert_non_null(mkdtemp(dir));
}

static void write_file(const char *name, const char *text)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void tmpdir_remove(void)
{
    DIR *d = opendir(dir);
    if (d) {
        struct dirent *e;
        while ((e = readdir(d))) {
            if (e->d_name[0] == '.')
                continue;
            char p[512];
            snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
            unlink(p);
        }
        closedir(d);
    }
    rmdir(dir);
}
#endif
