/* stepcount.c — instruction counts of the kernels that really run.
 *
 * Callgrind counts deterministically but emulates the CPU: it hides AVX-512,
 * so jet and simdjson run their AVX2 kernels there, not the ones this machine
 * picks. Without a PMU (our VMs) nothing else counts instructions. This mode
 * single-steps one iteration on the real CPU instead: the trap flag raises
 * SIGTRAP after every user-space instruction and a handler counts them. Exact
 * and deterministic, but each step costs a trap (about 17 µs here), so an
 * iteration of 3 million instructions takes about a minute.
 *
 * x86-64 Linux only; elsewhere it says n/a. */
#define _GNU_SOURCE 1
#include "bench.h"

#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) && defined(__linux__) && defined(__GNUC__)
#define JB_HAVE_STEPS 1
#include <signal.h>
#include <ucontext.h>
#endif

#ifdef JB_HAVE_JET
#include "jet.h"
#endif

#ifdef JB_HAVE_STEPS

#define TRAP_FLAG 0x100

static volatile uint64_t step_count, step_limit;
static volatile uintptr_t step_last;
static volatile int step_capped;
/* --step-profile: the address of every instruction stepped */
static uintptr_t *trace;
static volatile size_t trace_n;
static size_t trace_cap;

/* Stepping ends when the next instruction is this function's first. */
__attribute__((noinline)) void jb_step_stop(void);
__attribute__((noinline)) void jb_step_stop(void) { __asm__ volatile(""); }

static void on_trap(int sig, siginfo_t *si, void *ctx) {
    (void)sig, (void)si;
    ucontext_t *uc = ctx;
    uintptr_t rip = (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
    /* A rep-prefixed instruction traps once per repetition at one address;
     * it is one instruction, as a hardware counter would count it. */
    if (rip != step_last) {
        step_count++;
        if (trace_n < trace_cap) trace[trace_n++] = rip;
    }
    step_last = rip;
    bool stop = rip == (uintptr_t)jb_step_stop;
    if (!stop && step_count >= step_limit) stop = true, step_capped = 1;
    if (stop) uc->uc_mcontext.gregs[REG_EFL] &= ~(greg_t)TRAP_FLAG;
}

/* The trap fires after each instruction that follows the popf. */
static inline void step_start(void) { __asm__ volatile("pushfq\n\torq $0x100, (%%rsp)\n\tpopfq" ::: "memory", "cc"); }

/* Instructions counted between step_start and jb_step_stop with nothing in
 * between: subtracted from every count. */
static uint64_t step_overhead(void) {
    step_count = 0, step_last = 0, step_limit = 1000, step_capped = 0;
    step_start();
    jb_step_stop();
    return step_count;
}

void jb_step_count_cell(jb_run *r, jb_cell *c) {
    static bool header;
    const jb_dataset *d = &r->ds[c->ds];
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_trap;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGTRAP, &sa, &old) != 0) {
        printf("%-20s %-10s %-14s n/a (sigaction failed)\n", c->eng->name, jb_op_names[c->op], d->name);
        return;
    }
    if (!header) {
        printf("%-20s %-10s %-14s %14s %8s  %s\n", "Engine", "op", "dataset", "ins/iter", "ins/B", "note");
        header = true;
    }
    uint64_t overhead = step_overhead();
    bool ok = true;
    uint64_t sink = jb_run_once(c, d, &ok); /* warm: first-touch allocations */
    sink += jb_run_once(c, d, &ok);
    if (r->opt.step_profile && !trace) {
        trace_cap = r->opt.step_limit;
        trace = (uintptr_t *)malloc(trace_cap * sizeof *trace);
        if (!trace) trace_cap = 0;
    }
    trace_n = 0;
    double t0 = jb_now_ns();
    step_count = 0, step_last = 0, step_capped = 0;
    step_limit = r->opt.step_limit;
    step_start();
    sink += jb_run_once(c, d, &ok);
    jb_step_stop();
    uint64_t n = step_count > overhead ? step_count - overhead : 0;
    double secs = (jb_now_ns() - t0) / 1e9;
    sigaction(SIGTRAP, &old, NULL);
    (void)sink;
    char note[160];
    snprintf(note, sizeof note, "%s%.0f s stepping", !ok ? "operation failed; " : "", secs);
#ifdef JB_HAVE_JET
    if (!strncmp(c->eng->name, "jet", 3)) {
        size_t used = strlen(note);
        snprintf(note + used, sizeof note - used, "; jet kernel %s", jet_kernel_name());
    }
#endif
    if (step_capped)
        printf("%-20s %-10s %-14s %14s %8s  stopped at --step-limit %llu\n", c->eng->name, jb_op_names[c->op],
               d->name, "n/a", "n/a", (unsigned long long)r->opt.step_limit);
    else
        printf("%-20s %-10s %-14s %14llu %8.2f  %s\n", c->eng->name, jb_op_names[c->op], d->name,
               (unsigned long long)n, (double)n / (double)c->bytes, note);
    if (r->opt.step_profile && (!trace || step_capped))
        printf("  (no step profile: %s)\n", !trace ? "no memory for the addresses" : "stopped at --step-limit");
    if (r->opt.step_profile && trace_n && !step_capped) {
        /* the stepping's own last instructions (jb_step_stop's call) are
         * left in: a handful */
        printf("\nstep profile %s %s %s: %llu instructions\n", c->eng->name, jb_op_names[c->op], d->name,
               (unsigned long long)n);
        jb_profile_report(trace, trace_n, true, r->opt.profile_top);
        printf("\n");
    }
}

#else

void jb_step_count_cell(jb_run *r, jb_cell *c) {
    static bool said;
    (void)r, (void)c;
    if (!said) printf("--step-count: n/a (needs x86-64 Linux)\n");
    said = true;
}

#endif
