#!/usr/bin/env bash
# Runs clang-tidy 14 with the checks of .clang-tidy (bugprone) over every *.cpp of core/ and
# fileio/ and exits 1 on any finding, 0 when there is none, 2 when clang-tidy 14 is missing and
# cannot be installed (apt-get, as root). It configures its own compile database in
# ${TANDEM_TIDY_BUILD:-build-tidy} (no precompiled headers, nothing built: the engine has no
# generated headers) and runs one clang-tidy per core, about 4 minutes on 2 cores.
set -uo pipefail
cd "$(dirname "$0")/.."
note() { echo "[tidy] $*"; }

find_tidy() {
  local c path
  for c in /usr/bin/clang-tidy-14 clang-tidy-14 clang-tidy; do
    path=$(command -v "$c" 2>/dev/null) || continue
    if "$path" --version 2>/dev/null | grep -q 'version 14\.'; then
      echo "$path"
      return 0
    fi
  done
  return 1
}

tidy=$(find_tidy)
if [ -z "$tidy" ]; then
  if [ "$(id -u)" -ne 0 ]; then
    note "clang-tidy 14 not found (not root, so not installing it): apt-get install clang-tidy-14"
    exit 2
  fi
  note "clang-tidy 14 not found; installing clang-tidy-14"
  apt-get update -qq &&
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends clang-tidy-14 >/dev/null ||
    { note "apt-get install clang-tidy-14 failed"; exit 2; }
  tidy=$(find_tidy) || { note "clang-tidy-14 installed but not found"; exit 2; }
fi

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
