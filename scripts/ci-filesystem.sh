#!/usr/bin/env bash
# CI stage: every writer of tandem-cli and tandem on hostile targets, from the outside.
#   full-disk  a 1 MiB tmpfs filled to the last byte: run --out DIR, sweep --out, merge --out,
#              tandem --write-default-scenario, --screenshot, --export-charts each exit 1 with
#              the file and "no space left on device" on stderr, the previous file (or run
#              folder) byte for byte intact and nothing new on the disk; run --out and
#              --export-charts also into a folder that does not exist yet, which they must not
#              leave behind
#   nodes      a character device with /dev/null's numbers (mknod 1 3) and a FIFO in a temp
#              folder as the target of every writer: each exits 2 saying "not a regular file",
#              the node is still there and of its kind, and nothing blocks (no reader on the FIFO);
#              --export-charts DIR naming a device, FIFO or file exits 2 saying "not a folder"
# Then the QtTest suites of the same classes (tst_output_files, tst_gui_output_files), whose
# tmpfs and mknod rows run only as root. Needs root for mount and mknod (CI runs as root); as
# another user the root-only parts are skipped with a message and the FIFO checks still run.
# Every command runs under `timeout`; the whole stage takes well under a minute.
#
#   scripts/ci-filesystem.sh [BUILD_DIR]     (default: build, as scripts/test.sh builds it)
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
build=${1:-build}
cli=$build/app/cli/tandem-cli
gui=$build/app/gui/tandem
export QT_QPA_PLATFORM=offscreen
[ -x "$cli" ] || { echo "[fs] $cli not built (run scripts/build.sh first)"; exit 1; }
have_gui=0
[ -x "$gui" ] && have_gui=1
is_root=0
[ "$(id -u)" = 0 ] && is_root=1

work=$(mktemp -d)
disk=$work/disk
cleanup() {
  mountpoint -q "$disk" 2>/dev/null && umount -l "$disk"
  rm -rf "$work"
}
trap cleanup EXIT

failures=0
checks=0
pass() { checks=$((checks + 1)); echo "[fs] PASS $1"; }
fail() { checks=$((checks + 1)); failures=$((failures + 1)); echo "[fs] FAIL $1"; [ -n "${2:-}" ] && sed 's/^/[fs]      /' "$2"; }

cat > "$work/s.json" <<'EOF'
{"mosaic": {"nodes": 2, "q_values": [8], "top_k_values": [2], "experts_values": [16], "expert_split_values": [4]}}
EOF
timeout 60 "$cli" sweep "$work/s.json" --vary mosaic.days=1,2,3 --shard 0/2 --out "$work/shard0.csv" >/dev/null &&
  timeout 60 "$cli" sweep "$work/s.json" --vary mosaic.days=1,2,3 --shard 1/2 --out "$work/shard1.csv" >/dev/null ||
  { echo "[fs] cannot make the shard files"; exit 1; }

# writer NAME TARGET: runs the writer NAME with TARGET as its output; stderr in $work/err.
writer() {
  local name=$1 target=$2
  case $name in
    run | run-new) timeout 120 "$cli" run "$work/s.json" --out "$target" ;;
    sweep) timeout 120 "$cli" sweep "$work/s.json" --vary mosaic.days=1,2 --out "$target" ;;
    merge) timeout 120 "$cli" merge --out "$target" "$work/shard0.csv" "$work/shard1.csv" ;;
    write-default-scenario) timeout 120 "$gui" --write-default-scenario "$target" ;;
    screenshot) timeout 120 "$gui" --screenshot "$target" --preset mosaic-fig1 ;;
    export-charts | export-charts-new) timeout 120 "$gui" --export-charts "$target" --preset mosaic-fig1 ;;
  esac >"$work/out" 2>"$work/err"
}

writers="run sweep merge"
[ $have_gui = 1 ] && writers="$writers write-default-scenario screenshot export-charts"
# The folder writers once more into a folder that does not exist yet (with a missing parent):
# the failed command removes what it made, so the disk is left as it was.
full_writers="$writers run-new"
[ $have_gui = 1 ] && full_writers="$full_writers export-charts-new"
[ $have_gui = 1 ] || echo "[fs] note: $gui not built; the GUI's writers are not checked"

# A listing of a folder tree with sizes and checksums (fillers excluded), to compare before/after.
listing() { (cd "$1" && find . -path ./filler -prune -o -print0 | sort -z | xargs -0 -r md5sum 2>/dev/null; find . | sort); }

