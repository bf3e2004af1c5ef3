/*
 * profile.c — `jet-bench --sample-profile SECONDS`: where a cell's time goes
 * on a machine without hardware counters.
 *
 * A SIGPROF interval timer interrupts the running operation (the kernel's
 * tick, a few milliseconds here) and the handler records the interrupted
 * instruction pointer. After the run, each address is turned into its module
 * (dladdr) and its offset there, and `addr2line -f -e MODULE` names the
 * function and, in a build with debug information (RelWithDebInfo, or
 * CFLAGS=-g), the source line. The result is two lists: the hottest
 * functions and the hottest lines, as shares of the samples. Inlined code
 * counts for the innermost function it came from, which is what a profile of
 * an inlining compiler's output should say. Without addr2line the addresses
 * are printed raw; without SIGPROF (not Linux) the mode says so.
 */
#define _GNU_SOURCE
#include "bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__linux__) && (defined(__x86_64__) || defined(__aarch64__))
#define JB_HAVE_SAMPLER 1
#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <signal.h>
#include <sys/time.h>
#include <ucontext.h>
#include <unistd.h>
#else
#define JB_HAVE_SAMPLER 0
#endif

#if JB_HAVE_SAMPLER

#define MAX_SAMPLES 1000000

static uintptr_t *samples;
static volatile sig_atomic_t nsamples;

static void on_sigprof(int sig, siginfo_t *si, void *ctx) {
    (void)sig;
    (void)si;
    const ucontext_t *uc = (const ucontext_t *)ctx;
#if defined(__x86_64__)
    uintptr_t pc = (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
#else
    uintptr_t pc = (uintptr_t)uc->uc_mcontext.pc;
#endif
    if (nsamples < MAX_SAMPLES) samples[nsamples++] = pc;
}

/* One distinct location and how often it was hit. */
typedef struct hit {
    char *name;
    unsigned long count;
} hit;

static int by_count(const void *a, const void *b) {
    const hit *x = (const hit *)a, *y = (const hit *)b;
    return x->count < y->count ? 1 : x->count > y->count ? -1 : strcmp(x->name, y->name);
}

static void add_hit(hit **v, size_t *n, size_t *cap, const char *name, unsigned long weight) {
    for (size_t i = 0; i < *n; i++)
        if (!strcmp((*v)[i].name, name)) {
            (*v)[i].count += weight;
            return;
        }
    if (*n == *cap) {
        *cap = *cap ? 2 * *cap : 64;
        hit *g = (hit *)realloc(*v, *cap * sizeof **v);
        if (!g) return;
        *v = g;
    }
    char *copy = strdup(name);
    if (!copy) return;
    (*v)[*n].name = copy;
    (*v)[*n].count = weight;
    (*n)++;
}

/* `exact`: the counts are instructions, printed beside the shares. */
static void print_top(const char *title, hit *v, size_t n, unsigned long total, size_t top, bool exact) {
    qsort(v, n, sizeof *v, by_count);
    printf("  %s\n", title);
    for (size_t i = 0; i < n && i < top; i++) {
        if (exact) printf("  %10lu", v[i].count);
        printf("  %5.1f%%  %s\n", 100.0 * (double)v[i].count / (double)total, v[i].name);
    }
}

/* The module holding pc and the address addr2line wants for it: the offset
 * from the load base for position-independent files, the address itself for
 * fixed-address executables. */
static bool locate(uintptr_t pc, const char **module, uintptr_t *addr) {
    Dl_info info;
    if (!dladdr((void *)pc, &info) || !info.dli_fbase) return false;
    const ElfW(Ehdr) *eh = (const ElfW(Ehdr) *)info.dli_fbase;
    *addr = eh->e_type == ET_DYN ? pc - (uintptr_t)info.dli_fbase : pc;
    /* dladdr names the main program as it was started (argv[0]); its real
     * path is what addr2line needs */
    static char exe[4096];
    static const void *exe_base;
    if (!exe_base) {
        Dl_info self;
        ssize_t k = readlink("/proc/self/exe", exe, sizeof exe - 1);
        if (k > 0 && dladdr((const void *)&nsamples, &self)) {
            exe[k] = 0;
            exe_base = self.dli_fbase;
        }
    }
    *module = exe_base && exe_base == info.dli_fbase ? exe : info.dli_fname;
    return true;
}

/* Symbolizes the addresses of one module with one addr2line process;
 * returns how many it named (the first ones: the rest, on a failure, are
 * the caller's to count). */
static size_t symbolize(const char *module, const uintptr_t *addrs, const unsigned long *weights, size_t n,
                        hit **funcs, size_t *nf, size_t *cf, hit **lines, size_t *nl, size_t *cl) {
    /* mkstemp's template: the prefix, then six 'X' it replaces */
    char tmp[64] = "/tmp/jet-bench-profile-";
    size_t k = strlen(tmp);
    memset(tmp + k, 'X', 6);
    tmp[k + 6] = '\0';
    int fd = mkstemp(tmp);
    if (fd < 0) return 0;
    FILE *f = fdopen(fd, "w");
    if (!f) {
        close(fd);
        remove(tmp);
        return 0;
    }
    for (size_t i = 0; i < n; i++) fprintf(f, "0x%lx\n", (unsigned long)addrs[i]);
    fclose(f);
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "addr2line -f -e '%s' < '%s' 2>/dev/null", module, tmp);
    FILE *p = popen(cmd, "r");
    size_t got = 0;
    if (p) {
        char fn[4096], ln[4096];
        while (fgets(fn, sizeof fn, p) && fgets(ln, sizeof ln, p)) {
            fn[strcspn(fn, "\n")] = 0;
            ln[strcspn(ln, "\n")] = 0;
            char *disc = strstr(ln, " (discriminator");
            if (disc) *disc = 0;
            /* a path relative to the source tree reads better */
            const char *src = strstr(ln, "/src/");
            const char *shown = src ? src + 1 : ln;
            if (got >= n) break;
            add_hit(funcs, nf, cf, fn, weights[got]);
            size_t ll = strlen(ln);
            bool has_line = strncmp(ln, "??", 2) != 0 && !(ll >= 2 && !strcmp(ln + ll - 2, ":?"));
            if (has_line) add_hit(lines, nl, cl, shown, weights[got]);
            got++;
        }
        pclose(p);
    }
    remove(tmp);
    return got;
}

