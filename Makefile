# Thin wrapper over CMake for the README's quick start. The real build is CMakeLists.txt.
BUILD ?= build
JOBS ?= $(shell nproc 2>/dev/null || echo 2)

.PHONY: all deps configure build demo test test-asan test-random test-fuzz clean

all: build

# Debian packages, then the Python environment of the Python package's tests ($(BUILD)/venv;
# without the package index they are skipped, not failed).
deps:
	@scripts/install-deps.sh
	@scripts/python-env.sh $(BUILD)/venv || \
	  echo "kcc: warning: no Python environment in $(BUILD)/venv: the python.* tests will be skipped"

configure: deps
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null

build: configure
	@cmake --build $(BUILD) -j $(JOBS)

demo: build
	@scripts/demo.sh $(BUILD)

test: build
	@ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS)

# The optimised build users package (-O3: GCC's flow warnings differ from -O2's, and they are
# errors). CI builds it beside the default one and runs the unit tests on it.
.PHONY: build-release
build-release: deps
	@cmake -S . -B $(BUILD)-release -DCMAKE_BUILD_TYPE=Release >/dev/null
	@cmake --build $(BUILD)-release -j $(JOBS)
	@ctest --test-dir $(BUILD)-release --output-on-failure -j $(JOBS) -R '^unit\.'

# The same suite under AddressSanitizer + UndefinedBehaviorSanitizer (CI runs both), less the
# registry corpus (tests/corpus: minutes of compiles that `make test` already runs).
# intercept_tls_get_addr=0: GCC 12's sanitizer runtime mistakes some dynamic TLS blocks of
# dlopen'ed libraries (those under the OpenCL ICD loader) for glibc < 2.25's layout and gives
# LeakSanitizer a bogus range, so the leak check at exit dies with "Tracer caught signal 11"
# (google/sanitizers#1322; seen on runtime.stencil with a cold PoCL cache). The flag only takes
# roots away from LeakSanitizer: it can make it report more, never hide a leak.
# use_sigaltstack=0: libclang parses on a thread of its own, and the first LLVM signal handler
# registered there (a temporary file to remove on a signal) swaps ASan's alternate signal stack
# for a malloc'ed one when ASan's is smaller than LLVM's MINSIGSTKSZ + 64 KiB, which depends on
# the CPU's signal frame (AVX-512 makes it larger). At that thread's exit ASan then unmaps
# LLVM's block and dies with "unable to unmap" (CI, 2026-12). Without ASan's own alternate
# stack nothing is unmapped; LLVM's keeps stack overflows reported.
# tests/lsan.supp: what the drivers leak (the runtime tests override it with their own).
test-asan: deps
	@cmake -S . -B $(BUILD)-asan -DCMAKE_BUILD_TYPE=Debug -DKCC_SANITIZE=ON >/dev/null
	@cmake --build $(BUILD)-asan -j $(JOBS)
	@ASAN_OPTIONS=detect_leaks=1:intercept_tls_get_addr=0:use_sigaltstack=0 UBSAN_OPTIONS=print_stacktrace=1 \
	  LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp \
	  ctest --test-dir $(BUILD)-asan --output-on-failure -j $(JOBS) -LE corpus

# The self-contained binary wheel (python/tools/build_wheel.sh: `pip wheel`, then `auditwheel
# repair` vendors LLVM and libclang) into $(BUILD)/wheel/wheel/; `make test-wheel` installs it
# into a fresh virtual environment and runs the Python suite against it (python/tools/test_wheel.sh).
.PHONY: wheel test-wheel
wheel: build
	@python/tools/build_wheel.sh $(BUILD)/wheel $(BUILD)/venv/bin/python

test-wheel: wheel
	@python/tools/test_wheel.sh $(BUILD)/wheel

clean:
	rm -rf $(BUILD) $(BUILD)-release $(BUILD)-asan $(BUILD)-fuzz

# libkcrt's runtime test programs (the rt_* of tests/runtime.cmake) under valgrind memcheck with
# tests/valgrind.supp (driver internals only; tests/runtime_valgrind.cmake says how). All 17
# programs by default: 6-10 minutes on 2 cores the first time (PoCL compiles every kernel under
# valgrind), under a minute once $(BUILD)/valgrind/cache is warm. For a quick check:
# make test-valgrind VALGRIND_TESTS="api vecadd reduce dynshared"
VALGRIND_TESTS ?= all
.PHONY: test-valgrind
test-valgrind: build
	@cmake -DBUILD=$(BUILD) -DJOBS=$(JOBS) -DTESTS="$(VALGRIND_TESTS)" -P tests/runtime_valgrind.cmake

# libkcc (the compiler in process) under valgrind memcheck: 1000 compiles in one process, one in
# ten with an error, no invalid access and no definite or possible leak (about 15 minutes on 2
# cores; ctest's libkcc.valgrind runs 100 of them).
.PHONY: test-valgrind-libkcc
test-valgrind-libkcc: build
	@valgrind --error-exitcode=1 --num-callers=40 --leak-check=full \
	  --show-leak-kinds=definite,possible --errors-for-leak-kinds=definite,possible \
	  --suppressions=tests/libkcc/valgrind.supp $(BUILD)/tests/libkcc_repeat 1000 --emit=cl

# The random differential run (tests/random/, docs/testing.md) on any seed range; `make test`
# runs seeds 2000-2019 (random.diff). make test-random SEEDS=1-300 [RANDOM_OPTS=--reduce]
SEEDS ?= 1-100
RANDOM_OPTS ?=
test-random: build
	@tests/random/run.sh $(BUILD) $(SEEDS) 10 $(JOBS) $(RANDOM_OPTS)

# The libFuzzer harnesses (tests/fuzz/, docs/testing.md): a clang-19 build of their own, each
# fuzzer run for FUZZ_SECONDS from the seed corpus. make test-fuzz FUZZ_SECONDS=3600
FUZZ_SECONDS ?= 60
test-fuzz: deps
	@cmake -S . -B $(BUILD)-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=clang-19 \
	  -DKCC_FUZZ=ON -DKCC_FUZZ_SECONDS=$(FUZZ_SECONDS) >/dev/null
	@cmake --build $(BUILD)-fuzz -j $(JOBS) --target kcc fuzz_k fuzz_cl fuzz_cu fuzz_header fuzz_bundle
	@ctest --test-dir $(BUILD)-fuzz --output-on-failure -L fuzz -j $(JOBS)
