/* report.c — ratios, stdout tables, JSON snapshot, Markdown and SVG. */
#define _GNU_SOURCE 1
#include "bench.h"
#include "jb_config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

static const jb_engine *op_base[OP__COUNT];

static jb_cell *find_cell(jb_run *r, const jb_engine *e, int op, int ds) {
    for (int i = 0; i < r->ncells; i++) {
        jb_cell *c = &r->cells[i];
        if (c->eng == e && c->op == op && c->ds == ds) return c;
    }
    return NULL;
}

static bool timed(const jb_cell *c) { return c && c->state == CELL_OK && c->median_ns > 0; }

static int cmp_d(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* × baseline from interleaved samples: the median, over the rounds both
 * cells ran, of baseline-slice median / cell-slice median. */
static double interleaved_ratio(const jb_cell *c, const jb_cell *b) {
    size_t n = c->nrounds < b->nrounds ? c->nrounds : b->nrounds;
    if (!n) return 0;
    double *v = malloc(n * sizeof *v);
    if (!v) return 0;
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (c->rounds[i] > 0 && b->rounds[i] > 0) v[k++] = b->rounds[i] / c->rounds[i];
    double m = 0;
    if (k) {
        qsort(v, k, sizeof *v, cmp_d);
        m = k % 2 ? v[k / 2] : (v[k / 2 - 1] + v[k / 2]) / 2;
    }
    free(v);
    return m;
}

void jb_compute_ratios(jb_run *r) {
    for (int op = 0; op < OP__COUNT; op++) {
        op_base[op] = NULL;
        if (!r->op_on[op]) continue;
        /* The requested baseline, else the engine verified on the most
         * datasets with the lowest geometric-mean throughput. */
        int best_n = 0;
        double best_g = 0;
        for (int ei = 0; ei < r->neng; ei++) {
            const jb_engine *e = r->eng[ei];
            int n = 0;
            double lg = 0;
            for (int di = 0; di < r->nds; di++) {
                jb_cell *c = find_cell(r, e, op, di);
                if (timed(c)) { n++; lg += log(c->mb_per_s); }
            }
            if (!n) continue;
            if (r->opt.baseline && !strcmp(r->opt.baseline, e->name)) { op_base[op] = e; break; }
            if (r->opt.baseline) continue;
            double g = lg / n;
            if (n > best_n || (n == best_n && g < best_g)) { best_n = n; best_g = g; op_base[op] = e; }
        }
        if (!op_base[op] && r->opt.baseline) {
            /* Requested but not timed for this op: fall back to the slowest. */
            for (int ei = 0; ei < r->neng; ei++) {
                const jb_engine *e = r->eng[ei];
                int n = 0;
                double lg = 0;
                for (int di = 0; di < r->nds; di++) {
                    jb_cell *c = find_cell(r, e, op, di);
                    if (timed(c)) { n++; lg += log(c->mb_per_s); }
                }
                if (n && (n > best_n || (n == best_n && lg / n < best_g))) { best_n = n; best_g = lg / n; op_base[op] = e; }
            }
        }
        if (!op_base[op]) continue;
        for (int di = 0; di < r->nds; di++) {
            jb_cell *b = find_cell(r, op_base[op], op, di);
            for (int ei = 0; ei < r->neng; ei++) {
                jb_cell *c = find_cell(r, r->eng[ei], op, di);
                if (!timed(c)) continue;
                if (timed(b)) {
                    c->ratio = c == b ? 1.0 : interleaved_ratio(c, b);
                    c->ratio_base = op_base[op]->name;
                }
            }
        }
    }
}

/* Geometric mean of an engine's interleaved ratios over an op's datasets. */
static double op_ratio(jb_run *r, const jb_engine *e, int op) {
    double lg = 0;
    int n = 0;
    for (int di = 0; di < r->nds; di++) {
        jb_cell *c = find_cell(r, e, op, di);
        if (timed(c) && c->ratio > 0) { lg += log(c->ratio); n++; }
    }
    return n ? exp(lg / n) : 0;
}

void jb_fmt_num(double v, char *buf, size_t cap) {
    if (v < 10) { snprintf(buf, cap, "%.2f", v); return; }
    if (v < 100) { snprintf(buf, cap, "%.1f", v); return; }
    unsigned long long n = (unsigned long long)llround(v);
    if (n < 1000) { snprintf(buf, cap, "%llu", n); return; }
    if (n < 1000000) { snprintf(buf, cap, "%llu %03llu", n / 1000, n % 1000); return; }
    snprintf(buf, cap, "%llu %03llu %03llu", n / 1000000, n / 1000 % 1000, n % 1000);
}

static void fmt_ratio(double v, char *buf, size_t cap) {
    if (v <= 0) snprintf(buf, cap, "-");
    else if (v < 10) snprintf(buf, cap, "%.2f", v);
    else snprintf(buf, cap, "%.1f", v);
}

/* ------------------------------------------------------------ the tables -- */

typedef struct table {
    int ncols;
    char head[16][40];
    char rows[JB_MAX_ENGINES * 8][16][40];
    int nrows;
} table;

static void print_table(const table *t, FILE *out, bool md) {
    int w[16] = {0};
    for (int c = 0; c < t->ncols; c++) {
        w[c] = (int)strlen(t->head[c]);
        for (int r = 0; r < t->nrows; r++)
            if ((int)strlen(t->rows[r][c]) > w[c]) w[c] = (int)strlen(t->rows[r][c]);
    }
    if (md) {
        fputc('|', out);
        for (int c = 0; c < t->ncols; c++) fprintf(out, " %s |", t->head[c]);
        fputs("\n|", out);
        for (int c = 0; c < t->ncols; c++) fputs(c ? " ---: |" : " --- |", out);
        fputc('\n', out);
        for (int r = 0; r < t->nrows; r++) {
            fputc('|', out);
            for (int c = 0; c < t->ncols; c++) fprintf(out, " %s |", t->rows[r][c]);
            fputc('\n', out);
        }
        return;
    }
    for (int c = 0; c < t->ncols; c++) fprintf(out, c ? "  %*s" : "%-*s", w[c], t->head[c]);
    fputc('\n', out);
    for (int r = 0; r < t->nrows; r++) {
        for (int c = 0; c < t->ncols; c++) fprintf(out, c ? "  %*s" : "%-*s", w[c], t->rows[r][c]);
        fputc('\n', out);
    }
}

/* The text of one throughput cell; failures get a footnote number. */
static void cell_text(jb_cell *c, int op, char *buf, size_t cap, int *nfoot, jb_cell **feet) {
    if (!c) { snprintf(buf, cap, "-"); return; }
    if (c->state == CELL_FAILED) {
        feet[*nfoot] = c;
        snprintf(buf, cap, "FAIL[%d]", ++*nfoot);
        return;
    }
    if (!timed(c)) { snprintf(buf, cap, "-"); return; }
    /* Message-oriented ops: ns per operation; the others: MB/s. */
    jb_fmt_num(jb_op_per_message(op) ? c->median_ns : c->mb_per_s, buf, cap);
}

/* The ops/s of a message-oriented cell ("-" when it was not timed). */
static void ops_text(const jb_cell *c, char *buf, size_t cap) {
    if (timed(c)) jb_fmt_num(c->ops_per_s, buf, cap);
    else snprintf(buf, cap, "-");
}

/* What a cell's bars and the baseline choice measure: MB/s, or ops/s for
 * the message-oriented ops. */
static double cell_rate(const jb_cell *c) { return jb_op_per_message(c->op) ? c->ops_per_s : c->mb_per_s; }

static void print_footnotes(jb_run *r, FILE *out, jb_cell **feet, int nfoot, bool md) {
    for (int i = 0; i < nfoot; i++)
        fprintf(out, "%s[%d] %s %s %s: %s\n", md ? "- " : "  ", i + 1, feet[i]->eng->name, jb_op_names[feet[i]->op],
                r->ds[feet[i]->ds].name, feet[i]->note);
}

static void print_engine_notes(jb_run *r, FILE *out, int op, bool md) {
    for (int ei = 0; ei < r->neng; ei++) {
        const jb_engine *e = r->eng[ei];
        const char *n = jb_engine_note(e, op);
        bool any = false;
        for (int di = 0; di < r->nds; di++) any |= timed(find_cell(r, e, op, di));
        if (any && n) fprintf(out, "%s%s: %s\n", md ? "- " : "  ", e->name, n);
    }
}

static bool op_has_cells(jb_run *r, int op) {
    for (int i = 0; i < r->ncells; i++)
        if (r->cells[i].op == op && r->cells[i].state != CELL_UNSUPPORTED) return true;
    return false;
}

static bool ds_in_op(jb_run *r, int op, int di) {
    for (int i = 0; i < r->ncells; i++)
        if (r->cells[i].op == op && r->cells[i].ds == di) return true;
    return false;
}

/* One table per operation: rows engines, columns datasets (MB/s), × base. */
static void tables_by_op(jb_run *r, FILE *out, bool md) {
    static table t;
    for (int op = 0; op < OP__COUNT; op++) {
        if (!r->op_on[op] || !op_has_cells(r, op)) continue;
        memset(&t, 0, sizeof t);
        int dcols[JB_MAX_DATASETS], nd = 0;
        /* Message-oriented ops: two columns per dataset, ns/op and ops/s. */
        const bool msg = jb_op_per_message(op);
        const int per = msg ? 2 : 1;
        snprintf(t.head[t.ncols++], 40, "Engine");
        for (int di = 0; di < r->nds; di++)
            if (ds_in_op(r, op, di) && t.ncols + per < 16) {
                dcols[nd++] = di;
                snprintf(t.head[t.ncols++], 40, msg ? "%s ns/op" : "%s", r->ds[di].name);
                if (msg) snprintf(t.head[t.ncols++], 40, "ops/s");
            }
        snprintf(t.head[t.ncols++], 40, "x %s", op_base[op] ? op_base[op]->name : "baseline");
        int nfoot = 0;
        jb_cell *feet[JB_MAX_ENGINES * JB_MAX_DATASETS];
        for (int ei = 0; ei < r->neng; ei++) {
            const jb_engine *e = r->eng[ei];
            bool any = false;
            for (int k = 0; k < nd; k++) {
                jb_cell *c = find_cell(r, e, op, dcols[k]);
                any |= c && c->state != CELL_UNSUPPORTED;
            }
            if (!any) continue;
            char(*row)[40] = t.rows[t.nrows++];
            snprintf(row[0], 40, "%s", e->name);
            for (int k = 0; k < nd; k++) {
                jb_cell *c = find_cell(r, e, op, dcols[k]);
                cell_text(c, op, row[1 + per * k], 40, &nfoot, feet);
                if (msg) ops_text(c, row[2 + per * k], 40);
            }
            fmt_ratio(op_ratio(r, e, op), row[1 + per * nd], 40);
        }
        if (msg)
            fprintf(out, md ? "\n### %s\n\nns per operation and operations per second (median of interleaved samples); x: interleaved speed ratio to %s.\n\n"
                            : "\n%s -- ns/op and ops/s (median); x = interleaved speed ratio to %s\n",
                    jb_op_titles[op], op_base[op] ? op_base[op]->name : "the baseline");
        else
            fprintf(out, md ? "\n### %s\n\nMB/s (median of interleaved samples); x: geometric mean over the datasets of the interleaved ratio to %s.\n\n"
                            : "\n%s -- MB/s (median); x = interleaved speed ratio to %s (geomean over datasets)\n",
                    jb_op_titles[op], op_base[op] ? op_base[op]->name : "the baseline");
        print_table(&t, out, md);
        if (md) fputc('\n', out);
        print_footnotes(r, out, feet, nfoot, md);
        print_engine_notes(r, out, op, md);
    }
}

/* One table per dataset: rows engines, columns operations (MB/s and ×). */
static void tables_by_dataset(jb_run *r, FILE *out, bool md) {
    static table t;
    for (int di = 0; di < r->nds; di++) {
        if (!r->ds[di].loaded) continue;
        memset(&t, 0, sizeof t);
        int ops[OP__COUNT], no = 0;
        snprintf(t.head[t.ncols++], 40, "Engine");
        for (int op = 0; op < OP__COUNT; op++)
            if (r->op_on[op] && ds_in_op(r, op, di) && op_has_cells(r, op)) {
                ops[no++] = op;
                snprintf(t.head[t.ncols++], 40, jb_op_per_message(op) ? "%s ns/op" : "%s", jb_op_names[op]);
                snprintf(t.head[t.ncols++], 40, "x %s", op_base[op] ? op_base[op]->name : "base");
            }
        if (!no) continue;
        int nfoot = 0;
        jb_cell *feet[JB_MAX_ENGINES * OP__COUNT];
        for (int ei = 0; ei < r->neng; ei++) {
            bool any = false;
            for (int k = 0; k < no; k++) {
                jb_cell *c = find_cell(r, r->eng[ei], ops[k], di);
                any |= c && c->state != CELL_UNSUPPORTED;
            }
            if (!any) continue;
            char(*row)[40] = t.rows[t.nrows++];
            snprintf(row[0], 40, "%s", r->eng[ei]->name);
            for (int k = 0; k < no; k++) {
                jb_cell *c = find_cell(r, r->eng[ei], ops[k], di);
                cell_text(c, ops[k], row[1 + 2 * k], 40, &nfoot, feet);
                fmt_ratio(timed(c) ? c->ratio : 0, row[2 + 2 * k], 40);
            }
        }
        const jb_dataset *d = &r->ds[di];
        char size[64];
        if (d->kind == JB_DS_NOSTR) snprintf(size, sizeof size, "%zu messages, %zu bytes", d->nlines, d->line_bytes);
        else snprintf(size, sizeof size, "%zu bytes", d->len);
        const char *unit = d->kind == JB_DS_DOC || d->kind == JB_DS_NDJSON ? "MB/s" : "ns per operation";
        fprintf(out, md ? "\n### %s (%s)\n\n%s (median); x: interleaved ratio to the op's baseline.\n\n"
                        : "\n%s (%s) -- %s (median); x = interleaved ratio to the op's baseline\n",
                d->name, size, unit);
        print_table(&t, out, md);
        if (md) fputc('\n', out);
        print_footnotes(r, out, feet, nfoot, md);
    }
}

/* One table per (dataset, operation), with the dispersion columns. */
static void tables_by_cell(jb_run *r, FILE *out, bool md) {
    static table t;
    for (int di = 0; di < r->nds; di++)
        for (int op = 0; op < OP__COUNT; op++) {
            if (!r->op_on[op] || !ds_in_op(r, op, di) || !op_has_cells(r, op)) continue;
            memset(&t, 0, sizeof t);
            const char *h[] = {"Engine", jb_op_per_message(op) ? "ops/s" : "MB/s", "median us", "MAD us", "p10 us",
                               "samples", "x"};
            for (int k = 0; k < 7; k++) snprintf(t.head[t.ncols++], 40, "%s", h[k]);
            snprintf(t.head[6], 40, "x %s", op_base[op] ? op_base[op]->name : "base");
            int nfoot = 0;
            jb_cell *feet[JB_MAX_ENGINES];
            for (int ei = 0; ei < r->neng; ei++) {
                jb_cell *c = find_cell(r, r->eng[ei], op, di);
                if (!c || c->state == CELL_UNSUPPORTED) continue;
                char(*row)[40] = t.rows[t.nrows++];
                snprintf(row[0], 40, "%s", c->eng->name);
                cell_text(c, op, row[1], 40, &nfoot, feet);
                if (jb_op_per_message(op) && timed(c)) ops_text(c, row[1], 40);
                if (timed(c)) {
                    jb_fmt_num(c->median_ns / 1e3, row[2], 40);
                    jb_fmt_num(c->mad_ns / 1e3, row[3], 40);
                    jb_fmt_num(c->p10_ns / 1e3, row[4], 40);
                    snprintf(row[5], 40, "%zu", c->nsamples);
                    fmt_ratio(c->ratio, row[6], 40);
                } else {
                    for (int k = 2; k < 7; k++) snprintf(row[k], 40, "-");
                }
            }
            fprintf(out, md ? "\n### %s: %s\n\n" : "\n%s -- %s\n", r->ds[di].name, jb_op_titles[op]);
            print_table(&t, out, md);
            if (md) fputc('\n', out);
            print_footnotes(r, out, feet, nfoot, md);
        }
}

static void counters_table(jb_run *r, FILE *out, bool md) {
    static table t;
    /* The first loaded dataset named twitter, else the first loaded one. */
    int di = -1;
    for (int i = 0; i < r->nds; i++)
        if (r->ds[i].loaded && (di < 0 || !strcmp(r->ds[i].name, "twitter"))) di = i;
    if (di < 0 || !r->opt.counters) return;
    memset(&t, 0, sizeof t);
    const char *h[] = {"Engine", "op", "IPC", "cyc/B", "ins/B", "br-miss%", "faults/iter"};
    for (int k = 0; k < 7; k++) snprintf(t.head[t.ncols++], 40, "%s", h[k]);
    bool any_hw = false;
    const char *why = NULL;
    for (int op = 0; op < OP__COUNT; op++)
        for (int ei = 0; ei < r->neng; ei++) {
            jb_cell *c = find_cell(r, r->eng[ei], op, di);
            if (!timed(c) || !c->have_ctr) continue;
            char(*row)[40] = t.rows[t.nrows++];
            snprintf(row[0], 40, "%s", c->eng->name);
            snprintf(row[1], 40, "%s", jb_op_names[op]);
            if (c->ctr.hw) {
                any_hw = true;
                snprintf(row[2], 40, "%.2f", c->ctr.ipc);
                snprintf(row[3], 40, "%.2f", c->ctr.cyc_per_byte);
                snprintf(row[4], 40, "%.2f", c->ctr.ins_per_byte);
                snprintf(row[5], 40, "%.2f", c->ctr.br_miss_pct);
            } else {
                why = c->ctr.why;
                for (int k = 2; k < 6; k++) snprintf(row[k], 40, "n/a");
            }
            if (c->ctr.sw) snprintf(row[6], 40, "%.1f", c->ctr.faults_per_iter);
            else snprintf(row[6], 40, "n/a");
        }
    if (!t.nrows) return;
    if (!any_hw) {
        /* No PMU (a VM, or perf_event_paranoid): one line, not a table of
         * n/a rows; the page faults stay in --json. */
        fprintf(out, "\n%scounters: hardware counters unavailable here (%s); see %s\n", md ? "- " : "",
                why && why[0] ? why : "perf_event_open failed",
                md ? "`make bench-steps` / `--instructions`" : "make bench-steps / --instructions");
        return;
    }
    fprintf(out, md ? "\n### Counters (%s)\n\nPer input byte, from a separate counting pass (perf_event_open).\n\n"
                    : "\nCounters (%s) -- per input byte, separate perf_event_open counting pass\n",
            r->ds[di].name);
    print_table(&t, out, md);
    if (md) fputc('\n', out);
}

void jb_print_tables(jb_run *r, FILE *out) {
    const char *g = r->opt.group_by ? r->opt.group_by : "operation";
    fprintf(out, "\n== jet-bench: budget %.0f ms per cell, %.0f ms interleaved slices; the machine may be shared and noisy ==\n",
            r->opt.min_time_ms, r->opt.slice_ms);
    if (!strcmp(g, "dataset")) tables_by_dataset(r, out, false);
    else if (strchr(g, ',')) tables_by_cell(r, out, false);
    else tables_by_op(r, out, false);
    counters_table(r, out, false);
}

/* --------------------------------------------------------- machine info -- */

void jb_machine_info(char *cpu, size_t ncpu, char *kernel, size_t nk, char *date, size_t nd) {
    snprintf(cpu, ncpu, "unknown");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (f) {
        char line[512];
        while (fgets(line, sizeof line, f)) {
            if (!strncmp(line, "model name", 10)) {
                char *p = strchr(line, ':');
                if (p) {
                    p++;
                    while (*p == ' ') p++;
                    p[strcspn(p, "\n")] = 0;
                    snprintf(cpu, ncpu, "%s", p);
                }
                break;
            }
        }
        fclose(f);
    }
    struct utsname u;
    if (uname(&u) == 0) snprintf(kernel, nk, "%s %s %s", u.sysname, u.release, u.machine);
    else snprintf(kernel, nk, "unknown");
    time_t now = time(NULL);
    struct tm tmv;
    gmtime_r(&now, &tmv);
    strftime(date, nd, "%Y-%m-%dT%H:%M:%SZ", &tmv);
}

/* ------------------------------------------------------------------ JSON -- */

static void json_str(FILE *f, const char *s) {
    fputc('"', f);
    for (; s && *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\') fprintf(f, "\\%c", ch);
        else if (ch == '\n') fputs("\\n", f);
        else if (ch < 0x20) fprintf(f, "\\u%04x", ch);
        else fputc(ch, f);
    }
    fputc('"', f);
}

static void json_num(FILE *f, double v) {
    if (!isfinite(v)) fputs("null", f);
    else fprintf(f, "%.6g", v);
}

int jb_write_json(jb_run *r, const char *path) {
    FILE *f = fopen(path, "w");
    if (!f) { fprintf(stderr, "jet-bench: cannot write %s: %s\n", path, strerror(errno)); return 1; }
    char cpu[256], kernel[256], date[64];
    jb_machine_info(cpu, sizeof cpu, kernel, sizeof kernel, date, sizeof date);
    fputs("{\n  \"machine\": {\"cpu\": ", f);
    json_str(f, cpu);
    fprintf(f, ", \"cores\": %ld, \"compiler\": ", sysconf(_SC_NPROCESSORS_ONLN));
    json_str(f, JB_COMPILER);
    fputs(", \"flags\": ", f);
    json_str(f, JB_FLAGS);
    fputs(", \"kernel\": ", f);
    json_str(f, kernel);
    fputs(", \"date\": ", f);
    json_str(f, date);
    fprintf(f, ", \"pinned_cpu\": %d},\n", r->opt.pin_cpu);
    fprintf(f, "  \"config\": {\"min_time_ms\": %.0f, \"slice_ms\": %.0f, \"sample_ms\": %.2f, \"group_by\": ",
            r->opt.min_time_ms, r->opt.slice_ms, r->opt.sample_ms);
    json_str(f, r->opt.group_by ? r->opt.group_by : "operation");
    fputs("},\n  \"engines\": [", f);
    for (int i = 0; i < r->neng; i++) {
        fputs(i ? ", {\"name\": " : "{\"name\": ", f);
        json_str(f, r->eng[i]->name);
        fputs(", \"library\": ", f);
        json_str(f, r->eng[i]->family);
        fputc('}', f);
    }
    fputs("],\n  \"datasets\": [", f);
    bool first = true;
    for (int i = 0; i < r->nds; i++) {
        const jb_dataset *d = &r->ds[i];
        if (!d->loaded) continue;
        fputs(first ? "\n    {\"name\": " : ",\n    {\"name\": ", f);
        first = false;
        json_str(f, d->name);
        fputs(", \"path\": ", f);
        json_str(f, d->path);
        fprintf(f, ", \"bytes\": %zu, \"reference\": ", d->len);
        json_str(f, d->have_ref ? d->ref_source : "none");
        if (d->have_ref) {
            const jb_stats *s = &d->ref;
            fprintf(f, ", \"fingerprint\": {\"objects\": %llu, \"arrays\": %llu, \"strings\": %llu, \"numbers\": %llu, "
                       "\"integers\": %llu, \"doubles\": %llu, \"trues\": %llu, \"falses\": %llu, \"nulls\": %llu, "
                       "\"keys\": %llu, \"max_depth\": %llu, \"string_bytes\": %llu}",
                    (unsigned long long)s->objects, (unsigned long long)s->arrays, (unsigned long long)s->strings,
                    (unsigned long long)s->numbers, (unsigned long long)s->integers, (unsigned long long)s->doubles,
                    (unsigned long long)s->trues, (unsigned long long)s->falses, (unsigned long long)s->nulls,
                    (unsigned long long)s->keys, (unsigned long long)s->max_depth, (unsigned long long)s->string_bytes);
        }
        fputc('}', f);
    }
    fputs("\n  ],\n  \"results\": [", f);
    first = true;
    for (int i = 0; i < r->ncells; i++) {
        jb_cell *c = &r->cells[i];
        if (c->state == CELL_UNSUPPORTED) continue;
        fputs(first ? "\n    {\"engine\": " : ",\n    {\"engine\": ", f);
        first = false;
        json_str(f, c->eng->name);
        fputs(", \"op\": ", f);
        json_str(f, jb_op_names[c->op]);
        fputs(", \"dataset\": ", f);
        json_str(f, r->ds[c->ds].name);
        fprintf(f, ", \"bytes\": %zu, \"samples\": %zu, \"iters_per_sample\": %u, \"median_ns\": ", c->bytes,
                c->nsamples, c->iters_per_sample);
        json_num(f, c->median_ns);
        fputs(", \"mad_ns\": ", f);
        json_num(f, c->mad_ns);
        fputs(", \"p10_ns\": ", f);
        json_num(f, c->p10_ns);
        fputs(", \"mb_per_s\": ", f);
        json_num(f, c->mb_per_s);
        fputs(", \"ops_per_s\": ", f);
        json_num(f, c->ops_per_s);
        fprintf(f, ", \"verified\": %s", c->state == CELL_OK ? "true" : "false");
        fputs(", \"x_baseline\": ", f);
        if (c->ratio > 0) json_num(f, c->ratio); else fputs("null", f);
        fputs(", \"baseline\": ", f);
        if (c->ratio_base) json_str(f, c->ratio_base); else fputs("null", f);
        if ((c->op == OP_SERIALIZE || c->op == OP_API_WRITE) && c->out_bytes)
            fprintf(f, ", \"out_bytes\": %zu", c->out_bytes);
        if (r->ds[c->ds].kind == JB_DS_NOSTR) fprintf(f, ", \"messages\": %zu", r->ds[c->ds].nlines);
        fputs(", \"note\": ", f);
        json_str(f, c->note);
        fputs(", \"counters\": ", f);
        if (!c->have_ctr) {
            fputs("null", f);
        } else {
            fprintf(f, "{\"hardware\": %s", c->ctr.hw ? "true" : "false");
            if (c->ctr.hw) {
                fputs(", \"ipc\": ", f); json_num(f, c->ctr.ipc);
                fputs(", \"cycles_per_byte\": ", f); json_num(f, c->ctr.cyc_per_byte);
                fputs(", \"instructions_per_byte\": ", f); json_num(f, c->ctr.ins_per_byte);
                fputs(", \"branch_miss_pct\": ", f); json_num(f, c->ctr.br_miss_pct);
            } else {
                fputs(", \"reason\": ", f); json_str(f, c->ctr.why);
            }
            fputs(", \"faults_per_iter\": ", f);
            if (c->ctr.sw) json_num(f, c->ctr.faults_per_iter); else fputs("null", f);
            fputc('}', f);
        }
        fputc('}', f);
    }
    fputs("\n  ]\n}\n", f);
    int rc = ferror(f);
    if (fclose(f) != 0 || rc) { fprintf(stderr, "jet-bench: error writing %s\n", path); return 1; }
    fprintf(stderr, "wrote %s\n", path);
    return 0;
}

/* -------------------------------------------------------------- Markdown -- */

int jb_write_markdown(jb_run *r, const char *path) {
    FILE *f = fopen(path, "w");
    if (!f) { fprintf(stderr, "jet-bench: cannot write %s: %s\n", path, strerror(errno)); return 1; }
    char cpu[256], kernel[256], date[64];
    jb_machine_info(cpu, sizeof cpu, kernel, sizeof kernel, date, sizeof date);
    fprintf(f, "<!-- generated by jet-bench --markdown -->\n\n**Machine:** %s, %ld cores, %s; %s; `%s`. "
               "**Budget:** %.0f ms per cell in %.0f ms interleaved slices. **Date:** %s.\n",
            cpu, sysconf(_SC_NPROCESSORS_ONLN), kernel, JB_COMPILER, JB_FLAGS, r->opt.min_time_ms, r->opt.slice_ms, date);
    const char *g = r->opt.group_by ? r->opt.group_by : "operation";
    if (!strcmp(g, "dataset")) tables_by_dataset(r, f, true);
    else if (strchr(g, ',')) tables_by_cell(r, f, true);
    else tables_by_op(r, f, true);
    counters_table(r, f, true);
    int rc = ferror(f);
    if (fclose(f) != 0 || rc) return 1;
    fprintf(stderr, "wrote %s\n", path);
    return 0;
}

/* ------------------------------------------------------------------- SVG -- */

static const char *const palette[] = {"#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
                                      "#e377c2", "#7f7f7f", "#bcbd22", "#17becf", "#393b79", "#637939"};

static void svg_escape(FILE *f, const char *s) {
    for (; *s; s++) {
        if (*s == '<') fputs("&lt;", f);
        else if (*s == '>') fputs("&gt;", f);
        else if (*s == '&') fputs("&amp;", f);
        else fputc(*s, f);
    }
}

/* One grouped bar chart per operation: a group per dataset, a bar per
 * engine, height = MB/s (ops/s for the message-oriented ops); failed cells
 * are marked with an x. */
int jb_write_svg(jb_run *r, const char *dir) {
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "jet-bench: cannot create %s: %s\n", dir, strerror(errno));
        return 1;
    }
    for (int op = 0; op < OP__COUNT; op++) {
        if (!r->op_on[op] || !op_has_cells(r, op)) continue;
        int dcols[JB_MAX_DATASETS], nd = 0, ecols[JB_MAX_ENGINES], ne = 0;
        for (int di = 0; di < r->nds; di++)
            if (ds_in_op(r, op, di)) dcols[nd++] = di;
        double maxv = 0;
        for (int ei = 0; ei < r->neng; ei++) {
            bool any = false;
            for (int k = 0; k < nd; k++) {
                jb_cell *c = find_cell(r, r->eng[ei], op, dcols[k]);
                if (c && c->state != CELL_UNSUPPORTED) any = true;
                if (timed(c) && cell_rate(c) > maxv) maxv = cell_rate(c);
            }
            if (any) ecols[ne++] = ei;
        }
        if (!nd || !ne) continue;
        if (maxv <= 0) maxv = 1;
        /* A round axis maximum: 1, 2 or 5 times a power of ten. */
        double step = pow(10, floor(log10(maxv)));
        double top = step;
        while (top < maxv) top += step;
        char path[1200];
        snprintf(path, sizeof path, "%s/%s.svg", dir, jb_op_names[op]);
        FILE *f = fopen(path, "w");
        if (!f) { fprintf(stderr, "jet-bench: cannot write %s: %s\n", path, strerror(errno)); return 1; }
        const int bw = 14, gap = 24, left = 70, topm = 40, h = 300, legend = 150;
        int gw = ne * bw + gap;
        int W = left + nd * gw + legend, H = topm + h + 60;
        fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" font-size=\"11\">\n", W, H);
        fprintf(f, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n<text x=\"%d\" y=\"20\" font-size=\"14\">", left);
        const char *unit = jb_op_per_message(op) ? "ops/s" : "MB/s";
        svg_escape(f, jb_op_titles[op]);
        fprintf(f, " (%s, median)</text>\n", unit);
        for (int k = 0; k <= 5; k++) {
            double v = top * k / 5;
            int y = topm + h - (int)(h * k / 5);
            fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#ddd\"/>\n", left, y, left + nd * gw, y);
            fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%.0f</text>\n", left - 4, y + 4, v);
        }
        for (int k = 0; k < nd; k++) {
            int x0 = left + k * gw + gap / 2;
            for (int j = 0; j < ne; j++) {
                jb_cell *c = find_cell(r, r->eng[ecols[j]], op, dcols[k]);
                int x = x0 + j * bw;
                const char *col = palette[j % (sizeof palette / sizeof palette[0])];
                if (timed(c)) {
                    int bh = (int)(h * cell_rate(c) / top);
                    fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"><title>%s %s: %.0f %s</title></rect>\n",
                            x, topm + h - bh, bw - 2, bh, col, c->eng->name, r->ds[dcols[k]].name, cell_rate(c), unit);
                } else if (c && c->state == CELL_FAILED) {
                    fprintf(f, "<text x=\"%d\" y=\"%d\" fill=\"%s\">x</text>\n", x + 2, topm + h - 4, col);
                }
            }
            fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">", x0 + ne * bw / 2, topm + h + 16);
            svg_escape(f, r->ds[dcols[k]].name);
            fputs("</text>\n", f);
        }
        for (int j = 0; j < ne; j++) {
            int y = topm + 10 + j * 16;
            fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\"/>\n<text x=\"%d\" y=\"%d\">",
                    left + nd * gw + 12, y, palette[j % (sizeof palette / sizeof palette[0])], left + nd * gw + 26, y + 9);
            svg_escape(f, r->eng[ecols[j]]->name);
            fputs("</text>\n", f);
        }
        fputs("</svg>\n", f);
        fclose(f);
        fprintf(stderr, "wrote %s\n", path);
    }
    return 0;
}
