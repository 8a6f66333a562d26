#!/usr/bin/env bash
# Run before `npm test` (pretest): the Debian packages some tests use, installed with apt-get when they
# are missing and we may (CI runs as root on a clean Debian); quiet unless it fails.
#  - test/cli/arm64.test.ts runs the 64-bit ARM executable under qemu user-mode emulation, with the arm64
#    C and C++ runtimes from Debian's cross packages (an arm64 machine runs it itself);
#  - test/cli/https.test.ts makes a self-signed certificate with openssl.
set -uo pipefail

PACKAGES=()
command -v openssl >/dev/null || PACKAGES+=(openssl)
if [ "$(uname -m)" != aarch64 ]; then
  { command -v qemu-aarch64-static || command -v qemu-aarch64; } >/dev/null || PACKAGES+=(qemu-user-static)
  [ -e /usr/aarch64-linux-gnu/lib/ld-linux-aarch64.so.1 ] || PACKAGES+=(libc6-arm64-cross)
  [ -e /usr/aarch64-linux-gnu/lib/libstdc++.so.6 ] || PACKAGES+=(libstdc++6-arm64-cross)
  [ -e /usr/aarch64-linux-gnu/lib/libgcc_s.so.1 ] || PACKAGES+=(libgcc-s1-arm64-cross)
fi
[ ${#PACKAGES[@]} = 0 ] && exit 0

if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
  echo "Some tests need Debian packages that are missing: run 'sudo apt-get install ${PACKAGES[*]}' (Debian/Ubuntu)." >&2
  exit 1
fi

echo "Installing ${PACKAGES[*]} for the tests..."
log=$(mktemp)
trap 'rm -f "$log"' EXIT
export DEBIAN_FRONTEND=noninteractive
apt_get() { apt-get -qq -o Dpkg::Use-Pty=0 -o DPkg::Lock::Timeout=300 "$@" >>"$log" 2>&1; }
for attempt in 1 2 3; do
  # the package lists of a fresh machine are empty, and a mirror may hiccup: update, install, retry
  if apt_get update && apt_get install -y --no-install-recommends "${PACKAGES[@]}"; then
    exit 0
  fi
  echo "apt-get failed (attempt $attempt of 3)" >&2
  sleep $((attempt * 5))
done
tail -n 30 "$log" >&2
echo "Could not install ${PACKAGES[*]}." >&2
exit 1
