/*
 * scan_generic.h — the one implementation of stage 1, included by scan.c once
 * per kernel. The including file defines:
 *   SCAN_FN        name of the function to generate
 *   SCAN_ATTR      function attributes (the kernel's target)
 *   SCAN_CLASSIFY  (const char *p, scan_masks *m): classify 64 bytes at p
 *   SCAN_PREFIX_XOR(x): bit i of the result = xor of bits 0..i of x
 * Everything after the per-byte classification is 64-bit mask arithmetic
 * shared by all kernels (scan_escaped, scan_extract in scan.c).
 */

SCAN_ATTR static size_t SCAN_FN(const char *json, size_t len, uint32_t *out) {
    uint32_t *o = out;
    uint64_t in_string = 0;  /* all ones while the previous block ended in a string */
    uint64_t escape_carry = 0; /* 1 when the next block's first byte is escaped */
    uint64_t other_carry = 0;  /* 1 when the previous block ended in a scalar run */
    size_t base = 0;
    char tail[64];
    for (;;) {
        const char *block;
        size_t avail = len - base;
        if (avail >= 64) {
            block = json + base;
        } else {
            if (avail == 0) break;
            /* The last partial block, padded with spaces: whitespace adds
             * nothing to the index and ends any run. */
            memset(tail, ' ', sizeof tail);
            memcpy(tail, json + base, avail);
            block = tail;
        }
        scan_masks m;
        SCAN_CLASSIFY(block, &m);
        uint64_t escaped = scan_escaped(m.backslash, &escape_carry);
        uint64_t quotes = m.quote & ~escaped;
        /* Inside-string mask: set from an opening quote up to, not
         * including, its closing quote. */
        uint64_t strings = SCAN_PREFIX_XOR(quotes) ^ in_string;
        in_string = (uint64_t)((int64_t)strings >> 63);
        uint64_t outside = ~strings;
        uint64_t ops = m.op & outside;
        uint64_t other = ~(m.ws | m.op | quotes) & outside;
        uint64_t starts = other & ~((other << 1) | other_carry);
        other_carry = other >> 63;
        o = scan_extract(o, ops | quotes | starts, (uint32_t)base);
        if (avail <= 64) break;
        base += 64;
    }
    if (in_string) return SIZE_MAX;
    return (size_t)(o - out);
}

#undef SCAN_FN
#undef SCAN_ATTR
#undef SCAN_CLASSIFY
#undef SCAN_PREFIX_XOR
