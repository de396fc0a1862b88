#!/usr/bin/env bash
# Jobs per second and latency of a tiny job on mty worker / NATS JetStream
# (docs/scaling.md), with 1, 2 and 4 workers (one thread each) on this machine.
# Usage: bench/cluster_bench.sh BUILD_DIR [JOBS] [SAMPLES]
# One nats-server (JetStream, file storage) on a free loopback port, a fresh
# store per worker count; throughput: JOBS submitted at once until the last
# result is seen; latency: SAMPLES jobs one at a time, submit to result.
set -u
build="$1"
jobs="${2:-2000}"
samples="${3:-300}"
tmp="$(mktemp -d)"
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null; done
  wait 2>/dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT
# The workers' result key: they sign with it, the load tool checks.
openssl genpkey -algorithm ed25519 -out "$tmp/worker.key" 2>/dev/null &&
  openssl pkey -in "$tmp/worker.key" -pubout -out "$tmp/worker.pub" || exit 1
export MTY_LOAD_VERIFY_KEY="$tmp/worker.pub"
mkdir -p "$tmp/scratch"
printf 'fn main() -> Int {\n    let mut s = 0\n    for i in 0..100 {\n        s = s + i\n    }\n    s - 4950\n}\n' >"$tmp/tiny.mty"
echo "| workers | jobs/s | p50 latency | p99 latency |"
echo "|---|---|---|---|"
for workers in 1 2 4; do
  port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
  nats-server -js -a 127.0.0.1 -p "$port" -sd "$tmp/store$workers" >"$tmp/server$workers.log" 2>&1 &
  pids+=($!)
  for _ in $(seq 100); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.1; done
  url="nats://127.0.0.1:$port"
  for w in $(seq "$workers"); do
    "$build/mty" worker --nats "$url" --name "w$w" --sign-key "$tmp/worker.key" \
      --scratch "$tmp/scratch" --quiet >"$tmp/w$w.log" 2>&1 &
    pids+=($!)
  done
  sleep 0.5
  out="$("$build/tests/mty_cluster_load" "$url" "$tmp/tiny.mty" "$jobs" "$samples")" || {
    echo "load failed: $out"
    exit 1
  }
  tput="$(sed -n 's/^throughput //p' <<<"$out")"
  p50="$(sed -n 's/^latency_p50_ms //p' <<<"$out")"
  p99="$(sed -n 's/^latency_p99_ms //p' <<<"$out")"
  echo "| $workers | $tput | $p50 ms | $p99 ms |"
  for p in "${pids[@]:1}"; do kill -9 "$p" 2>/dev/null; done
  kill -9 "${pids[0]}" 2>/dev/null
  wait 2>/dev/null
  pids=()
done
