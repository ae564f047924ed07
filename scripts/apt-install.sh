#!/usr/bin/env bash
# bash scripts/apt-install.sh PACKAGE...: apt-get update and install, for scripts/setup.sh.
#
# On a fresh machine another process (unattended-upgrades, cloud-init) may hold the dpkg or apt
# lists lock for minutes: each apt-get waits for the lock up to APT_LOCK_TIMEOUT seconds
# (default 300, -o DPkg::Lock::Timeout: dpkg's lock, which unattended-upgrades holds longest), and a
# failed run (the lists lock of an `apt-get update` elsewhere, a mirror's hiccup) is retried: 3
# runs in all, APT_RETRY_SECONDS (default 30) and twice that apart.
set -uo pipefail
[ $# -gt 0 ] || { echo "usage: bash scripts/apt-install.sh PACKAGE..." >&2; exit 2; }
SUDO=()
if [ "$(id -u)" != 0 ] && command -v sudo >/dev/null 2>&1; then SUDO=(sudo); fi
lock=(-o "DPkg::Lock::Timeout=${APT_LOCK_TIMEOUT:-300}")
for attempt in 1 2 3; do
  if "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get "${lock[@]}" update &&
    "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get "${lock[@]}" install -y --no-install-recommends "$@"; then
    exit 0
  fi
  [ "$attempt" = 3 ] && break
  wait_s=$((attempt * ${APT_RETRY_SECONDS:-30}))
  echo "apt-install: apt-get failed (run $attempt of 3): retrying in $wait_s s" >&2
  sleep "$wait_s"
done
echo "apt-install: apt-get failed 3 times: $*" >&2
exit 1
