#!/usr/bin/env bash
# The kubelet stand-in's container runtime for the real-engine tier (dev.benchplan.kubetest.ChrootContainer):
# runs one container's command + args, unchanged, inside the AIPerf chroot (scripts/aiperf-test-env.sh),
# with the pod's volumes mounted at the container's own mount paths.
#
#   unshare --mount --propagation private chroot-container.sh ROOT MOUNTS HOSTS WORKDIR -- COMMAND...
#
# Must run in a private mount namespace (unshare above): every mount made here vanishes with the
# container's last process and is never seen by the host or another pod.
#   ROOT     the chroot (the "image")
#   MOUNTS   a file of lines LOCAL_DIR<TAB>MOUNT_PATH<TAB>ro|rw: each bound at MOUNT_PATH inside ROOT
#   HOSTS    the pod's /etc/hosts (the Services' names; the kubelet writes it, as a real one does)
#   WORKDIR  the container's working directory
# The environment is the container's, plus KUBELET_CONTAINER_PATH: the PATH the container runs with
# (this script's own PATH is the host's).
set -euo pipefail
root="$1" mounts="$2" hosts="$3" workdir="$4"
shift 4
[ "${1:-}" = "--" ] && shift
[ -d "$root/usr/bin" ] || { echo "chroot-container: $root is not a root file system" >&2; exit 126; }

mount -t proc proc "$root/proc"
mount --bind /dev "$root/dev"
mount -t tmpfs -o mode=1777 shm "$root/dev/shm"
# a container's own /tmp (AIPerf's services talk over sockets there)
mount -t tmpfs -o mode=1777 tmp "$root/tmp"
mount --bind "$hosts" "$root/etc/hosts"
while IFS=$'\t' read -r local target mode; do
  [ -n "$local" ] || continue
  mkdir -p "$root$target"
  mount --bind "$local" "$root$target"
  if [ "$mode" = ro ]; then mount -o remount,bind,ro "$root$target"; fi
done < "$mounts"

path="${KUBELET_CONTAINER_PATH:-/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin}"
exec chroot "$root" /usr/bin/env -u KUBELET_CONTAINER_PATH -C "$workdir" PATH="$path" "$@"
