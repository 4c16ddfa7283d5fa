#!/usr/bin/env bash
# Runs clang-tidy 14 with the checks of .clang-tidy (bugprone) over every *.cpp of core/ and
# fileio/ and exits 1 on any finding, 0 when there is none, 2 when clang-tidy 14 is missing and
# cannot be installed (apt-get, as root). It configures its own compile database in
# ${TANDEM_TIDY_BUILD:-build-tidy} (no precompiled headers, nothing built: the engine has no
# generated headers) and runs one clang-tidy per core, about 4 minutes on 2 cores.
set -uo pipefail
cd "$(dirname "$0")/.."
note() { echo "[tidy] $*"; }

# shellcheck source=scripts/llvm-tool.sh
. scripts/llvm-tool.sh
tidy=$(llvm_tool_14 clang-tidy) || exit 2

dir=${TANDEM_TIDY_BUILD:-build-tidy}
cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_EXPORT_COMPILE_COMMANDS=ON \
  -DTANDEM_PCH=OFF >/dev/null || { note "cmake configure of $dir failed"; exit 2; }

mapfile -t files < <(git ls-files -- 'core/*.cpp' 'fileio/*.cpp')
[ ${#files[@]} -gt 0 ] || { note "git ls-files lists no core/ or fileio/ source"; exit 2; }
out=$(mktemp) || exit 2
trap 'rm -f "$out"' EXIT
printf '%s\0' "${files[@]}" |
  xargs -0 -P "$(nproc)" -n 4 "$tidy" -p "$dir" --quiet >"$out" 2>/dev/null
found=$(grep -cE '(warning|error): ' "$out")
if [ "$found" -gt 0 ]; then
  grep -E '(warning|error): ' "$out" | sort -u
  note "$found findings in ${#files[@]} files ($("$tidy" --version | grep -o 'version [0-9.]*'))"
  exit 1
fi
note "no finding in ${#files[@]} files"
