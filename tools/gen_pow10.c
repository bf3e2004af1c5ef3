/*
 * gen_pow10.c — prints src/pow10_table.h (declaration) and, with --source,
 * src/pow10_table.c (values): the table of 128-bit normalized powers of ten
 * used by number parsing (Eisel–Lemire) and printing.
 *
 *   cc -std=c11 -O2 -o gen_pow10 tools/gen_pow10.c
 *   ./gen_pow10 > src/pow10_table.h && ./gen_pow10 --source > src/pow10_table.c
 *
 * For every q in [JET_POW10_MIN, JET_POW10_MAX] the entry is M = floor(10^q * 2^-e)
 * with e chosen so that 2^127 <= M < 2^128, i.e. 10^q ~= M * 2^e where
 *     e = floor(q * log2(10)) - 127.
 * Self-contained big-integer arithmetic (base 2^32 limbs): no external library.
 * The program also checks that floor(q*log2(10)) == (q*217706) >> 16 (floor
 * division) over the whole range, so the consumers may use that cheap formula.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define QMIN (-342)
#define QMAX 308
#define LIMBS 80 /* 2560 bits: 10^342 needs 1137, 2^(1137+127) needs 1265 */

typedef struct {
    uint32_t l[LIMBS]; /* little-endian limbs */
} big;

static void big_set_u32(big *a, uint32_t v) {
    memset(a, 0, sizeof *a);
    a->l[0] = v;
}

static void big_mul_u32(big *a, uint32_t m) {
    uint64_t carry = 0;
    for (int i = 0; i < LIMBS; i++) {
        uint64_t t = (uint64_t)a->l[i] * m + carry;
        a->l[i] = (uint32_t)t;
        carry = t >> 32;
    }
    if (carry) {
        fprintf(stderr, "gen_pow10: overflow\n");
        exit(1);
    }
}

/* Number of significant bits (0 for zero). */
static int big_bitlen(const big *a) {
    for (int i = LIMBS - 1; i >= 0; i--) {
        if (a->l[i]) {
            int b = 32;
            while (!(a->l[i] >> (b - 1))) b--;
            return i * 32 + b;
        }
    }
    return 0;
}

static int big_bit(const big *a, int n) {
    if (n < 0 || n >= LIMBS * 32) return 0;
    return (int)((a->l[n / 32] >> (n % 32)) & 1u);
}

static void big_shl1(big *a) {
    uint32_t carry = 0;
    for (int i = 0; i < LIMBS; i++) {
        uint32_t nc = a->l[i] >> 31;
        a->l[i] = (a->l[i] << 1) | carry;
        carry = nc;
    }
}

static int big_cmp(const big *a, const big *b) {
    for (int i = LIMBS - 1; i >= 0; i--) {
        if (a->l[i] != b->l[i]) return a->l[i] < b->l[i] ? -1 : 1;
    }
    return 0;
}

static void big_sub(big *a, const big *b) { /* a -= b, a >= b */
    uint64_t borrow = 0;
    for (int i = 0; i < LIMBS; i++) {
        uint64_t t = (uint64_t)a->l[i] - b->l[i] - borrow;
        a->l[i] = (uint32_t)t;
        borrow = (t >> 63) & 1;
    }
}

/* Top 128 bits of a, starting at bit `top` (inclusive) going down; bits
 * below zero read as 0. */
static void big_top128(const big *a, int top, uint64_t *hi, uint64_t *lo) {
    uint64_t h = 0, l = 0;
    for (int i = 0; i < 128; i++) {
        int b = big_bit(a, top - i);
        if (i < 64) h = (h << 1) | (uint64_t)b;
        else l = (l << 1) | (uint64_t)b;
    }
    *hi = h;
    *lo = l;
}

/* floor(q * log2(10)) by the fixed-point formula, without right-shifting a
 * negative number (implementation-defined in C). */
static int floor_log2_pow10(int q) {
    int64_t t = (int64_t)q * 217706 + ((int64_t)1 << 40);
    return (int)(t >> 16) - (1 << 24);
}

