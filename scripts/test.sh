#!/usr/bin/env bash
# Builds Tandem if needed, then runs every test suite (GUI suites offscreen).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/build.sh
echo "[tandem] running tests: ctest --test-dir build"
export QT_QPA_PLATFORM=offscreen
ctest --test-dir build --output-on-failure --timeout 900 -j "$(nproc)"
