#!/usr/bin/env bash
# The real-engine test tier's environment: AIPerf 0.11.0 itself, offline, in a Debian sid chroot,
# with a llama-server serving the project's tiny model (the engine benchplan's Jobs run).
#
#   scripts/aiperf-test-env.sh install  build the chroot once per machine (cached; ~1.5 min fresh)
#   scripts/aiperf-test-env.sh up       install, start llama-server; prints its URL as the LAST line
#   scripts/aiperf-test-env.sh env      lines to eval (chroot, endpoint, model, tokenizer, versions)
#   scripts/aiperf-test-env.sh status   print the URL when running and installed, exit 1 otherwise
#   scripts/aiperf-test-env.sh down     stop the llama-server `up` started (by its recorded PID)
#
# The chroot (debootstrap --variant=minbase sid: Debian's bookworm Python stack is too old) holds
#   /opt/aiperf/src                AIPerf 0.11.0's source, unpacked at install time from
#                                  ../shared/tools/aiperf/aiperf-0.11.0-src.tar.gz (never copied into
#                                  the project), plus the dist-info `pip install` would add
#   /opt/benchplan-standins        scripts/aiperf-standins: crick and ffmpeg, which Debian lacks
#   /usr/local/bin/aiperf          the aiperf command
#   /var/lib/benchplan/tiny-test-model.gguf   scripts/make-tiny-gguf.py's model
#   /opt/tokenizers/tiny-test-model           its tokenizer (scripts/make-tiny-tokenizer.py)
#   /usr/bin/llama-server          Debian's llama.cpp-tools
# and the Debian package versions it installed in $CHROOT/.benchplan-packages.txt (sid moves daily).
# Python packages come from the mirror apt already uses on this machine (read from its sources).
# The chroot is rebuilt when the AIPerf tarball or this recipe changes (RECIPE below).
#
# Environment: BENCHPLAN_AIPERF_CHROOT (default /var/cache/benchplan/aiperf-chroot),
#              BENCHPLAN_AIPERF_STATE (default /tmp/benchplan-aiperf: pid, port, server log),
#              BENCHPLAN_AIPERF_TOOLS (default <repo>/../shared/tools/aiperf).
set -euo pipefail

SCRIPT_DIR="$(cd "$(dirname "$0")" && pwd)"
REPO="$(cd "$SCRIPT_DIR/.." && pwd)"
CHROOT="${BENCHPLAN_AIPERF_CHROOT:-/var/cache/benchplan/aiperf-chroot}"
STATE="${BENCHPLAN_AIPERF_STATE:-/tmp/benchplan-aiperf}"
TOOLS="${BENCHPLAN_AIPERF_TOOLS:-$REPO/../shared/tools/aiperf}"
AIPERF_VERSION="0.11.0"
TARBALL_NAME="aiperf-${AIPERF_VERSION}-src.tar.gz"
# bump when the install steps change: a chroot built by another recipe is rebuilt
RECIPE=2
MODEL_NAME="tiny-test-model"
MODEL_IN_CHROOT="/var/lib/benchplan/${MODEL_NAME}.gguf"
TOKENIZER_IN_CHROOT="/opt/tokenizers/${MODEL_NAME}"
COMPLETE_MARK="$CHROOT/.benchplan-complete"
PAYLOAD_MARK="$CHROOT/.benchplan-payload"
# The served model: slower per token than the 0.5 MB endpoint-tier model (about 85 MB of F32 weights,
# ~10 ms a token on one idle core), so that a request costs the server far more time than AIPerf's
# Python client spends on its stream; with the tiny model the client parsed tokens as fast as the
# server made them and every run was rightly judged client bound (client-bound.md).
MODEL_ARGS="--embed 512 --layers 8 --feed-forward 1024"
PACKAGES_FILE="$CHROOT/.benchplan-packages.txt"
HEALTH_TIMEOUT_S=60
# llama-server slots: the largest concurrency the real-engine tests drive
SLOTS=4
# context per slot: room for requests long enough (~800 tokens, ~0.5 s on the tiny model) that AIPerf's per-request
# overhead on a 2-core machine stays under 10% of the time in flight (the client-bound rule)
SLOT_CONTEXT=1024
# llama-server's sizing (scripts/lib/llama-server.sh start_server): one thread, SLOTS slots
SERVER_ARGS=(-t 1 -c $((SLOT_CONTEXT * SLOTS)) -np "$SLOTS")

