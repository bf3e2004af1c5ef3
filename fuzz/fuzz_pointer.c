/* fuzz_pointer.c — libFuzzer target for jet_ptr_getn.
 *
 *   cmake -S . -B build-fuzz -DJET_BUILD_FUZZ=ON -DCMAKE_C_COMPILER=clang
 *   cmake --build build-fuzz --target fuzz_pointer
 *   build-fuzz/fuzz/fuzz_pointer -max_total_time=60
 *
 * Input: POINTER, or POINTER '\n' DOCUMENT. The pointer (an exact-size heap
 * copy) is evaluated against a fixed document and, when the rest parses,
 * against that document too. Every result is compared with a simple
 * reference evaluator that unescapes each token into a buffer and uses
 * jet_obj_getn / jet_arr_get: same value (same slot), same error code.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jet.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char fixed_json[] =
    "{\"foo\":[\"bar\",\"baz\"],\"\":0,\"a/b\":1,\"c%d\":2,\"e^f\":3,\"g|h\":4,"
    "\"i\\\\j\":5,\"k\\\"l\":6,\" \":7,\"m~n\":8,\"~0\":9,\"~1\":10,\"/\":11,"
    "\"n\":{\"0\":[[1,2],{\"x\":[0,1,2,3,4,5,6,7,8,9,10,11]}],\"01\":\"z\","
    "\"\\u0000\":null,\"a\":{\"b\":{\"c\":{\"d\":[true]}}}},\"arr\":[{},[],{\"\":[{\"\":1}]}]}";

/* Reference: returns the value or NULL with *code set. */
static const jet_val *ref_get(const jet_val *root, const char *p, size_t len, jet_code *code) {
    if (len == 0) return root;
    if (p[0] != '/') {
        *code = JET_ERR_POINTER;
        return NULL;
    }
    for (size_t i = 0; i < len; i++) {
        if (p[i] == '~' && (i + 1 == len || (p[i + 1] != '0' && p[i + 1] != '1'))) {
            *code = JET_ERR_POINTER;
            return NULL;
        }
    }
    char *tok = (char *)malloc(len);
    if (!tok) abort();
    const jet_val *cur = root;
    size_t i = 0;
    while (i < len) {
        i++;
        size_t t = 0;
        while (i < len && p[i] != '/') {
            if (p[i] == '~') {
                tok[t++] = p[i + 1] == '0' ? '~' : '/';
                i += 2;
            } else {
                tok[t++] = p[i++];
            }
        }
        const jet_val *next = NULL;
        if (jet_is_obj(cur)) {
            next = jet_obj_getn(cur, tok, t);
        } else if (jet_is_arr(cur)) {
            bool ok = t > 0 && t <= 19 && (t == 1 || tok[0] != '0');
            uint64_t idx = 0;
            for (size_t k = 0; ok && k < t; k++) {
                if (tok[k] < '0' || tok[k] > '9') ok = false;
                else idx = idx * 10 + (uint64_t)(tok[k] - '0');
            }
            if (ok && idx <= SIZE_MAX) next = jet_arr_get(cur, (size_t)idx);
        }
        if (!next) {
            free(tok);
            *code = JET_ERR_NOT_FOUND;
            return NULL;
        }
        cur = next;
    }
    free(tok);
    return cur;
}

static void check(const jet_val *root, const char *p, size_t len) {
    jet_error err;
    memset(&err, 0, sizeof err);
    jet_code want = JET_OK;
    const jet_val *v = jet_ptr_getn(root, p, len, &err);
    const jet_val *r = ref_get(root, p, len, &want);
    if (v != r) {
        fprintf(stderr, "fuzz_pointer: result differs from the reference for \"%.*s\"\n",
                (int)len, p);
        abort();
    }
    if (!v && (err.code != want || !err.msg || err.offset > len)) {
        fprintf(stderr, "fuzz_pointer: error %s, want %s for \"%.*s\"\n",
                jet_code_name(err.code), jet_code_name(want), (int)len, p);
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static jet_doc *fixed;
    if (!fixed) {
        fixed = jet_read(fixed_json, sizeof fixed_json - 1, NULL, NULL, NULL);
        if (!fixed) abort();
    }
    const uint8_t *nl = (const uint8_t *)memchr(data, '\n', size);
    size_t plen = nl ? (size_t)(nl - data) : size;
    char *ptr = (char *)malloc(plen ? plen : 1);
    if (!ptr) return 0;
    memcpy(ptr, data, plen);
    check(jet_doc_root(fixed), ptr, plen);
    if (nl) {
        size_t dlen = size - plen - 1;
        char *json = (char *)malloc(dlen ? dlen : 1);
        if (json) {
            memcpy(json, nl + 1, dlen);
            jet_doc *d = jet_read(json, dlen, NULL, NULL, NULL);
            if (d) {
                check(jet_doc_root(d), ptr, plen);
                /* also from the first element / member, when there is one */
                const jet_val *root = jet_doc_root(d);
                if (jet_is_container(root) && jet_get_len(root))
                    check(jet_is_obj(root) ? root + 2 : root + 1, ptr, plen);
            }
            jet_doc_free(d);
            free(json);
        }
    }
    free(ptr);
    return 0;
}
