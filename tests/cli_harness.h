/* cli_harness.h — what test_cli and test_query share to drive the built
 * `jet` tool through the shell: a temp dir, files written into it, and a
 * run capturing stdout, stderr and the exit status. POSIX only; include
 * after check.h (and after defining _POSIX_C_SOURCE). */
#ifndef JET_TEST_CLI_HARNESS_H
#define JET_TEST_CLI_HARNESS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#if defined(__GNUC__) || defined(__clang__)
#define CLI_FN static __attribute__((unused))
#else
#define CLI_FN static
#endif

static char dir[256]; /* the temp dir every command runs in */
static char jet[512]; /* the tool's path */

typedef struct result {
    int rc;
    char *out;
    size_t out_len;
    char *err;
} result;

/* A file's bytes (an empty string when it cannot be read). */
CLI_FN char *slurp(const char *path, size_t *len) {
    size_t n = 0;
    char *s = check_read_file(path, &n);
    if (!s) {
        s = (char *)calloc(1, 1);
        n = 0;
    }
    if (len) *len = n;
    return s;
}

CLI_FN void write_file(const char *name, const char *text) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL);
    if (!f) return;
    fputs(text, f);
    fclose(f);
}

/* Runs `PROG ARGS` inside the temp dir, stdin from the file `in` (or
 * /dev/null), capturing stdout, stderr and the exit status. */
CLI_FN result run_prog(const char *prog, const char *args, const char *in) {
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "cd '%s' && %s %s <%s >out.txt 2>err.txt", dir, prog, args,
             in ? in : "/dev/null");
    int st = system(cmd);
    result r;
    r.rc = (st != -1 && WIFEXITED(st)) ? WEXITSTATUS(st) : -1;
    char path[512];
    snprintf(path, sizeof path, "%s/out.txt", dir);
    r.out = slurp(path, &r.out_len);
    snprintf(path, sizeof path, "%s/err.txt", dir);
    r.err = slurp(path, NULL);
    return r;
}

CLI_FN void done(result *r) {
    free(r->out);
    free(r->err);
}

#endif
