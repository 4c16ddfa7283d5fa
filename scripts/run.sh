#!/usr/bin/env bash
# Builds the GUI (only the tandem executable and what it links) if needed, then starts it on the
# default scenario.
# Extra arguments go to the GUI (e.g. a scenario file: scripts/run.sh examples/mosaic-fig1.json).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/build.sh tandem
echo "[tandem] starting build/app/gui/tandem $*"
exec ./build/app/gui/tandem "$@"
