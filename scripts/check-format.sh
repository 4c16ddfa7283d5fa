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

# shellcheck source=scripts/llvm-tool.sh
. scripts/llvm-tool.sh
cf=$(llvm_tool_14 clang-format) || exit 2

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