# Debian sid packages `aiperf profile` imports (bookworm's are too old: pydantic 1, no cyclopts)
BASE_PKGS=python3,python3-aiofiles,python3-aiohttp,python3-cyclopts,python3-numpy,python3-orjson,python3-pandas,python3-pil,python3-psutil,python3-pydantic,python3-pydantic-settings,python3-zmq,python3-rich,python3-ruamel.yaml,python3-setproctitle,python3-soundfile,python3-textual,python3-tqdm,python3-tokenizers,python3-huggingface-hub,python3-uvloop,python3-regex,python3-safetensors,python3-yaml,python3-packaging,python3-typer,python3-openai,llama.cpp-tools,ca-certificates
# 0.11's profile path beyond those: msgspec, jinja2 and pyarrow are hard imports (without pyarrow
# AIPerf exits 0 and writes no summary); prometheus-client for its metric collectors; jmespath for
# template endpoints; transformers for AutoTokenizer (it depends on PyTorch: see empty_torch); scipy
# for the multi-run's confidence aggregate (without it `multiRun.numRuns > 1` ends every run, then
# exits 1 on "No module named 'scipy'")
EXTRA_PKGS="python3-transformers python3-msgspec python3-jinja2 python3-pyarrow python3-prometheus-client python3-jmespath python3-scipy"

