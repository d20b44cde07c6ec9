#!/usr/bin/env bash
# A real OpenAI-compatible endpoint on loopback for the endpoint test tier (benchplan smoke).
#
#   scripts/endpoint-test-env.sh up     install (once per machine), start, print the base URL as
#                                       the LAST line of stdout: http://127.0.0.1:PORT
#   scripts/endpoint-test-env.sh down   stop the server started by `up` (by its recorded PID)
#   scripts/endpoint-test-env.sh status print the base URL when running, exit 1 otherwise
#
# llama-server comes from Debian sid's llama.cpp-tools (it needs a newer libc than the host's
# bookworm), installed with debootstrap into a chroot that is cached per machine and marked
# complete only once the install finished. The model is a tiny random-weight GGUF written by
# scripts/make-tiny-gguf.py and served under the stable name tiny-test-model.
#
# Both commands are idempotent. Logs go to stderr; only the URL goes to stdout.
# Environment: BENCHPLAN_LLAMA_CHROOT (default /var/cache/benchplan/llama-chroot),
#              BENCHPLAN_ENDPOINT_STATE (default /tmp/benchplan-endpoint: pid, port, log).
set -euo pipefail

SCRIPT_DIR="$(cd "$(dirname "$0")" && pwd)"
CHROOT="${BENCHPLAN_LLAMA_CHROOT:-/var/cache/benchplan/llama-chroot}"
STATE="${BENCHPLAN_ENDPOINT_STATE:-/tmp/benchplan-endpoint}"
MODEL_NAME="tiny-test-model"
MODEL_IN_CHROOT="/var/lib/benchplan/${MODEL_NAME}.gguf"
COMPLETE_MARK="$CHROOT/.benchplan-complete"
HEALTH_TIMEOUT_S=60
# llama-server's sizing (scripts/lib/llama-server.sh start_server): one thread, two slots
SERVER_ARGS=(-t 1 -c 2048 -np 2)

log() { printf '[endpoint-test-env %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }
# shellcheck source=scripts/lib/llama-server.sh
. "$SCRIPT_DIR/lib/llama-server.sh"

install_chroot() {
  [ -f "$COMPLETE_MARK" ] && return 0
  mkdir -p "$(dirname "$CHROOT")"
  # one installer at a time per machine; the others wait and reuse its result
  exec 9>"$CHROOT.lock"
  flock 9
  if [ -f "$COMPLETE_MARK" ]; then exec 9>&-; return 0; fi

  ensure_debootstrap
  local mirror partial="$CHROOT.partial" started
  mirror="$(debian_mirror)" || die "no Debian mirror found in /etc/apt/sources.list.d/*.sources"
  for stale in "$partial" "$CHROOT"; do
    if [ -e "$stale" ]; then
      log "removing incomplete $stale"
      release_mounts "$stale"
      rm -rf --one-file-system "$stale"
    fi
  done
  log "debootstrap sid with llama.cpp-tools into $CHROOT (once per machine, about a minute)"
  started=$(date +%s)
  if ! debootstrap --variant=minbase --include=llama.cpp-tools,ca-certificates sid "$partial" "$mirror" \
      > "$CHROOT.install.log" 2>&1; then
    release_mounts "$partial"
    tail -n 20 "$CHROOT.install.log" >&2
    die "debootstrap failed (full log: $CHROOT.install.log)"
  fi
  release_mounts "$partial"
  [ -x "$partial/usr/bin/llama-server" ] || die "debootstrap finished but $partial/usr/bin/llama-server is missing"
  mv "$partial" "$CHROOT"
  date -u +%Y-%m-%dT%H:%M:%SZ > "$COMPLETE_MARK"
  log "chroot ready in $(( $(date +%s) - started ))s ($(du -sm "$CHROOT" | cut -f1) MB)"
  exec 9>&-
}

cmd_up() {
  local url t0 port
  if url="$(running_url)"; then
    log "already running"
    printf '%s\n' "$url"
    return 0
  fi
  stop_server
  mkdir -p "$STATE"
  t0=$(date +%s%N)
  install_chroot
  python3 "$SCRIPT_DIR/make-tiny-gguf.py" "$CHROOT$MODEL_IN_CHROOT"
  for attempt in 1 2 3; do
    port="$(free_port)"
    local s0=$(date +%s%N)
    if start_server "$port"; then
      log "llama-server (pid $(cat "$STATE/pid")) healthy on port $port in $(( ($(date +%s%N) - s0) / 1000000 )) ms; up took $(( ($(date +%s%N) - t0) / 1000000 )) ms; log: $STATE/server.log"
      printf 'http://127.0.0.1:%s\n' "$port"
      return 0
    fi
    log "start attempt $attempt on port $port failed"
  done
  die "llama-server did not start; see $STATE/server.log"
}

case "${1:-}" in
  up) cmd_up ;;
  down) stop_server ;;
  status) running_url || { log "not running"; exit 1; } ;;
  *) echo "usage: $0 up|down|status" >&2; exit 2 ;;
esac