if [ $is_root = 1 ]; then
  echo "[fs] ==== full disk (1 MiB tmpfs, filled) ===="
  mkdir -p "$disk"
  for w in $full_writers; do
    mount -t tmpfs -o size=1m tmpfs "$disk" || { fail "$w: cannot mount a tmpfs"; continue; }
    case $w in
      run) target=$disk/run; writer run "$target" || { fail "$w: first run on an empty disk" "$work/err"; umount -l "$disk"; continue; } ;;
      export-charts) target=$disk/charts; mkdir -p "$target"; echo "previous export" > "$target/old.png" ;;
      run-new | export-charts-new) target=$disk/new/out ;;
      screenshot) target=$disk/previous.png; echo "previous contents" > "$target" ;;
      *) target=$disk/previous.out; echo "previous contents" > "$target" ;;
    esac
    before=$(listing "$disk")
    dd if=/dev/zero of="$disk/filler" bs=4k 2>/dev/null
    dd if=/dev/zero of="$disk/filler" bs=1 oflag=append conv=notrunc 2>/dev/null
    writer "$w" "$target"
    rc=$?
    rm -f "$disk/filler"
    after=$(listing "$disk")
    if [ $rc -ne 1 ]; then fail "$w: exit $rc on a full disk (expected 1)" "$work/err"
    elif ! grep -q "no space left on device" "$work/err" || ! grep -qF "$target" "$work/err"; then
      fail "$w: the message does not name $target and 'no space left on device'" "$work/err"
    elif grep -q "^wrote " "$work/out"; then fail "$w: reported a file as written" "$work/out"
    elif [ "$before" != "$after" ]; then fail "$w: the previous files changed or a file was left behind"
    elif [ -e "$disk/new" ]; then fail "$w: a new folder was left behind"
    else pass "$w: exit 1, '$(grep -m1 -F "$target" "$work/err" | cut -c1-100)...', previous intact"
    fi
    umount -l "$disk"
  done
else
  echo "[fs] SKIP full disk: mounting a tmpfs needs root (CI runs as root)"
fi

echo "[fs] ==== device node and FIFO as the target ===="
kinds="fifo"
if [ $is_root = 1 ]; then kinds="chardev fifo"; else echo "[fs] SKIP character device: mknod needs root"; fi
for kind in $kinds; do
  for w in $writers; do
    dir=$work/nodes-$w-$kind
    mkdir -p "$dir"
    node=$dir/target
    # run --out DIR: the node is one of the result files inside DIR (DIR itself as a node is
    # refused as "not a folder" and checked too).
    [ "$w" = run ] && node=$dir/mosaic_result.json
    [ "$w" = export-charts ] && node=$dir/mosaic-frontier.png
    [ "$w" = screenshot ] && node=$dir/target.png  # --screenshot takes only .png names
    case $kind in
      chardev) mknod "$node" c 1 3 ;;
      fifo) mkfifo "$node" ;;
    esac
    case $w in run | export-charts) target=$dir ;; *) target=$node ;; esac
    writer "$w" "$target"
    rc=$?
    if [ $kind = chardev ]; then still=$([ -c "$node" ] && [ "$(stat -c '%t %T' "$node")" = "1 3" ] && echo yes)
    else still=$([ -p "$node" ] && echo yes); fi
    expect=2
    [ "$w" = export-charts ] && expect=1  # one chart of many could not be written
    if [ $rc -eq 124 ]; then fail "$w -> $kind: timed out (blocked on the target)"
    elif [ "$still" != yes ]; then fail "$w -> $kind: the node was replaced" "$work/err"
    elif [ $rc -ne $expect ]; then fail "$w -> $kind: exit $rc (expected $expect)" "$work/err"
    elif ! grep -q "not a regular file" "$work/err" || ! grep -qF "$node" "$work/err"; then
      fail "$w -> $kind: the message does not name $node and 'not a regular file'" "$work/err"
    else pass "$w -> $kind: exit $rc, node intact"
    fi
  done
  # run --out naming the node itself
  node=$work/run-$kind
  case $kind in chardev) mknod "$node" c 1 3 ;; fifo) mkfifo "$node" ;; esac
  writer run "$node"
  rc=$?
  if [ $rc -eq 2 ] && grep -q "not a folder" "$work/err" && { [ -c "$node" ] || [ -p "$node" ]; }; then
    pass "run --out $kind: exit 2, node intact"
  else fail "run --out $kind: exit $rc" "$work/err"; fi
done

if [ $have_gui = 1 ]; then
  echo "[fs] ==== --export-charts DIR naming a device, a FIFO or a file ===="
  for kind in $kinds file; do
    node=$work/charts-$kind
    case $kind in chardev) mknod "$node" c 1 3 ;; fifo) mkfifo "$node" ;; file) echo previous > "$node" ;; esac
    writer export-charts "$node"
    rc=$?
    case $kind in chardev) still=$([ -c "$node" ] && echo yes) ;; fifo) still=$([ -p "$node" ] && echo yes) ;;
      file) still=$([ "$(cat "$node")" = previous ] && echo yes) ;; esac
    if [ $rc -eq 2 ] && grep -q "not a folder" "$work/err" && grep -qF "$node" "$work/err" && [ "$still" = yes ]; then
      pass "export-charts -> $kind: exit 2, '$(grep -m1 -F "$node" "$work/err" | cut -c1-100)...', target intact"
    else fail "export-charts -> $kind: exit $rc (expected 2 and 'not a folder'), intact: ${still:-no}" "$work/err"; fi
  done
fi

echo "[fs] ==== QtTest suites ===="
# Each suite runs from its test executable (tests/common/test_main.h): tandem_tests_core
# tst_output_files, tandem_tests_gui tst_gui_output_files.
for t in core:tst_output_files gui:tst_gui_output_files; do
  exe=tandem_tests_${t%%:*}
  t=${t#*:}
  bin="$build/tests/$exe"
  if [ ! -x "$bin" ]; then
    [ $t = tst_gui_output_files ] && [ $have_gui = 0 ] && continue
    fail "$t: $exe not built"
    continue
  fi
  if timeout 600 "$bin" "$t" >"$work/qt" 2>&1; then pass "$t: $(grep '^Totals' "$work/qt")"
  else fail "$t" "$work/qt"; fi
done

echo "[fs] $checks checks, $failures failed"
[ $failures -eq 0 ]