log() { printf '[aiperf-test-env %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }
# shellcheck source=scripts/lib/llama-server.sh
. "$SCRIPT_DIR/lib/llama-server.sh"

tarball() {
  local t="$TOOLS/$TARBALL_NAME"
  [ -r "$t" ] || die "AIPerf source not found: $t (set BENCHPLAN_AIPERF_TOOLS to ../shared/tools/aiperf)"
  printf '%s\n' "$t"
}

# The chroot is two layers. The base (debootstrap + Debian packages) is rebuilt only when RECIPE changes
# (.benchplan-complete); the payload (AIPerf's source, the stand-ins, the model and its tokenizer) is
# reinstalled in place when the tarball, a project file copied into it or MODEL_ARGS change
# (.benchplan-payload), which takes seconds, not a debootstrap.
base_key() { echo "recipe $RECIPE"; }

payload_key() {
  local t
  t="$(tarball)"
  {
    sha256sum "$t" | awk -v n="$TARBALL_NAME" '{print $1 "  " n}'
    (cd "$SCRIPT_DIR" && sha256sum make-tiny-gguf.py make-tiny-tokenizer.py aiperf-standins/*.py)
    echo "model $MODEL_ARGS"
    echo "tokenizer $TOKENIZER_IN_CHROOT and the hub cache"
  }
}

base_installed() {
  [ -f "$COMPLETE_MARK" ] && [ "$(sed -n 2p "$COMPLETE_MARK")" = "$(base_key)" ]
}

installed() {
  base_installed && [ -f "$PAYLOAD_MARK" ] && [ "$(cat "$PAYLOAD_MARK")" = "$(payload_key)" ]
}

# Empty python3-torch/python3-torchvision packages: sid's python3-transformers depends on PyTorch
# (1 GB), which tokenizers never need.
empty_torch() {
  local root="$1" tmp p
  tmp="$(mktemp -d)"
  for p in python3-torch python3-torchvision; do
    mkdir -p "$tmp/$p/DEBIAN"
    printf 'Package: %s\nVersion: 0~benchplan.empty1\nArchitecture: all\nMaintainer: benchplan test tier <root@localhost>\nDescription: empty stand-in (AIPerf tokenizers need no PyTorch)\n' "$p" \
      > "$tmp/$p/DEBIAN/control"
    dpkg-deb --build "$tmp/$p" "$root/tmp/$p.deb" >/dev/null
  done
  rm -rf "$tmp"
  chroot "$root" dpkg -i /tmp/python3-torch.deb /tmp/python3-torchvision.deb >/dev/null
  rm -f "$root/tmp/python3-torch.deb" "$root/tmp/python3-torchvision.deb"
}

install_aiperf() {
  local root="$1" src="$1/opt/aiperf/src" corpus
  rm -rf "$root/opt/aiperf" "$root/opt/benchplan-standins"
  mkdir -p "$root/opt/aiperf"
  tar -C "$root/opt/aiperf" --strip-components=1 -xzf "$(tarball)"
  [ -d "$src/aiperf" ] || die "$TARBALL_NAME holds no src/aiperf"
  # the synthetic-prompt corpus is missing from the stored source: any long plain text serves
  corpus="$src/aiperf/dataset/generator/assets/shakespeare.txt"
  [ -s "$corpus" ] || cp "$root/usr/share/common-licenses/GPL-3" "$corpus"
  # what `pip install` would add: AIPerf finds its built-in plugins only through this entry point
  mkdir -p "$src/aiperf-${AIPERF_VERSION}.dist-info"
  printf 'Metadata-Version: 2.4\nName: aiperf\nVersion: %s\n' "$AIPERF_VERSION" \
    > "$src/aiperf-${AIPERF_VERSION}.dist-info/METADATA"
  printf '[console_scripts]\naiperf = aiperf.cli:app\n\n[aiperf.plugins]\naiperf = aiperf.plugin:plugins.yaml\n' \
    > "$src/aiperf-${AIPERF_VERSION}.dist-info/entry_points.txt"
  mkdir -p "$root/opt/benchplan-standins"
  cp "$SCRIPT_DIR"/aiperf-standins/*.py "$root/opt/benchplan-standins/"
  cat > "$root/usr/local/bin/aiperf" <<'EOF'
#!/bin/sh
# AIPerf 0.11.0 from source (scripts/aiperf-test-env.sh)
export PYTHONPATH="/opt/aiperf/src:/opt/benchplan-standins${PYTHONPATH:+:$PYTHONPATH}"
exec python3 -c 'import sys; from aiperf.cli import app; sys.argv[0] = "aiperf"; sys.exit(app())' "$@"
EOF
  chmod 755 "$root/usr/local/bin/aiperf"
}

install_model() {
  local root="$1"
  # shellcheck disable=SC2086 # a word list
  python3 "$SCRIPT_DIR/make-tiny-gguf.py" "$root$MODEL_IN_CHROOT" $MODEL_ARGS 2>/dev/null
  rm -rf "$root$TOKENIZER_IN_CHROOT"
  mkdir -p "$root/opt/benchplan-tools"
  cp "$SCRIPT_DIR/make-tiny-tokenizer.py" "$root/opt/benchplan-tools/"
  chroot "$root" python3 /opt/benchplan-tools/make-tiny-tokenizer.py "$MODEL_IN_CHROOT" "$TOKENIZER_IN_CHROOT"
  # the same tokenizer in the image's hub cache under the served name, as an image with a filled
  # cache has it: a tokenizer named by the model's id (validate names it after the model) loads
  # offline (HF_HUB_OFFLINE=1; the hub wants a config.json beside it)
  local hub="$root/root/.cache/huggingface/hub/models--${MODEL_NAME//\//--}" rev
  rev="$(cat "$root$TOKENIZER_IN_CHROOT"/* | sha1sum | cut -c1-40)"
  rm -rf "$hub"
  mkdir -p "$hub/refs" "$hub/snapshots/$rev"
  cp "$root$TOKENIZER_IN_CHROOT"/* "$hub/snapshots/$rev/"
  printf '{"model_type": "llama"}\n' > "$hub/snapshots/$rev/config.json"
  printf '%s' "$rev" > "$hub/refs/main"
}

install_chroot() {
  installed && return 0
  mkdir -p "$(dirname "$CHROOT")"
  # one installer at a time per machine; the others wait and reuse its result
  exec 9>"$CHROOT.lock"
  flock 9
  if installed; then exec 9>&-; return 0; fi
  if base_installed; then
    local t0
    t0=$(date +%s)
    install_payload "$CHROOT"
    payload_key > "$PAYLOAD_MARK"
    log "payload reinstalled in $(( $(date +%s) - t0 ))s"
    exec 9>&-
    return 0
  fi
  ensure_debootstrap
  local mirror partial="$CHROOT.partial" started ilog="$CHROOT.install.log"
  mirror="$(debian_mirror)" || die "no Debian mirror found in apt's sources"
  for stale in "$partial" "$CHROOT"; do
    if [ -e "$stale" ]; then
      log "removing stale $stale"
      release_mounts "$stale"
      rm -rf --one-file-system "$stale"
    fi
  done
  started=$(date +%s)
  log "debootstrap sid with AIPerf's Python packages and llama.cpp-tools into $partial (once per machine)"
  if ! nice -n 10 debootstrap --variant=minbase --include="$BASE_PKGS" sid "$partial" "$mirror" > "$ilog" 2>&1; then
    release_mounts "$partial"
    tail -n 20 "$ilog" >&2
    die "debootstrap failed (full log: $ilog)"
  fi
  release_mounts "$partial"
  log "empty python3-torch, then $EXTRA_PKGS"
  empty_torch "$partial"
  # shellcheck disable=SC2086 # a word list
  if ! chroot "$partial" env DEBIAN_FRONTEND=noninteractive nice -n 10 apt-get -q \
      -o Acquire::Check-Valid-Until=false install -y --no-install-recommends $EXTRA_PKGS >> "$ilog" 2>&1; then
    release_mounts "$partial"
    tail -n 20 "$ilog" >&2
    die "apt-get install in the chroot failed (full log: $ilog)"
  fi
  chroot "$partial" apt-get clean
  release_mounts "$partial"
  install_payload "$partial"
  chroot "$partial" dpkg-query -W -f '${Package} ${Version}\n' > "$partial/.benchplan-packages.txt"
  mv "$partial" "$CHROOT"
  { date -u +%Y-%m-%dT%H:%M:%SZ; base_key; } > "$COMPLETE_MARK"
  payload_key > "$PAYLOAD_MARK"
  log "chroot ready in $(( $(date +%s) - started ))s ($(du -smx "$CHROOT" | cut -f1) MB; $(wc -l < "$PACKAGES_FILE") packages listed in $PACKAGES_FILE)"
  exec 9>&-
}

# AIPerf, the stand-ins, the model and its tokenizer into ROOT; the chroot must answer before it counts
install_payload() {
  local root="$1" reported
  log "AIPerf $AIPERF_VERSION from $(tarball), the stand-ins, the model ($MODEL_ARGS) and its tokenizer"
  install_aiperf "$root"
  install_model "$root"
  reported="$(chroot "$root" env HOME=/root aiperf --version 2>&1 | tail -n 1)" \
    || die "aiperf --version failed in the chroot: $reported"
  case "$reported" in *"$AIPERF_VERSION"*) ;; *) die "aiperf --version says '$reported', expected $AIPERF_VERSION" ;; esac
  [ -x "$root/usr/bin/llama-server" ] || die "llama-server is missing from the chroot"
}

cmd_up() {
  local url t0 port
  if installed && url="$(running_url)"; then
    log "already running"
    printf '%s\n' "$url"
    return 0
  fi
  stop_server
  mkdir -p "$STATE"
  t0=$(date +%s)
  install_chroot
  for attempt in 1 2 3; do
    port="$(free_port)"
    if start_server "$port"; then
      log "llama-server (pid $(cat "$STATE/pid")) healthy on port $port; up took $(( $(date +%s) - t0 ))s; log: $STATE/server.log"
      printf 'http://127.0.0.1:%s\n' "$port"
      return 0
    fi
    log "start attempt $attempt on port $port failed"
  done
  die "llama-server did not start; see $STATE/server.log"
}

cmd_env() {
  local url
  url="$(running_url)" || die "not running: scripts/aiperf-test-env.sh up"
  installed || die "the chroot $CHROOT is not complete: scripts/aiperf-test-env.sh up"
  printf 'export BENCHPLAN_AIPERF_CHROOT=%s\n' "$CHROOT"
  printf 'export BENCHPLAN_AIPERF_ENDPOINT_URL=%s\n' "$url"
  printf 'export BENCHPLAN_AIPERF_MODEL=%s\n' "$MODEL_NAME"
  printf 'export BENCHPLAN_AIPERF_TOKENIZER=%s\n' "$TOKENIZER_IN_CHROOT"
  printf 'export BENCHPLAN_AIPERF_VERSION=%s\n' "$AIPERF_VERSION"
  printf 'export BENCHPLAN_AIPERF_PACKAGES=%s\n' "$PACKAGES_FILE"
}

case "${1:-}" in
  install) install_chroot ;;
  up) cmd_up ;;
  env) cmd_env ;;
  down) stop_server ;;
  status)
    installed || { log "not installed ($CHROOT)"; exit 1; }
    running_url || { log "not running"; exit 1; } ;;
  *) echo "usage: $0 install|up|env|status|down" >&2; exit 2 ;;
esac
