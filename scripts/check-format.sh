#!/usr/bin/env bash
# Checks that every tracked C++ file (git ls-files '*.cpp' '*.h') is formatted as .clang-format
# says, with clang-format 14 (--dry-run --Werror): prints the files that are not and exits 1 when
# there is any; 0 when all are formatted; 2 when clang-format 14 or git is not available.
# clang-format 14 is /usr/bin/clang-format-14, else clang-format-14 or clang-format on PATH when it
# is version 14; when none is found and the script runs as root it installs the Debian package
# clang-format-14 with apt-get.
#
#   scripts/check-format.sh             # the whole tree
#   scripts/check-format.sh FILE...     # only these files
#
# Fix a file with `clang-format-14 -i FILE`, or only the lines a change touched with
# `git diff -U0 --no-color -- '*.cpp' '*.h' | clang-format-diff-14 -p1 -i`.
set -uo pipefail
cd "$(dirname "$0")/.."

note() { echo "[format] $*"; }

find_clang_format() {  # prints the path of a clang-format 14
  local c path
  for c in /usr/bin/clang-format-14 clang-format-14 clang-format; do
    path=$(command -v "$c" 2>/dev/null) || continue
    if "$path" --version 2>/dev/null | grep -q 'version 14\.'; then
      echo "$path"
      return 0
    fi
  done
  return 1
}

cf=$(find_clang_format)
if [ -z "$cf" ]; then
  if [ "$(id -u)" -ne 0 ]; then
    note "clang-format 14 not found (not root, so not installing it): apt-get install clang-format-14"
    exit 2
  fi
  note "clang-format 14 not found; installing clang-format-14"
  apt-get update -qq &&
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends clang-format-14 >/dev/null ||
    { note "apt-get install clang-format-14 failed"; exit 2; }
  cf=$(find_clang_format) || { note "clang-format-14 installed but not found"; exit 2; }
fi

if [ $# -gt 0 ]; then
  files=("$@")
else
  mapfile -t files < <(git ls-files -- '*.cpp' '*.h') ||
    { note "git ls-files failed: run this in a git checkout"; exit 2; }
  [ ${#files[@]} -gt 0 ] || { note "git ls-files lists no *.cpp or *.h file"; exit 2; }
fi

bad=()
for f in "${files[@]}"; do
  "$cf" --dry-run --Werror --style=file "$f" >/dev/null 2>&1 || bad+=("$f")
done

if [ ${#bad[@]} -gt 0 ]; then
  note "${#bad[@]} of ${#files[@]} files are not formatted as .clang-format says ($("$cf" --version | head -1)):"
  printf '  %s\n' "${bad[@]}"
  note "fix a file with: $cf -i FILE"
  exit 1
fi
note "all ${#files[@]} files are formatted ($("$cf" --version | head -1))"
