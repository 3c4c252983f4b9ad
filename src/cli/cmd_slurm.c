/* warpsweep slurm SWEEP.yaml --tasks N [--time HH:MM:SS] [--cpus C] [--partition P] [--mem M]
 *                  [--account A] [--merge-time T] [--grace S] [--sbatch OPTION]... [--no-requeue]
 *                  [-o OUT.h5] [--dir DIR] [--name NAME] [--set name=value]... [--max-points N]
 * Writes a ready-to-submit SLURM job pair (docs/cluster.md):
 *   DIR/NAME.array.sbatch  an array of N tasks, task K runs `run --shard auto --resume`
 *                          into its shard file; SIGTERM GRACE seconds before the time
 *                          limit (--signal=B:TERM@GRACE) makes it write what it has, and
 *                          the task requeues itself (--resume continues it);
 *   DIR/NAME.merge.sbatch  `warpsweep merge` of the N shard files into OUT.h5;
 *   DIR/NAME.submit.sh     submits the array, then the merge with --dependency=afterok. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cli.h"
#include "warpsweep/sweep.h"

static void usage(void)
{
    fprintf(stderr,
            "usage: warpsweep slurm SWEEP.yaml --tasks N [--time HH:MM:SS] [--cpus C] [--partition P] [--mem M]\n"
            "                       [--account A] [--merge-time HH:MM:SS] [--grace SECONDS] [--sbatch OPTION]...\n"
            "                       [--no-requeue] [-o OUT.h5] [--dir DIR] [--name NAME] [--set name=value]...\n"
            "                       [--max-points N]\n");
}

/* a string quoted for sh: 'it'\''s' */
static void q(FILE *f, const char *s)
{
    fputc('\'', f);
    for (; *s; s++)
        if (*s == '\'')
            fputs("'\\''", f);
        else
            fputc(*s, f);
    fputc('\'', f);
}

static int mkdirs(const char *path)
{
    char buf[PATH_MAX];
    if (snprintf(buf, sizeof buf, "%s/", path) >= (int)sizeof buf) {
        errno = ENAMETOOLONG;
        return -1;
    }
    for (char *p = buf + 1; *p; p++)
        if (*p == '/') {
            *p = 0;
            if (mkdir(buf, 0755) && errno != EEXIST)
                return -1;
            *p = '/';
        }
    return 0;
}

