// simdjson_common.hpp — what the simdjson DOM and On-Demand adapters share:
// the reusable padded copy of the input and the depth bookkeeping of the
// fingerprint. Included inside each adapter's own (anonymous) namespace, so
// every per-ISA build of simdjson_od.cpp gets its own copy; no include
// guard, since each translation unit includes it exactly once.

struct padded_buf {
    std::unique_ptr<char[]> data;
    size_t cap = 0;
    // Copies len bytes in; the tail padding is zeroed once at allocation.
    const char *fill(const char *json, size_t len) {
        if (len + simdjson::SIMDJSON_PADDING > cap) {
            size_t n = len + simdjson::SIMDJSON_PADDING;
            data.reset(new (std::nothrow) char[n]);
            if (!data) { cap = 0; return nullptr; }
            std::memset(data.get(), 0, n);
            cap = n;
        }
        std::memcpy(data.get(), json, len);
        std::memset(data.get() + len, 0, simdjson::SIMDJSON_PADDING);
        return data.get();
    }
};

inline void bump_depth(jb_stats &s, uint64_t depth) {
    if (depth > s.max_depth) s.max_depth = depth;
}