void jb_sample_profile_cell(jb_run *r, jb_cell *c) {
    const jb_dataset *d = &r->ds[c->ds];
    if (!samples) samples = (uintptr_t *)malloc(MAX_SAMPLES * sizeof *samples);
    if (!samples) return;
    bool ok = true;
    uint64_t sink = jb_run_once(c, d, &ok); /* warm */
    nsamples = 0;
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_sigprof;
    sa.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGPROF, &sa, &old);
    struct itimerval on = {{0, 100}, {0, 100}}, off = {{0, 0}, {0, 0}};
    setitimer(ITIMER_PROF, &on, NULL);
    double t0 = jb_now_ns(), budget = r->opt.profile_seconds * 1e9;
    unsigned long iters = 0;
    while (ok && jb_now_ns() - t0 < budget) {
        sink += jb_run_once(c, d, &ok);
        iters++;
    }
    setitimer(ITIMER_PROF, &off, NULL);
    sigaction(SIGPROF, &old, NULL);
    (void)sink;
    size_t n = (size_t)nsamples;
    printf("\nprofile %s %s %s: %zu samples over %.1f s, %lu iterations%s\n", c->eng->name, jb_op_names[c->op],
           d->name, n, (jb_now_ns() - t0) / 1e9, iters, ok ? "" : " (operation failed)");
    if (!n) return;

    jb_profile_report(samples, n, false, r->opt.profile_top);
}