/* absolute form of a path whose last component may not exist yet */
static int absolute(const char *path, char *out, size_t cap)
{
    char dir[PATH_MAX], real[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    const char *base = path;
    if (slash) {
        *slash = 0;
        base = slash + 1;
        if (!dir[0])
            snprintf(dir, sizeof dir, "/");
    } else {
        snprintf(dir, sizeof dir, ".");
    }
    if (mkdirs(dir) || !realpath(dir, real))
        return -1;
    if (snprintf(out, cap, "%s/%s", strcmp(real, "/") ? real : "", base) >= (int)cap) {
        errno = ENAMETOOLONG;
        return -1;
    }
    return 0;
}

/* SLURM time: [D-]HH[:MM[:SS]] or MM, digits, '-' and ':' only */
static int valid_time(const char *s)
{
    if (!*s)
        return 0;
    for (const char *p = s; *p; p++)
        if (!(*p >= '0' && *p <= '9') && *p != ':' && *p != '-')
            return 0;
    return 1;
}

static void common_header(FILE *f, const char *job, const char *partition, const char *account,
                          const char **extra, int nextra)
{
    fprintf(f, "#!/bin/bash\n#SBATCH --job-name=%s\n", job);
    if (partition)
        fprintf(f, "#SBATCH --partition=%s\n", partition);
    if (account)
        fprintf(f, "#SBATCH --account=%s\n", account);
    for (int i = 0; i < nextra; i++)
        fprintf(f, "#SBATCH %s\n", extra[i]);
}

int cmd_slurm(int argc, char **argv)
{
    const char *file = NULL, *name = NULL, *out = NULL, *dir = NULL, *time_limit = "01:00:00",
               *merge_time = "01:00:00", *partition = NULL, *account = NULL, *mem = NULL;
    long tasks = 0, cpus = 1, grace = 120;
    int requeue = 1;
    unsigned long long max_points = 0;
    const char **sets = calloc((size_t)argc + 1, sizeof(char *)), **extra = calloc((size_t)argc + 1, sizeof(char *));
    int nsets = 0, nextra = 0, rc = WS_EXIT_USAGE;
    ws_sweep **sws = NULL;
    int n = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int more = i + 1 < argc;
        char *end;
        if (strcmp(a, "--tasks") == 0 && more) {
            tasks = strtol(argv[++i], &end, 10);
            if (*end || tasks < 1 || tasks > 1000000) {
                fprintf(stderr, "warpsweep slurm: --tasks expects a number of array tasks (1..1000000), got '%s'\n",
                        argv[i]);
                goto out;
            }
        } else if (strcmp(a, "--cpus") == 0 && more) {
            cpus = strtol(argv[++i], &end, 10);
            if (*end || cpus < 1 || cpus > 4096) {
                fprintf(stderr, "warpsweep slurm: --cpus expects a positive number, got '%s'\n", argv[i]);
                goto out;
            }
        } else if (strcmp(a, "--grace") == 0 && more) {
            grace = strtol(argv[++i], &end, 10);
            if (*end || grace < 1 || grace > 65535) {
                fprintf(stderr, "warpsweep slurm: --grace expects seconds (1..65535), got '%s'\n", argv[i]);
                goto out;
            }
        } else if ((strcmp(a, "--time") == 0 || strcmp(a, "--merge-time") == 0) && more) {
            const char *v = argv[++i];
            if (!valid_time(v)) {
                fprintf(stderr, "warpsweep slurm: %s expects a SLURM time such as 08:00:00 or 1-00:00:00, got '%s'\n",
                        a, v);
                goto out;
            }
            if (a[2] == 't')
                time_limit = v;
            else
                merge_time = v;
        } else if (strcmp(a, "--partition") == 0 && more)
            partition = argv[++i];
        else if (strcmp(a, "--account") == 0 && more)
            account = argv[++i];
        else if (strcmp(a, "--mem") == 0 && more)
            mem = argv[++i];
        else if (strcmp(a, "--sbatch") == 0 && more)
            extra[nextra++] = argv[++i];
        else if (strcmp(a, "--no-requeue") == 0)
            requeue = 0;
        else if ((strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0) && more)
            out = argv[++i];
        else if (strcmp(a, "--dir") == 0 && more)
            dir = argv[++i];
        else if (strcmp(a, "--name") == 0 && more)
            name = argv[++i];
        else if (strcmp(a, "--set") == 0 && more)
            sets[nsets++] = argv[++i];
        else if (strcmp(a, "--max-points") == 0 && more) {
            max_points = strtoull(argv[++i], &end, 10);
            if (*end || !max_points) {
                fprintf(stderr, "warpsweep slurm: --max-points expects a positive integer\n");
                goto out;
            }
        } else if (a[0] == '-' || file) {
            fprintf(stderr, "warpsweep slurm: unexpected argument '%s'\n", a);
            usage();
            goto out;
        } else
            file = a;
    }
    if (!file || !tasks) {
        usage();
        goto out;
    }
    for (int i = 0; i < nextra; i++)
        if (strchr(extra[i], '\n')) {
            fprintf(stderr, "warpsweep slurm: --sbatch option with a newline\n");
            goto out;
        }
    /* the sweep must load here (workloads included), so that the night is not lost to a typo */
    ws_sweep_opts opts = {.sets = sets, .nsets = nsets, .load_workloads = 1};
    ws_error err;
    if (ws_sweep_load(file, name, &opts, &sws, &n, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        rc = WS_EXIT_FAIL;
        goto out;
    }
    if (n > 1) {
        fprintf(stderr, "warpsweep slurm: %s holds %d sweeps: choose one with --name\n", file, n);
        goto out;
    }
    const ws_sweep *sw = sws[0];
    if (ws_sweep_check_size(sw, max_points, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        rc = WS_EXIT_FAIL;
        goto out;
    }
    if ((uint64_t)tasks > sw->count)
        fprintf(stderr, "warpsweep slurm: note: %ld tasks for %llu points: %llu tasks will have nothing to do\n", tasks,
                (unsigned long long)sw->count, (unsigned long long)((uint64_t)tasks - sw->count));

    char bin[PATH_MAX], sweep_abs[PATH_MAX], out_abs[PATH_MAX], dir_abs[PATH_MAX], shard_dir[PATH_MAX + 16],
        log_dir[PATH_MAX + 8], tmp[PATH_MAX];
    ssize_t bl = readlink("/proc/self/exe", bin, sizeof bin - 1);
    if (bl <= 0) {
        fprintf(stderr, "warpsweep slurm: cannot find this program's path\n");
        rc = WS_EXIT_FAIL;
        goto out;
    }
    bin[bl] = 0;
    if (!realpath(file, sweep_abs)) {
        fprintf(stderr, "warpsweep slurm: %s: %s\n", file, strerror(errno));
        rc = WS_EXIT_FAIL;
        goto out;
    }
    snprintf(tmp, sizeof tmp, "%s", out ? out : "");
    if (!out)
        snprintf(tmp, sizeof tmp, "results/%s.h5", sw->name);
    if (absolute(tmp, out_abs, sizeof out_abs)) {
        fprintf(stderr, "warpsweep slurm: %s: cannot create its directory: %s\n", tmp, strerror(errno));
        rc = WS_EXIT_FAIL;
        goto out;
    }
    snprintf(tmp, sizeof tmp, "%s", dir ? dir : "slurm");
    if (mkdirs(tmp) || !realpath(tmp, dir_abs)) {
        fprintf(stderr, "warpsweep slurm: %s: cannot create: %s\n", tmp, strerror(errno));
        rc = WS_EXIT_FAIL;
        goto out;
    }
    {
        size_t ol = strlen(out_abs);
        int strip = ol > 3 && strcmp(out_abs + ol - 3, ".h5") == 0;
        snprintf(shard_dir, sizeof shard_dir, "%.*s.shards", (int)(strip ? ol - 3 : ol), out_abs);
    }
    snprintf(log_dir, sizeof log_dir, "%s/logs", dir_abs);
    if (mkdirs(shard_dir) || mkdirs(log_dir)) {
        fprintf(stderr, "warpsweep slurm: cannot create %s or %s: %s\n", shard_dir, log_dir, strerror(errno));
        rc = WS_EXIT_FAIL;
        goto out;
    }
    char array_path[PATH_MAX + 300], merge_path[PATH_MAX + 300], submit_path[PATH_MAX + 300];
    snprintf(array_path, sizeof array_path, "%s/%s.array.sbatch", dir_abs, sw->name);
    snprintf(merge_path, sizeof merge_path, "%s/%s.merge.sbatch", dir_abs, sw->name);
    snprintf(submit_path, sizeof submit_path, "%s/%s.submit.sh", dir_abs, sw->name);
    char job[300];
    snprintf(job, sizeof job, "ws-%s", sw->name);
    for (char *p = job; *p; p++)
        if (*p == ' ' || *p == '\'' || *p == '"' || *p == '\\')
            *p = '_';

    /* ---- the array job ---- */
    FILE *f = fopen(array_path, "w");
    if (!f) {
        fprintf(stderr, "warpsweep slurm: %s: %s\n", array_path, strerror(errno));
        rc = WS_EXIT_FAIL;
        goto out;
    }
    common_header(f, job, partition, account, extra, nextra);
    fprintf(f, "#SBATCH --array=0-%ld\n#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=%ld\n#SBATCH --time=%s\n", tasks - 1,
            cpus, time_limit);
    if (mem)
        fprintf(f, "#SBATCH --mem=%s\n", mem);
    fprintf(f, "#SBATCH --signal=B:TERM@%ld\n", grace);
    if (requeue)
        fprintf(f, "#SBATCH --requeue\n");
    fprintf(f, "#SBATCH --open-mode=append\n#SBATCH --output=%s/%s-%%A_%%a.out\n", log_dir, sw->name);
    fprintf(f, "# Generated by `warpsweep slurm` for sweep '%s' (hash %s, %llu points): task K of this\n"
               "# array runs the points whose index is K mod %ld into its shard file, with --resume,\n"
               "# so a resubmission or a requeue continues where the task stopped. SLURM sends\n"
               "# SIGTERM to this script %ld s before the time limit; warpsweep then takes no new\n"
               "# points, writes what it has and exits with code 3%s.\n",
            sw->name, sw->hash, (unsigned long long)sw->count, tasks, grace,
            requeue ? ", and the task requeues itself" : "");
    fprintf(f, "set -u\nK=$(( (SLURM_ARRAY_TASK_ID - SLURM_ARRAY_TASK_MIN) / ${SLURM_ARRAY_TASK_STEP:-1} ))\n");
    fprintf(f, "OUT=");
    q(f, shard_dir);
    fprintf(f, "/");
    q(f, sw->name);
    fprintf(f, ".shard-$K-of-%ld.h5\n", tasks);
    q(f, bin);
    fprintf(f, " run ");
    q(f, sweep_abs);
    fprintf(f, " --name ");
    q(f, sw->name);
    for (int i = 0; i < nsets; i++) {
        fprintf(f, " --set ");
        q(f, sets[i]);
    }
    if (max_points)
        fprintf(f, " --max-points %llu", max_points);
    fprintf(f, " --shard auto --resume -j \"${SLURM_CPUS_PER_TASK:-%ld}\" -o \"$OUT\" &\n", cpus);
    fprintf(f, "pid=$!\n"
               "# forward SLURM's SIGTERM (sent to this batch shell) to warpsweep, then wait for it to finish\n"
               "trap 'kill -TERM \"$pid\" 2>/dev/null' TERM INT\n"
               "while :; do\n"
               "  wait \"$pid\"; rc=$?\n"
               "  kill -0 \"$pid\" 2>/dev/null || break\n"
               "done\n");
    if (requeue)
        fprintf(f, "if [ \"$rc\" -eq 3 ]; then\n"
                   "  echo \"warpsweep: shard $K of %ld interrupted (time limit?): requeueing "
                   "${SLURM_ARRAY_JOB_ID}_${SLURM_ARRAY_TASK_ID}\" >&2\n"
                   "  scontrol requeue \"${SLURM_ARRAY_JOB_ID}_${SLURM_ARRAY_TASK_ID}\" && exit 0\n"
                   "fi\n", tasks);
    fprintf(f, "exit \"$rc\"\n");
    if (fclose(f)) {
        fprintf(stderr, "warpsweep slurm: %s: write error\n", array_path);
        rc = WS_EXIT_FAIL;
        goto out;
    }

    /* ---- the merge job ---- */
    f = fopen(merge_path, "w");
    if (!f) {
        fprintf(stderr, "warpsweep slurm: %s: %s\n", merge_path, strerror(errno));
        rc = WS_EXIT_FAIL;
        goto out;
    }
    char mjob[320];
    snprintf(mjob, sizeof mjob, "%s-merge", job);
    common_header(f, mjob, partition, account, extra, nextra);
    fprintf(f, "#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n#SBATCH --time=%s\n", merge_time);
    fprintf(f, "#SBATCH --output=%s/%s-merge-%%j.out\n", log_dir, sw->name);
    fprintf(f, "# Generated by `warpsweep slurm`: joins the %ld shard files of sweep '%s' into one file,\n"
               "# after every task of the array succeeded (submit.sh: --dependency=afterok).\n",
            tasks, sw->name);
    fprintf(f, "exec ");
    q(f, bin);
    fprintf(f, " merge --force ");
    q(f, out_abs);
    for (long k = 0; k < tasks; k++) {
        char sp[PATH_MAX + 400];
        snprintf(sp, sizeof sp, "%s/%s.shard-%ld-of-%ld.h5", shard_dir, sw->name, k, tasks);
        fprintf(f, " \\\n  ");
        q(f, sp);
    }
    fprintf(f, "\n");
    if (fclose(f)) {
        fprintf(stderr, "warpsweep slurm: %s: write error\n", merge_path);
        rc = WS_EXIT_FAIL;
        goto out;
    }

    /* ---- submit.sh ---- */
    f = fopen(submit_path, "w");
    if (!f) {
        fprintf(stderr, "warpsweep slurm: %s: %s\n", submit_path, strerror(errno));
        rc = WS_EXIT_FAIL;
        goto out;
    }
    fprintf(f, "#!/bin/bash\n# Submits the array job, then the merge job that runs after every task succeeded.\n"
               "set -euo pipefail\narray=$(sbatch --parsable ");
    q(f, array_path);
    fprintf(f, ")\narray=${array%%%%;*}\nmerge=$(sbatch --parsable --dependency=afterok:\"$array\" ");
    q(f, merge_path);
    fprintf(f, ")\nmerge=${merge%%%%;*}\n"
               "echo \"array job $array (%ld tasks), merge job $merge -> \"", tasks);
    q(f, out_abs);
    fprintf(f, "\necho \"$array $merge\" > ");
    q(f, dir_abs);
    fprintf(f, "/");
    q(f, sw->name);
    fprintf(f, ".jobs\n");
    if (fclose(f) || chmod(submit_path, 0755)) {
        fprintf(stderr, "warpsweep slurm: %s: write error\n", submit_path);
        rc = WS_EXIT_FAIL;
        goto out;
    }
    printf("%s\n%s\n%s\n", array_path, merge_path, submit_path);
    fprintf(stderr, "warpsweep slurm: %ld tasks x %ld cpus, time limit %s, shards in %s, result %s\n"
                    "submit with: %s\n", tasks, cpus, time_limit, shard_dir, out_abs, submit_path);
    rc = WS_EXIT_OK;
out:
    if (sws)
        ws_sweeps_free(sws, n);
    free(sets);
    free(extra);
    return rc;
}
