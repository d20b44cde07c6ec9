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

log() { printf '[endpoint-test-env %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

# The Debian mirror this machine already uses (deb822 sources), never a hard-coded host.
debian_mirror() {
  local f uri
  for f in /etc/apt/sources.list.d/debian.sources /etc/apt/sources.list.d/*.sources; do
    [ -r "$f" ] || continue
    uri="$(awk '/^[[:space:]]*#/ {next} tolower($1) == "uris:" && $2 !~ /security/ {print $2; exit}' "$f")"
    if [ -n "$uri" ]; then printf '%s\n' "$uri"; return 0; fi
  done
  if [ -r /etc/apt/sources.list ]; then
    uri="$(awk '$1 == "deb" && $0 !~ /security/ {for (i = 2; i <= NF; i++) if ($i ~ /^[a-z]+:\/\//) {print $i; exit}}' /etc/apt/sources.list)"
    if [ -n "$uri" ]; then printf '%s\n' "$uri"; return 0; fi
  fi
  return 1
}

# Mounts left below a path (an interrupted debootstrap mounts proc/sys in its target): unmount
# them, and refuse to delete the tree if any remain, so rm -rf can never reach the host.
release_mounts() {
  local dir="$1" m
  for _ in 1 2 3; do
    m="$(awk -v d="$dir/" 'index($2 "/", d) == 1 {print $2}' /proc/self/mounts | sort -r)"
    [ -z "$m" ] && return 0
    while read -r mp; do umount -l "$mp" 2>/dev/null || true; done <<<"$m"
  done
  die "mounts remain below $dir; not deleting it"
}

install_chroot() {
  [ -f "$COMPLETE_MARK" ] && return 0
  mkdir -p "$(dirname "$CHROOT")"
  # one installer at a time per machine; the others wait and reuse its result
  exec 9>"$CHROOT.lock"
  flock 9
  if [ -f "$COMPLETE_MARK" ]; then exec 9>&-; return 0; fi

  if ! command -v debootstrap >/dev/null 2>&1; then
    log "installing debootstrap"
    local apt_log="$CHROOT.apt.log"
    if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap >"$apt_log" 2>&1; then
      # a fresh machine may have no package lists yet
      apt-get update -qq >>"$apt_log" 2>&1 \
        && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap >>"$apt_log" 2>&1 \
        || { tail -n 20 "$apt_log" >&2; die "cannot install debootstrap (log: $apt_log)"; }
    fi
  fi
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

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

# 0 when PID is alive and is a llama-server (a recycled PID is never signalled)
is_our_server() {
  local pid="$1"
  [ -n "$pid" ] && [ -r "/proc/$pid/comm" ] && [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = "llama-server" ]
}

healthy() {
  curl -fsS --max-time 2 "http://127.0.0.1:$1/health" >/dev/null 2>&1
}

running_url() {
  [ -f "$STATE/pid" ] && [ -f "$STATE/port" ] || return 1
  local pid port
  pid="$(cat "$STATE/pid")"
  port="$(cat "$STATE/port")"
  is_our_server "$pid" && healthy "$port" && printf 'http://127.0.0.1:%s\n' "$port"
}

start_server() {
  local port="$1" pid deadline
  rm -f "$STATE/pid" "$STATE/port"
  # the shell records its own PID and execs chroot, which execs llama-server: the PID is the
  # server's. Output goes to a log so no caller's pipe is held open.
  setsid sh -c 'echo $$ > "$1"; shift; exec "$@"' sh "$STATE/pid" \
    chroot "$CHROOT" /usr/bin/llama-server -m "$MODEL_IN_CHROOT" --alias "$MODEL_NAME" \
      --host 127.0.0.1 --port "$port" -t 1 -c 2048 -np 2 --no-webui \
    </dev/null >"$STATE/server.log" 2>&1 &
  deadline=$(( $(date +%s) + HEALTH_TIMEOUT_S ))
  for _ in $(seq 100); do [ -s "$STATE/pid" ] && break; sleep 0.05; done
  [ -s "$STATE/pid" ] || { log "the server process did not start"; return 1; }
  pid="$(cat "$STATE/pid")"
  while ! healthy "$port"; do
    if ! kill -0 "$pid" 2>/dev/null; then
      log "llama-server exited during start; last log lines:"
      tail -n 15 "$STATE/server.log" >&2
      return 1
    fi
    if [ "$(date +%s)" -ge "$deadline" ]; then
      log "llama-server not healthy after ${HEALTH_TIMEOUT_S}s"
      stop_server
      return 1
    fi
    sleep 0.1
  done
  echo "$port" > "$STATE/port"
}

stop_server() {
  [ -f "$STATE/pid" ] || return 0
  local pid
  pid="$(cat "$STATE/pid")"
  if is_our_server "$pid"; then
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 50); do is_our_server "$pid" || break; sleep 0.1; done
    if is_our_server "$pid"; then
      log "llama-server $pid ignored SIGTERM; killing it"
      kill -KILL "$pid" 2>/dev/null || true
    fi
    log "stopped llama-server (pid $pid)"
  fi
  rm -f "$STATE/pid" "$STATE/port"
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