static int by_address(const void *a, const void *b) {
    uintptr_t x = *(const uintptr_t *)a, y = *(const uintptr_t *)b;
    return x < y ? -1 : x > y;
}

/* Prints the hottest functions and lines of the addresses pcs[0..n) (sorted
 * here): each distinct address is located and symbolized once, weighted by
 * how often it occurs. `exact`: the addresses are every instruction run
 * (--step-profile), so the counts are instructions. `top`: rows per list
 * (0: 25 functions and 40 lines exact, else 15 and 20). */
void jb_profile_report(uintptr_t *pcs, size_t n, bool exact, size_t top) {
    if (!n) return;
    qsort(pcs, n, sizeof *pcs, by_address);
    size_t u = 0;
    unsigned long *weights = (unsigned long *)malloc(n * sizeof *weights);
    const char **mods = (const char **)malloc(n * sizeof *mods);
    uintptr_t *addrs = (uintptr_t *)malloc(n * sizeof *addrs);
    uintptr_t *group = (uintptr_t *)malloc(n * sizeof *group);
    unsigned long *gweights = (unsigned long *)malloc(n * sizeof *gweights);
    hit *funcs = NULL, *lines = NULL;
    size_t nf = 0, cf = 0, nl = 0, cl = 0;
    bool symbolized = weights && mods && addrs && group && gweights;
    for (size_t i = 0; symbolized && i < n; i++) {
        if (u && pcs[u - 1] == pcs[i]) {
            weights[u - 1]++;
            continue;
        }
        pcs[u] = pcs[i];
        weights[u++] = 1;
    }
    for (size_t i = 0; symbolized && i < u; i++)
        if (!locate(pcs[i], &mods[i], &addrs[i])) {
            mods[i] = "?";
            addrs[i] = pcs[i];
        }
    /* group by module, then symbolize each group at once */
    for (size_t i = 0; symbolized && i < u; i++) {
        if (!mods[i]) continue;
        const char *m = mods[i];
        size_t k = 0;
        for (size_t j = i; j < u; j++)
            if (mods[j] && !strcmp(mods[j], m)) {
                group[k] = addrs[j];
                gweights[k++] = weights[j];
                if (j != i) mods[j] = NULL;
            }
        mods[i] = NULL;
        size_t named = strcmp(m, "?") ? symbolize(m, group, gweights, k, &funcs, &nf, &cf, &lines, &nl, &cl) : 0;
        for (size_t j = named; j < k; j++)
            add_hit(&funcs, &nf, &cf, "(no symbol: addr2line missing or failed)", gweights[j]);
    }
    print_top("hottest functions (inlined code counts for the function it came from):", funcs, nf,
              (unsigned long)n, top ? top : exact ? 25 : 15, exact);
    if (nl)
        print_top("hottest source lines:", lines, nl, (unsigned long)n, top ? top : exact ? 40 : 20, exact);
    else
        printf("  (no line information: configure with -DCMAKE_BUILD_TYPE=RelWithDebInfo for lines)\n");
    for (size_t i = 0; i < nf; i++) free(funcs[i].name);
    for (size_t i = 0; i < nl; i++) free(lines[i].name);
    free(funcs);
    free(lines);
    free(weights);
    free(mods);
    free(addrs);
    free(group);
    free(gweights);
}

#else

void jb_sample_profile_cell(jb_run *r, jb_cell *c) {
    (void)r;
    (void)c;
    static bool said;
    if (!said) printf("--sample-profile: n/a on this platform (needs Linux SIGPROF and dladdr)\n");
    said = true;
}

void jb_profile_report(uintptr_t *pcs, size_t n, bool exact, size_t top) {
    (void)pcs;
    (void)n;
    (void)exact;
    (void)top;
    printf("  (no profile: needs Linux and dladdr)\n");
}

#endif
