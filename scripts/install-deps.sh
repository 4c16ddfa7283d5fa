#!/usr/bin/env bash
# Installs the system packages Tandem needs on Debian 12 / Ubuntu 24.04, only those missing.
# Safe to re-run. Uses sudo when not root. Set TANDEM_NO_GUI=1 to skip the GUI-only packages.
set -euo pipefail

packages=(g++ cmake ninja-build ccache pkg-config libeigen3-dev nlohmann-json3-dev qt6-base-dev)
if [ "${TANDEM_NO_GUI:-0}" != "1" ]; then
  # Debian 12's qt6-charts-dev does not pull in libqt6opengl6-dev, without which CMake cannot
  # find Qt6Charts; name it explicitly.
  packages+=(qt6-charts-dev libqt6opengl6-dev qt6-svg-dev libgl-dev)
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "[tandem] system packages: all present"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "[tandem] need root or sudo to install: ${missing[*]}" >&2
    exit 1
  fi
fi
echo "[tandem] installing: ${missing[*]}"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
echo "[tandem] system packages installed"
