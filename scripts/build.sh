#!/usr/bin/env bash
# Configures and builds Tandem (Release) into ./build. Safe to re-run (incremental).
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
  cmake -S . -B build "${generator[@]}" -DCMAKE_BUILD_TYPE=Release "${werror[@]}" "$@"
fi
echo "[tandem] building with $(nproc) job(s)"
cmake --build build --parallel "$(nproc)"
