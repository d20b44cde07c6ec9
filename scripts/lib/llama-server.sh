# shellcheck shell=bash
# What scripts/endpoint-test-env.sh and scripts/aiperf-test-env.sh share: the Debian mirror, the
# chroot's mount hygiene, and starting, probing and stopping one llama-server run in a chroot.
# Sourced, never run. The sourcing script defines log and die and sets
#   CHROOT             the chroot holding /usr/bin/llama-server
#   STATE              the state folder: pid, port, server.log
#   MODEL_IN_CHROOT    the served GGUF file, as the chroot sees it
#   MODEL_NAME         the name it is served under (--alias)
#   HEALTH_TIMEOUT_S   how long a start may take to answer /health
#   SERVER_ARGS        an array: llama-server's sizing arguments (threads, context, slots)

# The Debian mirror this machine already uses (deb822 sources first), never a hard-coded host.
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

# debootstrap when missing; a fresh machine may have no package lists yet
ensure_debootstrap() {
  command -v debootstrap >/dev/null 2>&1 && return 0
  log "installing debootstrap"
  local apt_log="$CHROOT.apt.log"
  if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap >"$apt_log" 2>&1; then
    apt-get update -qq >>"$apt_log" 2>&1 \
      && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap >>"$apt_log" 2>&1 \
      || { tail -n 20 "$apt_log" >&2; die "cannot install debootstrap (log: $apt_log)"; }
  fi
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
      --host 127.0.0.1 --port "$port" "${SERVER_ARGS[@]}" --no-webui \
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
