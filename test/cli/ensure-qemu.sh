#!/usr/bin/env bash
# Run before `npm test` (pretest): test/cli/arm64.test.ts runs the 64-bit ARM executable under Debian's
# qemu user-mode emulation, with the arm64 C and C++ runtimes from Debian's cross packages. Installs them
# with apt-get when they are missing and we may (CI runs as root on a clean Debian); quiet unless it fails.
set -uo pipefail
[ "$(uname -m)" = aarch64 ] && exit 0 # an arm64 machine runs the executable itself

PACKAGES=(qemu-user-static libc6-arm64-cross libstdc++6-arm64-cross libgcc-s1-arm64-cross)
have() {
  { command -v qemu-aarch64-static || command -v qemu-aarch64; } >/dev/null &&
    [ -e /usr/aarch64-linux-gnu/lib/ld-linux-aarch64.so.1 ] &&
    [ -e /usr/aarch64-linux-gnu/lib/libstdc++.so.6 ] &&
    [ -e /usr/aarch64-linux-gnu/lib/libgcc_s.so.1 ]
}
have && exit 0

if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
  echo "The arm64 executable test needs qemu and arm64's runtime libraries: run 'sudo apt-get install ${PACKAGES[*]}' (Debian/Ubuntu)." >&2
  exit 1
fi

echo "Installing ${PACKAGES[*]} for the arm64 executable test..."
log=$(mktemp)
trap 'rm -f "$log"' EXIT
export DEBIAN_FRONTEND=noninteractive
apt_get() { apt-get -qq -o Dpkg::Use-Pty=0 -o DPkg::Lock::Timeout=300 "$@" >>"$log" 2>&1; }
for attempt in 1 2 3; do
  # the package lists of a fresh machine are empty, and a mirror may hiccup: update, install, retry
  if apt_get update && apt_get install -y --no-install-recommends "${PACKAGES[@]}" && have; then
    exit 0
  fi
  echo "apt-get failed (attempt $attempt of 3)" >&2
  sleep $((attempt * 5))
done
tail -n 30 "$log" >&2
echo "Could not install ${PACKAGES[*]}." >&2
exit 1
