#!/usr/bin/env bash
# A real Kubernetes control plane for the cluster test tier, on loopback only, without Docker:
# Debian's etcd + kube-apiserver and kube-controller-manager v1.20.2 built from Debian bookworm's
# `kubernetes` source package (cached per package version), RBAC + static token auth, and the real
# DynamoGraphDeployment CRD from ../shared/data. There is no scheduler and no kubelet: the Java test
# support (dev.benchplan.kubetest.FakeKubelet) plays both.
#
#   scripts/kube-test-env.sh up      # install/build what is missing, start, install the DGD CRD (idempotent)
#   scripts/kube-test-env.sh down    # stop exactly the processes `up` recorded (PID + start time)
#   scripts/kube-test-env.sh status  # exit 0 when every component runs and the apiserver is ready
#   scripts/kube-test-env.sh env     # shell lines to eval: export KUBECONFIG=... and friends
#   scripts/kube-test-env.sh build   # only install + build + cache the binaries (prints the cache dir)
#
# Environment: BENCHPLAN_KUBE_STATE (state dir, default /tmp/benchplan-kube-test-env),
# BENCHPLAN_KUBE_CACHE (binary cache root, default /var/cache/benchplan/kube),
# BENCHPLAN_KUBE_BUILD (build work dir, default /var/cache/benchplan/build),
# BENCHPLAN_SHARED_DATA (default <repo>/../shared/data), BENCHPLAN_KUBE_DGD_CRD (v0.9.0 | 2026-08 | none).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
KUBE_DEB_VERSION=1.20.5+really1.20.2-1.1+deb12u1
CACHE=${BENCHPLAN_KUBE_CACHE:-/var/cache/benchplan/kube}/$KUBE_DEB_VERSION
BUILD=${BENCHPLAN_KUBE_BUILD:-/var/cache/benchplan/build}
STATE=${BENCHPLAN_KUBE_STATE:-/tmp/benchplan-kube-test-env}
SHARED_DATA=${BENCHPLAN_SHARED_DATA:-$ROOT/../shared/data}
DGD_CRD=${BENCHPLAN_KUBE_DGD_CRD:-v0.9.0}
COMPONENTS=(etcd kube-apiserver kube-controller-manager)
KCM_CONTROLLERS=job,garbagecollector,namespace,ttl-after-finished,pvc-protection,pv-protection,serviceaccount,serviceaccount-token,podgc

