# Convenience wrapper around CMake. The two commands of the Quick start:
#   make bench   build (Release) and print the comparison tables
#   make test    build and run every test
BUILD   ?= build
JOBS    ?= 2
PREFIX  ?= /usr/local
CMAKE_FLAGS ?=
BENCH_ARGS ?=

.PHONY: all deps configure build test bench install clean

all: build

deps:
	@scripts/deps.sh

# deps.sh costs one dpkg-query when everything is installed; a failed install
# does not stop the build (missing peers are skipped, the rest still builds).
$(BUILD)/CMakeCache.txt:
	@scripts/deps.sh || echo "make: continuing with the packages that are installed" >&2
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS)

configure: $(BUILD)/CMakeCache.txt

build: configure
	cmake --build $(BUILD) -j$(JOBS)

test: build
	@scripts/run-tests.sh $(BUILD)

bench: build
	$(BUILD)/bench/jet-bench $(BENCH_ARGS)

# Instructions per byte of the kernels this CPU runs (AVX-512 included), by
# single-stepping one parse of twitter per engine (x86-64 Linux; about two
# minutes; see bench/README.md, "Counters").
.PHONY: bench-steps
bench-steps: build
	$(BUILD)/bench/jet-bench --step-count --ops parse --datasets twitter --engines jet,simdjson-dom $(BENCH_ARGS)

# Number parsing/printing alone (bench/num_bench.c), and the long run of the
# number tests (about 100 times the random cases of `make test`; minutes).
.PHONY: bench-numbers test-numbers-long
bench-numbers: build
	$(BUILD)/bench/jet-num-bench $(BENCH_ARGS)

test-numbers-long: build
	cmake --build $(BUILD) --target test-numbers-long

# Long fuzzing runs (scripts/fuzz.sh; clang): every fuzz target for
# FUZZ_SECONDS, corpora kept outside the repository in FUZZ_CORPUS_DIR and
# grown run after run; findings in FUZZ_CORPUS_DIR/TARGET-findings.
FUZZ_SECONDS ?= 300
FUZZ_CORPUS_DIR ?= $(HOME)/.cache/jet-fuzz
.PHONY: fuzz
fuzz:
	FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_CORPUS_DIR=$(FUZZ_CORPUS_DIR) FUZZ_JOBS=$(JOBS) \
		scripts/fuzz.sh

install: build
	cmake --install $(BUILD) --prefix $(PREFIX)

clean:
	rm -rf $(BUILD)
