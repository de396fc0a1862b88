#!/usr/bin/env bash
# Builds mty with clang, ASan + UBSan (scripts/sanitize_build.sh) and runs
# the whole ctest suite there: any sanitizer report, a leak included, fails.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/sanitize_build.sh
# ASan and UBSan run code about 3x slower: the golden tests' work-bound
# time limits (`// mty-time-limit:`) are scaled by 3 (run_golden.sh).
# The IR round trips of the goldens (`*_roundtrip.*`, a quarter of the
# suite) run the same interpreter on the same programs as the direct ones;
# the printer and parser they add are covered by the ir and fuzz tests, so
# they are left to the plain build here (CI's 60 minutes on 2 cores).
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 MTY_TIME_FACTOR=3 \
  ctest --test-dir build-san --output-on-failure -j2 -E '_roundtrip\.'
