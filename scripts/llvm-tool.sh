# Sourced by scripts/check-format.sh and scripts/ci-tidy.sh: llvm_tool_14 NAME prints the path of
# NAME version 14 (/usr/bin/NAME-14, NAME-14 or NAME on PATH), installing the Debian package
# NAME-14 with apt-get when it is missing and this runs as root. Messages go through the caller's
# `note`. Returns 0 with the path, 2 when the tool is missing and cannot be installed.
llvm_tool_14_find() {
  local c path
  for c in "/usr/bin/$1-14" "$1-14" "$1"; do
    path=$(command -v "$c" 2>/dev/null) || continue
    if "$path" --version 2>/dev/null | grep -q 'version 14\.'; then
      echo "$path"
      return 0
    fi
  done
  return 1
}

llvm_tool_14() {
  local name=$1 path
  path=$(llvm_tool_14_find "$name") && { echo "$path"; return 0; }
  if [ "$(id -u)" -ne 0 ]; then
    note "$name 14 not found (not root, so not installing it): apt-get install $name-14" >&2
    return 2
  fi
  note "$name 14 not found; installing $name-14" >&2
  apt-get update -qq >&2 &&
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$name-14" >/dev/null ||
    { note "apt-get install $name-14 failed" >&2; return 2; }
  path=$(llvm_tool_14_find "$name") || { note "$name-14 installed but not found" >&2; return 2; }
  echo "$path"
}
