#!/usr/bin/env bash
# Configures and builds ./build-san: clang with AddressSanitizer (leaks
# included), UndefinedBehaviorSanitizer (every report fatal) and libFuzzer
# coverage instrumentation, with the test suites and the fuzz harnesses.
# Used by scripts/sanitize.sh (the whole ctest suite) and scripts/fuzz.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
flags="-fsanitize=address,undefined,fuzzer-no-link -fno-sanitize-recover=undefined"
flags+=" -fsanitize-ignorelist=$PWD/tests/sanitize_ignore.txt -fno-omit-frame-pointer"
cmake -S . -B build-san -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_CXX_FLAGS="$flags" \
  -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" -DMTY_FUZZ=ON -DMTY_BUILD_BENCH=OFF \
  >/dev/null
ninja -C build-san "$@"
