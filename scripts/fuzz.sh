#!/usr/bin/env bash
# Builds the libFuzzer harnesses (tests/fuzz, clang with ASan + UBSan) in
# ./build-san (scripts/sanitize_build.sh) and runs each for SECONDS (default 60), starting from the
# checked-in seed corpus (new inputs go to a scratch copy, not the repo).
# Fails on a crash, a sanitizer report, an OOM (2 GiB RSS) or an input that
# takes more than 10 s (a budgeted run must never take that long).
# Usage: scripts/fuzz.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
scripts/sanitize_build.sh fuzz_source fuzz_ir fuzz_manifest
status=0
for target in source ir manifest; do
  work="$(mktemp -d)"
  cp -r "tests/fuzz/corpus/$target/." "$work/"
  echo "== fuzz_$target for ${seconds}s"
  if ! ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 \
    "build-san/tests/fuzz/fuzz_$target" "$work" -dict="tests/fuzz/$target.dict" \
    -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
    -artifact_prefix="build-san/crash-$target-" -print_final_stats=1 2>"build-san/fuzz_$target.log"; then
    echo "fuzz_$target FAILED:"; tail -60 "build-san/fuzz_$target.log"; status=1
  else
    grep -E "stat::number_of_executed_units|cov:" "build-san/fuzz_$target.log" | tail -2
  fi
  rm -rf "$work"
done
exit $status
