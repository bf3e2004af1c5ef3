/*
 * od_window.c — the on-demand cursor's structural index: its bitmaps, and
 * the window of them that slides and rescans (stage 1, scan.c) as the
 * cursor moves through an input too large to index whole.
 */
#include "ondemand.h"

#include <string.h>

/* ========================================================================== */
/* The index in bounded windows                                               */
/* ========================================================================== */

/*
 * An input of more than two halves (4 MiB by default) is indexed a window
 * of two halves at a time, so that the cursor's bitmaps stay 3 * 2 * half
 * words whatever the input's size. Moving forward past the window slides it
 * by one half (the half left behind stays for short looks back, such as a
 * key looked up again from its object's start); any other move rescans the
 * two halves around the word wanted from the checkpoint of stage 1's state
 * taken when the first scan passed there. A window's verdict (string not
 * closed, control character, invalid UTF-8) is taken as it is scanned.
 * jet_od_start (od_start.c) chooses between the whole input and windows.
 */

/* Room for three bitmaps of `words` words. */
bool jet__od_index_reserve(jet_od *od, size_t words) {
    if (od->index_cap < 3 * words || !od->marks) {
        size_t cap = words ? words : 1;
        jet__free(&od->alloc, od->marks);
        od->marks = (uint64_t *)jet__malloc(&od->alloc, 3 * cap * sizeof(uint64_t));
        od->index_cap = od->marks ? 3 * cap : 0;
        if (!od->marks) return jet__od_err(od, JET_E_MEMORY, 0);
    }
    size_t cap = od->index_cap / 3;
    od->bs = od->marks + cap;
    od->br = od->marks + 2 * cap;
    return true;
}

/* Checkpoint k (64-aligned inside cps_raw). */
static jet_scan_state *checkpoint(jet_od *od, size_t k) {
    uintptr_t a = (uintptr_t)od->cps_raw;
    unsigned char *base = od->cps_raw + ((64 - (a & 63)) & 63);
    return (jet_scan_state *)(void *)(base + k * sizeof(jet_scan_state));
}

/* Records checkpoint k = cps_n (the state at word k * half). */
static bool checkpoint_push(jet_od *od, const jet_scan_state *st) {
    if (od->cps_n == od->cps_cap) {
        size_t cap = od->cps_cap ? 2 * od->cps_cap : 16;
        unsigned char *raw = (unsigned char *)jet__malloc(&od->alloc, cap * sizeof *st + 64);
        if (!raw) return jet__od_err(od, JET_E_MEMORY, 0);
        unsigned char *old = od->cps_raw;
        const jet_scan_state *from = old ? checkpoint(od, 0) : NULL;
        od->cps_raw = raw;
        od->cps_cap = cap;
        if (od->cps_n) memcpy(checkpoint(od, 0), from, od->cps_n * sizeof *st);
        jet__free(&od->alloc, old);
    }
    memcpy(checkpoint(od, od->cps_n), st, sizeof *st);
    od->cps_n++;
    return true;
}

/* Stage 1 found an error (the DOM reader says what and where), or the index
 * could not grow (already recorded): the cursor has no tokens from now on. */
bool jet__od_stage1_error(jet_od *od) {
    /* The index is kept while the error is recorded: up to the error it is
     * right, and the error's path (the field where typed decoding met
     * invalid UTF-8, say) comes from it; a window the path's walk scans
     * again is then kept, failing or not (scan_halves). */
    if (!od->failed && jet__od_validate_all(od, &od->opts, false))
        jet__od_err(od, JET_E_INVALID_JSON, 0);
    od->words = 0;
    od->direct = 0;
    od->win_n = 0;
    return false;
}

/* Scans halves [h, h + n) into their slots of the ring (half k's words at
 * (k & 1) * half), from checkpoint h, adding the checkpoints the scan
 * passes for the first time. False on a stage-1 error (recorded). */
static bool scan_halves(jet_od *od, size_t h, size_t n) {
    jet_scan_state st;
    memcpy(&st, checkpoint(od, h), sizeof st);
    bool lax = (od->flags & JET_READ_ALLOW_INVALID_UTF8) != 0;
    for (size_t i = 0; i < n; i++, h++) {
        size_t first = h * od->half;
        if (first >= od->words) break;
        size_t cnt = od->words - first < od->half ? od->words - first : od->half;
        size_t at = (h & 1) * od->half;
        jet__scan_window(od->kernel, &st, od->json, od->len, first, cnt, od->marks + at,
                         od->bs + at, od->br + at, NULL);
        bool at_end = first + cnt == od->words;
        jet_scan_result res;
        if (!jet__scan_status(od->kernel, &st, at_end, &res) || res.ctrl_in_string ||
            (!res.utf8_valid && !lax))
            od->bad_window = true; /* reported once the window is in place */
        if (!at_end && h + 1 == od->cps_n && !checkpoint_push(od, &st)) return jet__od_stage1_error(od);
    }
    return true;
}

bool jet__od_load(jet_od *od, size_t w) {
    if (w >= od->words) return false;
    size_t half = od->half, hw = w / half;
    if (!od->cps_n) {
        jet_scan_state zero;
        jet__scan_begin(&zero);
        if (!checkpoint_push(od, &zero)) return jet__od_stage1_error(od);
    }
    size_t lo_half = od->win_lo / half;
    if (od->win_n == 2 * half && hw == lo_half + 2 && hw < od->cps_n) {
        /* the next half: it takes the slots of the lowest one */
        od->win_n = 0; /* nothing valid while rescanning */
        if (!scan_halves(od, hw, 1)) return false;
        od->win_lo = (hw - 1) * half;
    } else {
        /* anywhere else: forward, w in the upper half; backward, the lower */
        size_t lo = hw > 0 && w >= od->win_lo ? hw - 1 : hw;
        od->win_n = 0;
        /* the checkpoint of half lo: scan the halves before it first when
         * the move skips ahead of everything scanned so far */
        while (od->cps_n <= lo)
            if (!scan_halves(od, od->cps_n - 1, 1)) return false;
        if (!scan_halves(od, lo, 2)) return false;
        od->win_lo = lo * half;
    }
    size_t left = od->words - od->win_lo;
    od->win_n = left < 2 * half ? left : 2 * half;
    if (JET_UNLIKELY(od->bad_window)) {
        od->bad_window = false;
        /* while an error is being recorded, the walk to its path reads the
         * failing window as it is (the marks before the error are right) */
        if (!od->failed) return jet__od_stage1_error(od);
    }
    return true;
}

uint64_t jet__od_word_far(jet_od *od, int map, size_t w) {
    if ((size_t)(w - od->win_lo) >= od->win_n && !jet__od_load(od, w)) return 0;
    const uint64_t *m = map == 0 ? od->marks : map == 1 ? od->bs : od->br;
    return m[w & od->mask];
}

size_t jet__od_next_far(jet_od *od, size_t off) {
    size_t w = off >> 6;
    if (w >= od->words) return od->len;
    uint64_t bits = jet__od_word_far(od, 0, w) & (~UINT64_C(0) << (off & 63));
    while (!bits) {
        if (++w >= od->words) return od->len;
        bits = jet__od_word_far(od, 0, w);
    }
    return (w << 6) + jet__ctz64(bits);
}

