#!/usr/bin/env bash
# Installs exactly the Debian 12 packages mty needs to build, test and
# benchmark (run as root on a fresh machine). Safe to run again.
set -euo pipefail
PACKAGES=(
  build-essential cmake ninja-build
  pkg-config         # scripts/package_test.sh: building examples/embed against mty.pc
  libedit-dev        # `mty repl`: line editing and history
  libabsl-dev        # Abseil: containers, Status, strings
  libicu-dev         # ICU: Unicode properties and case mappings (char and Str methods)
  nlohmann-json3-dev # JSON output of the command line (--stats=json)
  libboost-dev       # Boost.Container
  libgtest-dev libgmock-dev  # GoogleTest + GoogleMock
  libbenchmark-dev   # Google Benchmark
  libcurl4-openssl-dev  # libcurl: HTTP for std.net
  libtomlplusplus-dev   # toml++: manifest files
  nats-server libnats-dev libssl-dev  # mty worker / submit: NATS JetStream server and C client; SHA-256, Ed25519 (docs/scaling.md)
  openssl            # cluster tests: result keys, TLS certificates, nkeys and JWTs (tests/cluster/)
  clang-format       # the style check in the test suite
  clang libclang-rt-14-dev  # the clang build: sanitizers and libFuzzer (scripts/sanitize.sh, fuzz.sh)
  lua5.4 python3 hyperfine valgrind time  # bench/peer.sh: the peers, start-up timing, callgrind, /usr/bin/time
)
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
