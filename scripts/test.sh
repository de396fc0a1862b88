#!/usr/bin/env bash
# Builds mty and runs the whole test suite (unit suites, budget_charges,
# golden conformance programs, CLI contract). Benchmarks are not run here.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
ctest --test-dir build --output-on-failure -j2