log() { printf '[kube-test-env %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { log "error: $*"; exit 1; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

# ---------------------------------------------------------------- prerequisites and build

apt_install() {
  log "installing Debian packages: $*"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >&2
}

# Runtime needs only these; the build needs more (see build_binaries).
ensure_runtime_packages() {
  local need=()
  command -v etcd >/dev/null || need+=(etcd-server)
  command -v openssl >/dev/null || need+=(openssl)
  command -v curl >/dev/null || need+=(curl)
  command -v jq >/dev/null || need+=(jq)
  command -v ss >/dev/null || need+=(iproute2)
  command -v flock >/dev/null || need+=(util-linux)
  python_with_yaml >/dev/null || need+=(python3 python3-yaml)
  if [ ${#need[@]} -gt 0 ]; then apt_install "${need[@]}"; fi
  python_with_yaml >/dev/null || die "no python3 with the yaml module (python3-yaml) after installing it"
}

# Prints a python3 that can `import yaml` (the CRD transform needs it).
python_with_yaml() {
  local p
  for p in python3 /usr/bin/python3; do
    if command -v "$p" >/dev/null 2>&1 && "$p" -c 'import yaml' >/dev/null 2>&1; then command -v "$p"; return 0; fi
  done
  return 1
}

build_busy() { pgrep -f 'make WHAT=cmd/kube-apiserver|make WHAT=.*kube-apiserver' >/dev/null 2>&1; }

# Builds kube-apiserver + kube-controller-manager from Debian's source package into $CACHE, once per
# machine (a lock keeps two test runs from building at the same time).
ensure_binaries() {
  if [ -x "$CACHE/kube-apiserver" ] && [ -x "$CACHE/kube-controller-manager" ]; then return; fi
  as_root mkdir -p "$BUILD" "$(dirname "$CACHE")"
  exec 8>"$BUILD/.build.lock"
  log "waiting for the build lock $BUILD/.build.lock"
  flock 8
  # another build (this script elsewhere, or a hand-run one) may have filled the cache meanwhile
  while build_busy; do log "another kube-apiserver build is running; waiting"; sleep 15; done
  if [ -x "$CACHE/kube-apiserver" ] && [ -x "$CACHE/kube-controller-manager" ]; then flock -u 8; return; fi
  build_binaries
  flock -u 8
}

build_binaries() {
  local t0=$SECONDS
  local need=()
  command -v go >/dev/null || need+=(golang-go)
  command -v rsync >/dev/null || need+=(rsync)
  command -v dpkg-source >/dev/null || need+=(dpkg-dev)
  command -v make >/dev/null || need+=(make)
  [ -d "$REFLECT2" ] || need+=(golang-github-modern-go-reflect2-dev)
  if [ ${#need[@]} -gt 0 ]; then apt_install "${need[@]}"; fi
  local tree=$BUILD/src/k
  tree_prepared "$tree" || prepare_tree "$tree"
  log "building kube-apiserver and kube-controller-manager (about 7-10 min cold on 2 cores)"
  mkdir -p "$BUILD/home"
  (cd "$tree" && env GOPATH="$tree/.go" CGO_ENABLED=0 HOME="$BUILD/home" \
      make WHAT="cmd/kube-apiserver cmd/kube-controller-manager" >&2)
  local tmp
  tmp=$(mktemp -d "$(dirname "$CACHE")/.tmp.XXXXXX")
  cp "$tree/_output/bin/kube-apiserver" "$tree/_output/bin/kube-controller-manager" "$tmp/"
  chmod 755 "$tmp"
  rm -rf "$CACHE" && mv "$tmp" "$CACHE"
  log "built and cached in $CACHE after $((SECONDS - t0)) s"
}

REFLECT2=/usr/share/gocode/src/github.com/modern-go/reflect2

# A tree extracted before (by this script, or by hand with the same recipe) is built incrementally.
tree_prepared() {
  [ -f "$1/.benchplan-prepared" ] && return 0
  [ -L "$1/.go/src/k8s.io/kubernetes" ] && [ -f "$1/Makefile" ] \
    && diff -q "$REFLECT2/reflect2.go" "$1/vendor/github.com/modern-go/reflect2/reflect2.go" >/dev/null 2>&1
}

prepare_tree() {
  local tree=$1 src parts lists
  src=$(dirname "$tree"); parts=$BUILD/apt/parts; lists=$BUILD/apt/lists
  # deb-src through a private apt config: the mirror comes from the machine's own debian.sources
  [ -f /etc/apt/sources.list.d/debian.sources ] \
    || die "/etc/apt/sources.list.d/debian.sources is missing (needed to find the Debian mirror for deb-src)"
  mkdir -p "$parts" "$lists/partial" "$src"
  sed 's/^Types: deb$/Types: deb-src/' /etc/apt/sources.list.d/debian.sources > "$parts/debian-src.sources"
  local apt_opts=(-o Dir::Etc::SourceList=/dev/null -o "Dir::Etc::SourceParts=$parts" -o "Dir::State::Lists=$lists")
  log "fetching the kubernetes=$KUBE_DEB_VERSION source package"
  as_root apt-get "${apt_opts[@]}" update -qq
  (cd "$src" && apt-get "${apt_opts[@]}" source --download-only "kubernetes=$KUBE_DEB_VERSION" >&2)
  rm -rf "$tree"
  (cd "$src" && dpkg-source -x "kubernetes_${KUBE_DEB_VERSION}.dsc" "$(basename "$tree")" >&2)
  # The vendored reflect2 v1.0.1 crashes the apiserver (SIGSEGV in map iteration at the first
  # custom-resource create) under Go >= 1.18; Debian's 1.0.2 works.
  rm -rf "$tree/vendor/github.com/modern-go/reflect2"
  mkdir -p "$tree/vendor/github.com/modern-go/reflect2"
  cp "$REFLECT2"/*.go "$REFLECT2"/*.s "$tree/vendor/github.com/modern-go/reflect2/"
  # the Makefile wants the tree at $GOPATH/src/k8s.io/kubernetes
  mkdir -p "$tree/.go/src/k8s.io" && ln -sfn ../../.. "$tree/.go/src/k8s.io/kubernetes"
  touch "$tree/.benchplan-prepared"
}

# ---------------------------------------------------------------- processes

# A recorded process counts as ours only when both its PID and its kernel start time match, so a
# recycled PID never gets a signal from `down`.
proc_start_time() { [ -r "/proc/$1/stat" ] && sed -E 's/^.*\) //' "/proc/$1/stat" | cut -d' ' -f20; }

running_pid() { # component -> prints its pid when it is ours and alive
  local f=$STATE/run/$1.pid pid start
  [ -f "$f" ] || return 1
  read -r pid start < "$f" || return 1
  [ -n "$pid" ] && [ "$(proc_start_time "$pid" 2>/dev/null)" = "$start" ] || return 1
  echo "$pid"
}

launch() { # component logfile cmd...
  local name=$1 logf=$2; shift 2
  setsid "$@" > "$logf" 2>&1 < /dev/null 8>&- 9>&- &
  local pid=$!
  local start=""
  for _ in 1 2 3 4 5 6 7 8 9 10; do start=$(proc_start_time "$pid" 2>/dev/null || true); [ -n "$start" ] && break; sleep 0.05; done
  [ -n "$start" ] || die "$name exited at once; see $logf: $(tail -n 5 "$logf" 2>/dev/null)"
  echo "$pid $start" > "$STATE/run/$name.pid"
}

stop_component() {
  local name=$1 pid
  if pid=$(running_pid "$name"); then
    log "stopping $name (pid $pid)"
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 1 100); do running_pid "$name" >/dev/null || break; sleep 0.1; done
    if running_pid "$name" >/dev/null; then log "$name ignored SIGTERM; killing"; kill -KILL "$pid" 2>/dev/null || true; sleep 0.2; fi
    running_pid "$name" >/dev/null && die "$name (pid $pid) is still running"
  fi
  rm -f "$STATE/run/$name.pid"
}

port_free() { [ -z "$(ss -Htln "sport = :$1" 2>/dev/null)" ]; }

pick_port() { # preferred -> prints it when free, else a free port in 20000-29999
  local p=$1
  if port_free "$p"; then echo "$p"; return; fi
  for _ in $(seq 1 200); do p=$((20000 + RANDOM % 10000)); port_free "$p" && { echo "$p"; return; }; done
  die "no free loopback port found"
}

# ---------------------------------------------------------------- certificates, tokens, kubeconfigs

sign_cert() { # name subject san usage
  local d=$STATE/pki
  openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$d/$1.key" 2>/dev/null
  openssl req -new -key "$d/$1.key" -subj "$2" -out "$d/$1.csr" 2>/dev/null
  local ext="extendedKeyUsage=$4"
  [ -n "$3" ] && ext="subjectAltName=$3"$'\n'"$ext"
  openssl x509 -req -in "$d/$1.csr" -CA "$d/ca.crt" -CAkey "$d/ca.key" -CAcreateserial -days 3650 \
    -extfile <(printf '%s\n' "$ext") -out "$d/$1.crt" 2>/dev/null
  rm -f "$d/$1.csr"
}

# Generated once per state dir (kept across down/up, so a test's trust material stays valid).
ensure_credentials() {
  local d=$STATE/pki
  [ -f "$d/.complete" ] && return
  log "generating the CA, serving certificates, service-account keys and tokens in $d"
  rm -rf "$d" && mkdir -p "$d" && chmod 700 "$d"
  openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$d/ca.key" 2>/dev/null
  openssl req -x509 -new -key "$d/ca.key" -subj "/CN=benchplan-kube-test-env-ca" -days 3650 -out "$d/ca.crt" 2>/dev/null
  sign_cert apiserver "/CN=kube-apiserver" \
    "IP:127.0.0.1,IP:10.0.0.1,DNS:localhost,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc" serverAuth
  # the kubelet stand-in's serving cert: the apiserver verifies it against the CA (--kubelet-certificate-authority)
  sign_cert kubelet "/CN=benchplan-fake-kubelet" "IP:127.0.0.1" serverAuth
  # the apiserver's client cert towards kubelets; the stand-in requires it
  sign_cert apiserver-kubelet-client "/O=system:masters/CN=kube-apiserver-kubelet-client" "" clientAuth
  openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$d/sa.key" 2>/dev/null
  openssl pkey -in "$d/sa.key" -pubout -out "$d/sa.pub" 2>/dev/null
  # static tokens: admin (system:masters), the controller-manager, and a user with no rights at all
  # (tests grant it a namespaced Role to prove the tool works with namespaced permissions)
  local admin kcm user
  admin=$(openssl rand -hex 16); kcm=$(openssl rand -hex 16); user=$(openssl rand -hex 16)
  {
    echo "$admin,benchplan-admin,benchplan-admin-uid,system:masters"
    echo "$kcm,system:kube-controller-manager,kcm-uid,system:masters"
    echo "$user,benchplan-user,benchplan-user-uid,benchplan-users"
  } > "$d/tokens.csv"
  printf '%s\n' "$admin" > "$d/admin.token"; printf '%s\n' "$kcm" > "$d/kcm.token"; printf '%s\n' "$user" > "$d/user.token"
  chmod 600 "$d"/*.key "$d"/*.token "$d/tokens.csv"
  touch "$d/.complete"
}

write_kubeconfig() { # file token user
  local ca
  ca=$(base64 -w0 < "$STATE/pki/ca.crt")
  local tmp=$1.tmp
  cat > "$tmp" <<EOF
apiVersion: v1
kind: Config
clusters:
- name: benchplan-test
  cluster:
    server: https://127.0.0.1:$API_PORT
    certificate-authority-data: $ca
users:
- name: $3
  user:
    token: $2
contexts:
- name: benchplan-test
  context: {cluster: benchplan-test, user: $3, namespace: default}
current-context: benchplan-test
EOF
  chmod 600 "$tmp" && mv "$tmp" "$1"
}

# ---------------------------------------------------------------- apiserver access + the DGD CRD

api() { # method path [curl args...] -> body on stdout, HTTP code in $HTTP_CODE_FILE
  local method=$1 path=$2; shift 2
  curl -sS --cacert "$STATE/pki/ca.crt" -H "Authorization: Bearer $(cat "$STATE/pki/admin.token")" \
    -X "$method" "https://127.0.0.1:$API_PORT$path" "$@"
}

wait_ready() {
  local t0=$SECONDS
  for _ in $(seq 1 240); do
    if [ "$(api GET /readyz -o /dev/null -w '%{http_code}' 2>/dev/null)" = 200 ]; then
      log "kube-apiserver ready after $((SECONDS - t0)) s"; return 0
    fi
    running_pid etcd >/dev/null || die "etcd exited; see $STATE/log/etcd.log: $(tail -n 5 "$STATE/log/etcd.log")"
    running_pid kube-apiserver >/dev/null || die "kube-apiserver exited; see $STATE/log/kube-apiserver.log: $(tail -n 5 "$STATE/log/kube-apiserver.log")"
    sleep 0.25
  done
  die "kube-apiserver not ready after 60 s; see $STATE/log/kube-apiserver.log"
}

crd_source() {
  case "$DGD_CRD" in
    v0.9.0) echo "$SHARED_DATA/dynamo/v0.9.0/deploy/helm/charts/crds/templates/nvidia.com_dynamographdeployments.yaml" ;;
    2026-08) echo "$SHARED_DATA/dynamo/main-2026-08-21/deploy/operator/config/crd/bases/nvidia.com_dynamographdeployments.yaml" ;;
    *) die "BENCHPLAN_KUBE_DGD_CRD must be v0.9.0, 2026-08 or none, got '$DGD_CRD'" ;;
  esac
}

# The 1.20 apiserver rejects the real CRD as published: it refuses `default: ""` (46 of them in
# v0.9.0), and lists marked `x-kubernetes-list-type: map` need defaults on their keys. Dropping the
# empty-string defaults and making those lists `atomic` gets it Established while types and enums
# stay enforced. Applied here, to the file read from ../shared/data; no copy lives in the project.
crd_json_for_1_20() {
  "$(python_with_yaml)" - "$1" <<'PY'
import json, sys, yaml
docs = [d for d in yaml.safe_load_all(open(sys.argv[1])) if d]
crd = next(d for d in docs if d.get("kind") == "CustomResourceDefinition")
def walk(n):
    if isinstance(n, dict):
        if n.get("default") == "":
            del n["default"]
        if n.get("x-kubernetes-list-type") == "map":
            n["x-kubernetes-list-type"] = "atomic"
            n.pop("x-kubernetes-list-map-keys", None)
        for v in n.values():
            walk(v)
    elif isinstance(n, list):
        for v in n:
            walk(v)
walk(crd)
for key in ("annotations", "labels"):  # server-side bookkeeping of the source repo is not needed
    crd["metadata"].pop(key, None)
json.dump(crd, sys.stdout)
PY
}

install_dgd_crd() {
  [ "$DGD_CRD" = none ] && return
  local file name code
  file=$(crd_source)
  if [ ! -f "$file" ]; then
    log "warning: $file is absent (../shared/data missing?); the DGD CRD is not installed"
    return
  fi
  name=dynamographdeployments.nvidia.com
  code=$(api GET "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/$name" -o /dev/null -w '%{http_code}')
  if [ "$code" != 200 ]; then
    log "installing the DGD CRD ($DGD_CRD) from $file"
    crd_json_for_1_20 "$file" > "$STATE/dgd-crd.json"
    code=$(api POST /apis/apiextensions.k8s.io/v1/customresourcedefinitions -H 'Content-Type: application/json' \
      --data-binary "@$STATE/dgd-crd.json" -o "$STATE/dgd-crd.response.json" -w '%{http_code}')
    [ "$code" = 201 ] || [ "$code" = 409 ] || die "the apiserver refused the DGD CRD ($DGD_CRD, HTTP $code): $(jq -r .message "$STATE/dgd-crd.response.json" 2>/dev/null | head -c 2000)"
  fi
  for _ in $(seq 1 120); do
    if api GET "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/$name" \
        | jq -e '.status.conditions[]? | select(.type == "Established" and .status == "True")' >/dev/null; then
      log "DGD CRD established"; echo "$DGD_CRD" > "$STATE/run/dgd-crd"; return 0
    fi
    sleep 0.25
  done
  die "the DGD CRD did not become Established within 30 s"
}

# ---------------------------------------------------------------- commands

# Every controller a namespace's life needs, except PVC binding (no provisioner: the fake kubelet
# runs pods whatever their claims' phase) and the node lifecycle (the fake kubelet's nodes post no
# heartbeats). pvc-protection drops the kubernetes.io/pvc-protection finalizer of a deleted claim
# once no scheduled pod uses it, so a namespace holding a PVC goes.
start_controller_manager() {
  local pki=$STATE/pki
  launch kube-controller-manager "$STATE/log/kube-controller-manager.log" "$CACHE/kube-controller-manager" \
    --kubeconfig="$STATE/run/kcm.kubeconfig" --bind-address=127.0.0.1 --port=0 --secure-port=0 --leader-elect=false \
    --controllers="$KCM_CONTROLLERS" --use-service-account-credentials=false \
    --service-account-private-key-file="$pki/sa.key" --root-ca-file="$pki/ca.crt" \
    --feature-gates=TTLAfterFinished=true --profiling=false
  echo "$KCM_CONTROLLERS" > "$STATE/run/kcm-controllers"
}


load_ports() { [ -f "$STATE/run/ports.env" ] && . "$STATE/run/ports.env"; }

all_running() { local c; for c in "${COMPONENTS[@]}"; do running_pid "$c" >/dev/null || return 1; done; }

cmd_up() {
  mkdir -p "$STATE/run" "$STATE/log"
  exec 9>"$STATE/run/.lock"
  flock 9
  ensure_runtime_packages
  load_ports || true
  if all_running && [ -n "${API_PORT:-}" ] && [ "$(api GET /readyz -o /dev/null -w '%{http_code}' 2>/dev/null)" = 200 ]; then
    log "already up (apiserver https://127.0.0.1:$API_PORT)"
    # an environment started by an older version of this script runs fewer controllers
    if [ "$(cat "$STATE/run/kcm-controllers" 2>/dev/null)" != "$KCM_CONTROLLERS" ]; then
      log "restarting kube-controller-manager with the controllers $KCM_CONTROLLERS"
      stop_component kube-controller-manager
      start_controller_manager
    fi
    install_dgd_crd
    return 0
  fi
  # half-up (a crash, a killed test run): start over from a clean slate
  local c
  for c in kube-controller-manager kube-apiserver etcd; do stop_component "$c"; done
  local t0=$SECONDS
  ensure_binaries
  ensure_credentials
  ETCD_PORT=$(pick_port 2379); ETCD_PEER_PORT=$(pick_port 2380); API_PORT=$(pick_port 6443)
  [ "$ETCD_PEER_PORT" != "$ETCD_PORT" ] || ETCD_PEER_PORT=$(pick_port 2381)
  printf 'ETCD_PORT=%s\nETCD_PEER_PORT=%s\nAPI_PORT=%s\n' "$ETCD_PORT" "$ETCD_PEER_PORT" "$API_PORT" > "$STATE/run/ports.env"
  local pki=$STATE/pki
  rm -rf "$STATE/etcd-data"
  launch etcd "$STATE/log/etcd.log" etcd --name benchplan --data-dir "$STATE/etcd-data" \
    --listen-client-urls "http://127.0.0.1:$ETCD_PORT" --advertise-client-urls "http://127.0.0.1:$ETCD_PORT" \
    --listen-peer-urls "http://127.0.0.1:$ETCD_PEER_PORT" --initial-advertise-peer-urls "http://127.0.0.1:$ETCD_PEER_PORT" \
    --initial-cluster "benchplan=http://127.0.0.1:$ETCD_PEER_PORT"
  # TaintNodesByCondition would put a not-ready taint on every new Node that no node-lifecycle
  # controller ever lifts: off. ServiceAccount admission is off too, although the serviceaccount and
  # token controllers run: in 1.20 it refuses every pod of a fresh namespace until the token
  # controller has written the `default` account's secret (a race the tests' own pods would lose),
  # and benchplan's pods set automountServiceAccountToken: false and name no account, so it would
  # check nothing of ours.
  # audit: every request at Metadata level (verb, resource, namespace, user), for the tests that
  # compare the calls benchplan makes with its table (issue 19); the log lives with the state
  cat > "$STATE/run/audit-policy.yaml" <<'POLICY'
apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: ["RequestReceived"]
rules:
- level: Metadata
POLICY
  : > "$STATE/log/audit.log"
  launch kube-apiserver "$STATE/log/kube-apiserver.log" "$CACHE/kube-apiserver" \
    --audit-policy-file="$STATE/run/audit-policy.yaml" --audit-log-path="$STATE/log/audit.log" \
    --audit-log-format=json --audit-log-maxsize=200 --audit-log-maxbackup=1 \
    --etcd-servers="http://127.0.0.1:$ETCD_PORT" --bind-address=127.0.0.1 --advertise-address=127.0.0.1 \
    --secure-port="$API_PORT" --insecure-port=0 --cert-dir="$STATE/apiserver-certs" \
    --tls-cert-file="$pki/apiserver.crt" --tls-private-key-file="$pki/apiserver.key" --client-ca-file="$pki/ca.crt" \
    --token-auth-file="$pki/tokens.csv" --authorization-mode=RBAC \
    --service-account-issuer=https://kubernetes.default.svc --service-account-key-file="$pki/sa.pub" \
    --service-account-signing-key-file="$pki/sa.key" --service-cluster-ip-range=10.0.0.0/24 --allow-privileged=true \
    --disable-admission-plugins=ServiceAccount,TaintNodesByCondition --enable-priority-and-fairness=false \
    --kubelet-certificate-authority="$pki/ca.crt" --kubelet-client-certificate="$pki/apiserver-kubelet-client.crt" \
    --kubelet-client-key="$pki/apiserver-kubelet-client.key" --kubelet-preferred-address-types=InternalIP \
    --feature-gates=TTLAfterFinished=true --profiling=false
  write_kubeconfig "$STATE/kubeconfig" "$(cat "$pki/admin.token")" benchplan-admin
  write_kubeconfig "$STATE/user.kubeconfig" "$(cat "$pki/user.token")" benchplan-user
  write_kubeconfig "$STATE/run/kcm.kubeconfig" "$(cat "$pki/kcm.token")" kube-controller-manager
  wait_ready
  start_controller_manager
  install_dgd_crd
  all_running || die "a component exited during start-up; logs in $STATE/log"
  log "up in $((SECONDS - t0)) s: apiserver https://127.0.0.1:$API_PORT, etcd 127.0.0.1:$ETCD_PORT; eval \"\$($0 env)\""
}

cmd_down() {
  mkdir -p "$STATE/run"
  exec 9>"$STATE/run/.lock"
  flock 9
  local c
  for c in kube-controller-manager kube-apiserver etcd; do stop_component "$c"; done
  rm -rf "$STATE/etcd-data" "$STATE/run/ports.env" "$STATE/run/dgd-crd" "$STATE/run/kcm-controllers"
  log "down"
}

cmd_status() {
  load_ports || true
  local c pid rc=0
  for c in "${COMPONENTS[@]}"; do
    if pid=$(running_pid "$c"); then echo "$c running pid=$pid"; else echo "$c stopped"; rc=1; fi
  done
  if [ $rc = 0 ]; then
    if [ "$(api GET /readyz -o /dev/null -w '%{http_code}' 2>/dev/null)" = 200 ]; then
      echo "apiserver ready https://127.0.0.1:$API_PORT"
    else
      echo "apiserver not ready"; rc=1
    fi
    echo "dgd-crd $(cat "$STATE/run/dgd-crd" 2>/dev/null || echo none)"
  fi
  return $rc
}

cmd_env() {
  load_ports || die "not up (no $STATE/run/ports.env); run: $0 up"
  all_running || die "not running; run: $0 up"
  cat <<EOF
export KUBECONFIG=$STATE/kubeconfig
export BENCHPLAN_KUBE_STATE=$STATE
export BENCHPLAN_KUBE_API_URL=https://127.0.0.1:$API_PORT
export BENCHPLAN_KUBE_USER_KUBECONFIG=$STATE/user.kubeconfig
export BENCHPLAN_KUBE_AUDIT_LOG=$STATE/log/audit.log
export BENCHPLAN_KUBE_CA_CERT=$STATE/pki/ca.crt
export BENCHPLAN_KUBE_KUBELET_CERT=$STATE/pki/kubelet.crt
export BENCHPLAN_KUBE_KUBELET_KEY=$STATE/pki/kubelet.key
EOF
}

case "${1:-}" in
  up) cmd_up ;;
  down) cmd_down ;;
  build) ensure_binaries; echo "$CACHE" ;;
  status) cmd_status ;;
  env) cmd_env ;;
  *) echo "usage: $0 up|down|status|env|build" >&2; exit 2 ;;
esac
