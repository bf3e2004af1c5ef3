/* counters.c — the counting pass (perf_event_open) and the callgrind
 * instruction mode. */
#define _GNU_SOURCE 1
#include "bench.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define JB_HAVE_CALLGRIND 1
#endif
#endif

static int hw_exclude_kernel = -1; /* -1: unknown; 0/1: what the kernel allows */
static char hw_why[160];

static int perf_open(uint32_t type, uint64_t config, int exclude_kernel) {
    struct perf_event_attr a;
    memset(&a, 0, sizeof a);
    a.size = sizeof a;
    a.type = type;
    a.config = config;
    a.disabled = 1;
    a.exclude_kernel = (uint64_t)exclude_kernel;
    a.exclude_hv = 1;
    a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
    return (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
}

bool jb_counters_probe(char *why, size_t cap) {
    int fd = perf_open(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, 0);
    if (fd >= 0) { hw_exclude_kernel = 0; close(fd); return true; }
    fd = perf_open(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, 1);
    if (fd >= 0) { hw_exclude_kernel = 1; close(fd); return true; }
    int e = errno;
    hw_exclude_kernel = -2;
    if (e == ENOENT || e == EOPNOTSUPP)
        snprintf(hw_why, sizeof hw_why, "perf_event_open(cycles): %s -- no hardware PMU exposed (typical of VMs)", strerror(e));
    else if (e == EACCES || e == EPERM)
        snprintf(hw_why, sizeof hw_why, "perf_event_open(cycles): %s -- see /proc/sys/kernel/perf_event_paranoid", strerror(e));
    else
        snprintf(hw_why, sizeof hw_why, "perf_event_open(cycles): %s", strerror(e));
    if (why) snprintf(why, cap, "%s", hw_why);
    return false;
}

/* Reads a counter scaled for multiplexing; false when unusable. */
static bool perf_read(int fd, double *out) {
    uint64_t v[3];
    if (fd < 0 || read(fd, v, sizeof v) != (ssize_t)sizeof v || v[2] == 0) return false;
    *out = (double)v[0] * ((double)v[1] / (double)v[2]);
    return true;
}

void jb_counters_measure(jb_run *r, jb_cell *c) {
    const jb_dataset *d = &r->ds[c->ds];
    if (hw_exclude_kernel == -1) jb_counters_probe(NULL, 0);
    memset(&c->ctr, 0, sizeof c->ctr);
    enum { CYC, INS, BR, BRM, PF, N };
    int fd[N];
    for (int i = 0; i < N; i++) fd[i] = -1;
    if (hw_exclude_kernel >= 0) {
        fd[CYC] = perf_open(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, hw_exclude_kernel);
        fd[INS] = perf_open(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, hw_exclude_kernel);
        fd[BR] = perf_open(PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, hw_exclude_kernel);
        fd[BRM] = perf_open(PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES, hw_exclude_kernel);
    }
    fd[PF] = perf_open(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, 1);
    if (fd[PF] < 0) fd[PF] = perf_open(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, 0);

    /* About a fifth of the budget, at most 200 ms, at least one iteration. */
    double want_ns = r->opt.min_time_ms * 1e6 / 5;
    if (want_ns > 200e6) want_ns = 200e6;
    double it = c->median_ns > 0 ? want_ns / c->median_ns : 1;
    unsigned long iters = it < 1 ? 1 : it > 1e7 ? 10000000ul : (unsigned long)it;

    for (int i = 0; i < N; i++)
        if (fd[i] >= 0) { ioctl(fd[i], PERF_EVENT_IOC_RESET, 0); ioctl(fd[i], PERF_EVENT_IOC_ENABLE, 0); }
    bool ok = true;
    uint64_t sink = 0;
    for (unsigned long k = 0; k < iters && ok; k++) sink += jb_run_once(c, d, &ok);
    for (int i = 0; i < N; i++)
        if (fd[i] >= 0) ioctl(fd[i], PERF_EVENT_IOC_DISABLE, 0);
    double v[N] = {0};
    bool have[N];
    for (int i = 0; i < N; i++) have[i] = perf_read(fd[i], &v[i]);
    for (int i = 0; i < N; i++)
        if (fd[i] >= 0) close(fd[i]);
    (void)sink;

    double bytes = (double)c->bytes * (double)iters;
    if (have[CYC] && have[INS] && v[CYC] > 0) {
        c->ctr.hw = true;
        c->ctr.ipc = v[INS] / v[CYC];
        c->ctr.cyc_per_byte = v[CYC] / bytes;
        c->ctr.ins_per_byte = v[INS] / bytes;
        c->ctr.br_miss_pct = have[BR] && have[BRM] && v[BR] > 0 ? 100.0 * v[BRM] / v[BR] : 0;
    } else {
        snprintf(c->ctr.why, sizeof c->ctr.why, "%s", hw_why[0] ? hw_why : "hardware counters unreadable");
    }
    if (have[PF]) { c->ctr.sw = true; c->ctr.faults_per_iter = v[PF] / (double)iters; }
    c->have_ctr = true;
}

/* ----------------------------------------------------------- callgrind -- */

bool jb_callgrind_available(void) {
#ifdef JB_HAVE_CALLGRIND
    return true;
#else
    return false;
#endif
}

bool jb_under_valgrind(void) {
#ifdef JB_HAVE_CALLGRIND
    return RUNNING_ON_VALGRIND != 0;
#else
    return false;
#endif
}

void jb_instructions_cell(jb_run *r, jb_cell *c) {
    static bool warned;
    const jb_dataset *d = &r->ds[c->ds];
    if (!jb_callgrind_available()) {
        if (!warned) printf("--instructions: built without valgrind/callgrind.h: nothing to measure\n");
        warned = true;
        return;
    }
    if (!jb_under_valgrind() && !warned) {
        printf("--instructions: not running under valgrind; use\n"
               "  valgrind --tool=callgrind --instr-atstart=no jet-bench --instructions [...]\n"
               "  jet-bench --callgrind-report callgrind.out.*\n");
        warned = true;
    }
    bool ok = true;
    uint64_t sink = jb_run_once(c, d, &ok); /* warm: first-touch allocations */
    unsigned iters = r->opt.instr_iters ? r->opt.instr_iters : 1;
    char label[400];
    snprintf(label, sizeof label, "jet-bench engine=%s op=%s dataset=%s iters=%u bytes=%zu", c->eng->name,
             jb_op_names[c->op], d->name, iters, c->bytes);
#ifdef JB_HAVE_CALLGRIND
    CALLGRIND_START_INSTRUMENTATION;
    CALLGRIND_ZERO_STATS;
#endif
    for (unsigned k = 0; k < iters && ok; k++) sink += jb_run_once(c, d, &ok);
#ifdef JB_HAVE_CALLGRIND
    CALLGRIND_STOP_INSTRUMENTATION;
    CALLGRIND_DUMP_STATS_AT(label);
#endif
    (void)sink;
    fprintf(stderr, "instructions: %s%s\n", label, ok ? "" : " (operation failed)");
}

/* Reads callgrind dumps written in --instructions mode and prints
 * instructions per iteration and per input byte. */
int jb_callgrind_report(int argc, char **argv) {
    if (argc == 0) {
        fprintf(stderr, "usage: jet-bench --callgrind-report callgrind.out.*\n");
        return 2;
    }
    printf("%-20s %-10s %-14s %16s %10s\n", "Engine", "op", "dataset", "ins/iter", "ins/B");
    int shown = 0;
    for (int i = 0; i < argc; i++) {
        FILE *f = fopen(argv[i], "r");
        if (!f) { fprintf(stderr, "jet-bench: %s: %s\n", argv[i], strerror(errno)); continue; }
        char line[4096], eng[128] = "", op[32] = "", ds[64] = "";
        unsigned iters = 0;
        size_t bytes = 0;
        double summary = -1, totals = -1;
        bool labelled = false;
        while (fgets(line, sizeof line, f)) {
            const char *p = strstr(line, "jet-bench engine=");
            if (!strncmp(line, "desc:", 5) && p)
                labelled = sscanf(p, "jet-bench engine=%127s op=%31s dataset=%63s iters=%u bytes=%zu", eng, op, ds,
                                  &iters, &bytes) == 5;
            else if (!strncmp(line, "summary:", 8))
                summary = strtod(line + 8, NULL);
            else if (!strncmp(line, "totals:", 7))
                totals = strtod(line + 7, NULL);
        }
        fclose(f);
        /* After STOP_INSTRUMENTATION the dump's summary line can read 0;
         * its totals line holds the events of the dumped interval. */
        double ir = totals > 0 ? totals : summary;
        if (!labelled || ir < 0 || !iters || !bytes) continue;
        printf("%-20s %-10s %-14s %16.0f %10.2f\n", eng, op, ds, ir / iters, ir / iters / (double)bytes);
        shown++;
    }
    if (!shown) fprintf(stderr, "jet-bench: no jet-bench dumps among the files\n");
    return shown ? 0 : 1;
}
