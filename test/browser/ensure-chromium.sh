#!/usr/bin/env bash
# Run before `npm test` (pretest): the browser test drives Debian's Chromium through playwright-core
# (never a downloaded browser). Installs it with apt-get when it is missing and we may.
set -euo pipefail
[ -x /usr/bin/chromium ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "Installing Debian's chromium for the browser test..."
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium >/dev/null
  exit 0
fi
echo "The browser test needs Chromium at /usr/bin/chromium: run 'sudo apt-get install chromium' (Debian/Ubuntu)." >&2
exit 1
