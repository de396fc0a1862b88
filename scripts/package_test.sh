#!/usr/bin/env bash
# The package test (docs/embedding.md, "Using mty from CMake and
# pkg-config"): a Release build with GCC in ./build-pkg (warnings as
# errors, the benchmarks included; the test suites are built with GCC in
# ./build and with clang in ./build-san, warnings as errors), installed to a temporary prefix;
# examples/embed built against that prefix with find_package(mty) and with
# pkg-config, and run; examples/embed configured with mty as a subproject
# (its options and flags checked); the Release tree built with clang in
# ./build-pkg-clang (warnings as errors, the product only) and
# `mty run examples/hello.mty`.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
start=$(date +%s)
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
prefix="$tmp/prefix"
step() { echo "== package_test: $1 ($(($(date +%s) - start)) s)"; }
fail() { echo "package_test FAILED: $*"; exit 1; }

# What examples/embed must print (its README).
check_embed() {
  local out
  out="$("$1")" || fail "$1 exited $?"
  sed 's/^/  /' <<<"$out"
  local line
  for line in "runs: 100 on 4 threads" "outcome ok: 20" "outcome budget exceeded: 40" \
    "outcome main returned Err: 20" "outcome trap: 20" "limit steps: 20" "limit memory: 20" \
    'main returned Err("forbidden: /etc/passwd"): 20' "trap MT5017: 20" \
    "ok runs that printed their lines: 20" "ok runs that returned an Int: 20" "kv entries: 20" \
    "null program: invalid options" "closure returned as I64: trap MT5016" \
    "shared structure returned: budget exceeded memory (returned value)" \
    "parameter a million levels deep: invalid options" "memory counted without a limit: yes"; do
    grep -qxF "$line" <<<"$out" || fail "$1 did not print: $line"
  done
}

step "Release build (GCC)"
cmake -S . -B build-pkg -G Ninja -DCMAKE_BUILD_TYPE=Release -DMTY_WERROR=ON \
  -DMTY_BUILD_TESTS=OFF >/dev/null
ninja -C build-pkg
cmake --install build-pkg --prefix "$prefix" >/dev/null
for f in bin/mty lib/libmty_api.a lib/libmty_heap.a lib/libmty_ir.a lib/libmty_vocab.a include/mty/mty.h \
  include/mty/exit_codes.h \
  include/mty/vocab/policy.def lib/cmake/mty/mtyConfig.cmake lib/cmake/mty/mtyConfigVersion.cmake \
  lib/cmake/mty/mtyTargets.cmake lib/pkgconfig/mty.pc include/mty/client.h \
  include/mty/cluster/worker.h lib/libmty_cluster.a; do
  [ -e "$prefix/$f" ] || fail "not installed: $f"
done
[ "$("$prefix/bin/mty" run examples/hello.mty)" = "hello, Mighty" ] || fail "installed mty run"

step "examples/embed with find_package(mty)"
cmake -S examples/embed -B "$tmp/embed" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_CXX_FLAGS="-Wall -Wextra -Werror" >/dev/null
ninja -C "$tmp/embed" >"$tmp/log" || { cat "$tmp/log"; fail "examples/embed did not build"; }
check_embed "$tmp/embed/embed"

step "examples/client (mty::Client) with find_package(mty COMPONENTS cluster), build only"
cmake -S examples/client -B "$tmp/client" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_CXX_FLAGS="-Wall -Wextra -Werror" >/dev/null
ninja -C "$tmp/client" >"$tmp/log" || { cat "$tmp/log"; fail "examples/client did not build"; }
[ -x "$tmp/client/submit_one" ] || fail "examples/client did not build"

step "examples/embed with pkg-config"
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
# shellcheck disable=SC2046  # pkg-config's output is a list of words
g++ -std=c++20 -O2 -Wall -Wextra -Werror examples/embed/embed.cc $(pkg-config --cflags --libs mty) \
  -o "$tmp/embed-pc"
check_embed "$tmp/embed-pc"

step "mty as a subproject (configure only)"
cmake -S examples/embed -B "$tmp/sub" -G Ninja -DMTY_SOURCE_DIR="$root" \
  -DCMAKE_EXPORT_COMPILE_COMMANDS=ON >/dev/null
for v in MTY_BUILD_TESTS MTY_BUILD_BENCH MTY_WERROR MTY_INSTALL MTY_STATIC_ABSL; do
  grep -qx "$v:BOOL=OFF" "$tmp/sub/CMakeCache.txt" || fail "$v is not OFF in a subproject"
done
python3 - "$tmp/sub/compile_commands.json" <<'EOF' || fail "a subproject's compile flags"
import json, sys
cmds = json.load(open(sys.argv[1]))
embed = [c["command"] for c in cmds if c["file"].endswith("examples/embed/embed.cc")]
assert len(embed) == 1 and "-Wall" not in embed[0] and "-Werror" not in embed[0], embed
assert not any("-Werror" in c["command"] for c in cmds), "-Werror in a subproject"
assert not any("/tests/" in c["file"] or "/bench/" in c["file"] for c in cmds), "tests built"
EOF

step "Release build (clang)"
CC=clang CXX=clang++ cmake -S . -B build-pkg-clang -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DMTY_WERROR=ON -DMTY_BUILD_TESTS=OFF -DMTY_BUILD_BENCH=OFF >/dev/null
ninja -C build-pkg-clang
[ "$(build-pkg-clang/mty run examples/hello.mty)" = "hello, Mighty" ] || fail "clang mty run"
step "done"
