#!/usr/bin/env bash
# Configures and builds Tandem (Release) into ./build. Safe to re-run (incremental).
#   scripts/build.sh              everything: the GUI, tandem-cli and every test group
#   scripts/build.sh TARGET...    only those targets and what they link (run.sh: tandem)
# Prints the build's wall time.
set -euo pipefail
cd "$(dirname "$0")/.."
# ccache (CMakeLists.txt uses it when installed) keys on paths relative to this folder, so builds
# of clones at different paths share the cache.
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$PWD}
"./scripts/install-deps.sh"
generator=()
command -v ninja >/dev/null 2>&1 && generator=(-G Ninja)
if [ ! -f build/CMakeCache.txt ]; then
  echo "[tandem] configuring build/ (Release)"
  # CI builds with warnings as errors (TANDEM_WERROR); a local build only reports them.
  werror=()
  [ "${CI:-}" = "true" ] && werror=(-DTANDEM_WERROR=ON)
  cmake -S . -B build "${generator[@]}" -DCMAKE_BUILD_TYPE=Release "${werror[@]}"
fi
targets=()
for t in "$@"; do targets+=(--target "$t"); done
echo "[tandem] building ${*:-everything} with $(nproc) job(s)"
t0=$SECONDS
cmake --build build --parallel "$(nproc)" "${targets[@]}"
echo "[tandem] built in $((SECONDS - t0)) s"