int main(int argc, char **argv) {
    /* --source: the table's definition (pow10_table.c); else the header */
    int source = argc > 1 && strcmp(argv[1], "--source") == 0;
    uint64_t tab[QMAX - QMIN + 1][2];
    int exps[QMAX - QMIN + 1];

    /* Non-negative q: 10^q is an integer; keep its top 128 bits. */
    big p;
    big_set_u32(&p, 1);
    for (int q = 0; q <= QMAX; q++) {
        int n = big_bitlen(&p);
        big_top128(&p, n - 1, &tab[q - QMIN][0], &tab[q - QMIN][1]);
        exps[q - QMIN] = n - 128; /* 10^q = M * 2^(n-128) + rest */
        big_mul_u32(&p, 10);
    }

    /* Negative q: M = floor(2^k / 10^-q) with k = bitlen(10^-q) + 127, which
     * lies in (2^127, 2^128) because 10^-q is not a power of two. Bit-wise
     * long division: only the quotient bits below 2^128 are produced. */
    big d;
    big_set_u32(&d, 1);
    for (int n = 1; n <= -QMIN; n++) {
        big_mul_u32(&d, 10);
        int L = big_bitlen(&d);
        int k = L + 127;
        big rem;
        big_set_u32(&rem, 0);
        uint64_t hi = 0, lo = 0;
        /* Dividend 2^k: a single 1 followed by k zeros. */
        for (int i = k; i >= 0; i--) {
            big_shl1(&rem);
            if (i == k) rem.l[0] |= 1;
            int qb = 0;
            if (big_cmp(&rem, &d) >= 0) {
                big_sub(&rem, &d);
                qb = 1;
            }
            if (i < 128) {
                if (i >= 64) hi |= (uint64_t)qb << (i - 64);
                else lo |= (uint64_t)qb << i;
            } else if (qb) {
                fprintf(stderr, "gen_pow10: quotient too large at q=-%d\n", n);
                return 1;
            }
        }
        tab[-n - QMIN][0] = hi;
        tab[-n - QMIN][1] = lo;
        exps[-n - QMIN] = -k;
    }

    for (int q = QMIN; q <= QMAX; q++) {
        if (!(tab[q - QMIN][0] >> 63)) {
            fprintf(stderr, "gen_pow10: entry %d not normalized\n", q);
            return 1;
        }
        if (exps[q - QMIN] != floor_log2_pow10(q) - 127) {
            fprintf(stderr, "gen_pow10: exponent formula fails at q=%d\n", q);
            return 1;
        }
    }

    if (source) {
        printf("/*\n"
               " * pow10_table.c \u2014 GENERATED by tools/gen_pow10.c; do not edit.\n"
               " *   cc -std=c11 -O2 -o gen_pow10 tools/gen_pow10.c && ./gen_pow10 --source > src/pow10_table.c\n"
               " * The table described in pow10_table.h, defined once for every reader\n"
               " * and printer (inline printers would otherwise each carry a copy).\n"
               " */\n"
               "#include \"pow10_table.h\"\n"
               "\n"
               "const uint64_t jet__pow10_tab[JET_POW10_MAX - JET_POW10_MIN + 1][2] = {\n");
        for (int q = QMIN; q <= QMAX; q++) {
            printf("    {UINT64_C(0x%016" PRIx64 "), UINT64_C(0x%016" PRIx64 ")}, /* 1e%d */\n",
                   tab[q - QMIN][0], tab[q - QMIN][1], q);
        }
        printf("};\n");
        return 0;
    }
    printf("/*\n"
           " * pow10_table.h \u2014 GENERATED by tools/gen_pow10.c; do not edit.\n"
           " *   cc -std=c11 -O2 -o gen_pow10 tools/gen_pow10.c && ./gen_pow10 > src/pow10_table.h\n"
           " *\n"
           " * jet__pow10_tab[q - JET_POW10_MIN] = {hi, lo} is the 128-bit truncation\n"
           " * (floor, never rounded up) of 10^q normalized so that bit 127 is set:\n"
           " *     10^q ~= (hi * 2^64 + lo) * 2^e,   e = floor(q * log2(10)) - 127,\n"
           " * and floor(q * log2(10)) == floor(q * 217706 / 65536) for every q in\n"
           " * [JET_POW10_MIN, JET_POW10_MAX] (checked by the generator).\n"
           " * Entries for 0 <= q <= 55 are exact (5^q < 2^128); all others are\n"
           " * truncated (the true value is at most one unit of `lo` above).\n"
           " * Computed with exact big-integer arithmetic (long division for q < 0).\n"
           " * The values are in pow10_table.c (`./gen_pow10 --source`).\n"
           " */\n"
           "#ifndef JET_POW10_TABLE_H\n"
           "#define JET_POW10_TABLE_H\n"
           "\n"
           "#include <stdint.h>\n"
           "\n"
           "#define JET_POW10_MIN (-342)\n"
           "#define JET_POW10_MAX 308\n"
           "\n"
           "extern const uint64_t jet__pow10_tab[JET_POW10_MAX - JET_POW10_MIN + 1][2];\n"
           "\n"
           "#endif /* JET_POW10_TABLE_H */\n");
    return 0;
}
