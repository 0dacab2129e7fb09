#!/usr/bin/env bash
# Install Debian's Chromium and the fonts that box sizes depend on.
# Called by `make` only when no Chromium is found; the library never installs.
set -euo pipefail
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "visx: no Chromium found and not root (no sudo): install chromium, fonts-liberation and fonts-dejavu-core, or set VISX_CHROMIUM" >&2
    exit 1
  fi
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "visx: no Chromium found and no apt-get here: install Chromium and set VISX_CHROMIUM to its binary" >&2
  exit 1
fi
echo "visx: installing Debian's chromium and fonts with apt-get (no recommends)" >&2
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends chromium fonts-liberation fonts-dejavu-core >/dev/null
