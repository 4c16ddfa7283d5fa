#!/usr/bin/env bash
# CI stage: numbers are in the C convention whatever the locale (issue #25). Under
# LC_ALL=de_DE.UTF-8 (decimal comma) every number tandem-cli reads or writes must be the same as
# under LC_ALL=C:
#   suites   the CLI and file-format/IO QtTest suites (and tst_gui_cli where the GUI is built:
#            its headless export with imports) run with LC_ALL=de_DE.UTF-8 (a Qt program
#            calls setlocale(LC_ALL, "") at start, so the suites' in-process parsing and
#            formatting see the German locale too)
#   commands run, scaling, sweep (ranges with decimals, shards), merge, plan (with nccl-tests
#            logs), inspect (nccl-tests logs, loss logs, config.json files, load traces),
#            validate and reproduce over examples/ and tests/data, once with LC_ALL=C and once
#            with LC_ALL=de_DE.UTF-8, each into its own folder; `diff -r` of the two folders
#            (exit codes, stdout, stderr with the folder's path replaced, every file written)
#            must be empty
# Makes sure de_DE.UTF-8 exists first: localedef, installing the `locales` package with apt-get
# when localedef is missing (needs root, as CI runs; as another user a missing locale fails the
# stage with the command to run). Takes about 45 s on 2 cores after the build (30 s of it
# the suites).
#
#   scripts/ci-locale.sh [BUILD_DIR]     (default: build, as scripts/test.sh builds it)
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
build=${1:-build}
cli=$build/app/cli/tandem-cli
export QT_QPA_PLATFORM=offscreen
[ -x "$cli" ] || { echo "[locale] $cli not built (run scripts/build.sh first)"; exit 1; }
cli=$(cd "$(dirname "$cli")" && pwd)/$(basename "$cli")

# --- the German locale ------------------------------------------------------------------------
has_locale() { locale -a 2>/dev/null | grep -qixE "$1\\.utf-?8"; }
make_locale() { localedef -i de_DE -f UTF-8 de_DE.UTF-8 >/dev/null 2>&1; }
if ! has_locale de_DE && ! make_locale; then
  # localedef (libc-bin) is there on Debian, the locale sources (/usr/share/i18n) come with the
  # locales package.
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "[locale] installing the locales package"
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq locales) \
      >/dev/null 2>&1 || echo "[locale] apt-get install locales failed"
    make_locale || echo "[locale] localedef -i de_DE -f UTF-8 de_DE.UTF-8 failed"
  fi
fi
if ! has_locale de_DE; then
  echo "[locale] FAIL: de_DE.UTF-8 is not available (as root: apt-get install -y locales &&"
  echo "         localedef -i de_DE -f UTF-8 de_DE.UTF-8)"
  exit 1
fi
# The child processes and the suites must really get the decimal comma.
probe=$(LC_ALL=de_DE.UTF-8 locale -k decimal_point 2>/dev/null)
[ "$probe" = 'decimal_point=","' ] || {
  echo "[locale] FAIL: LC_ALL=de_DE.UTF-8 gives $probe, expected a decimal comma"
  exit 1
}

failures=0
# Message catalogues stay English: strerror's wording follows LC_MESSAGES ("datei oder
# Verzeichnis nicht gefunden" under de_DE.UTF-8), which is about words, not numbers, and which
# tst_output_files checks in English. LANGUAGE chooses the catalogue only; LC_NUMERIC and every
# other category still come from LC_ALL.
export LANGUAGE=en

# --- the suites under de_DE.UTF-8 --------------------------------------------------------------
suites='tst_cli|tst_inspect|tst_nccl_tests|tst_loss_log|tst_load_trace|tst_hf_config|tst_csv'
suites+='|tst_json_reader|tst_sweep|tst_scenario|tst_output_files|tst_cli_bad_files'
suites+='|tst_imported_geometry|tst_mosaic_korthikanti|tst_mlforml_imports|tst_cli_plan'
# The GUI's headless export with imports, where the GUI is built.
[ -x "$build/app/gui/tandem" ] && [ -x "$build/tests/tandem_tests_gui" ] && suites+='|tst_gui_cli'
echo "[locale] suites with LC_ALL=de_DE.UTF-8: ${suites//|/ }"
if ! LC_ALL=de_DE.UTF-8 ctest --test-dir "$build" -R "^($suites)\$" --output-on-failure \
  --timeout 300 -j2; then
  echo "[locale] FAIL: a suite failed under LC_ALL=de_DE.UTF-8"
  failures=$((failures + 1))
fi

# --- the commands, C against de_DE.UTF-8 -------------------------------------------------------
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
trace=tests/cli/data/rate-trace.csv  # a load trace with fractional times and rates
model=tests/data/models/Mixtral-8x7B-v0.1.config.json
nccl=tests/data/nccl/H100-all_reduce-2x8-awsome-distributed-training.txt

commands() {
  for e in examples/*.json; do
    echo "run $e --out \$OUT/run-$(basename "$e" .json)"
    echo "validate $e"
  done
  echo "validate tests/cli/data/bad-three.json"
  echo "scaling examples/mlforml-fabric-scaling.json --nodes 8,16 --oversubscription 1.5,4 --out \$OUT/scaling.csv"
  echo "scaling examples/mlforml-fabric-scaling.json --nodes 8 --oversubscription 2.5 --out \$OUT/scaling.json"
  echo "sweep examples/mosaic-table3.json --vary mosaic.days=2.5:5.5:2 --out \$OUT/sweep-range.csv"
  for i in 0 1; do
    echo "sweep examples/mlforml-fabric-scaling.json --vary ml_for_ml.fabric_GBps=250.5,300.25 --shard $i/2 --out \$OUT/shard$i.csv"
  done
  echo "merge --out \$OUT/merged.csv \$OUT/shard0.csv \$OUT/shard1.csv"
  echo "plan $model --devices 64 --nccl $nccl"
  echo "plan $model --devices 64 --nccl $nccl --json"
  for f in tests/data/nccl/* tests/data/losslogs/* tests/data/models/* "$trace"; do
    echo "inspect $f"
    echo "inspect $f --json"
  done
  echo "reproduce all"
  echo "reproduce reality --json"
}

run_all() {  # LOCALE DIR
  local loc=$1 out=$2 n=0 line args
  mkdir -p "$out"
  while IFS= read -r line; do
    n=$((n + 1))
    line=${line//\$OUT/$out}
    read -r -a args <<<"$line"
    LC_ALL=$loc timeout 120 "$cli" "${args[@]}" >"$out/$n.stdout" 2>"$out/$n.stderr"
    echo "$?" >"$out/$n.exit"
    sed -i "s#$out#\$OUT#g" "$out/$n.stdout" "$out/$n.stderr"
  done < <(commands)
  echo "$n"
}

start=$SECONDS
count=$(run_all C "$work/C")
run_all de_DE.UTF-8 "$work/de_DE" >/dev/null
echo "[locale] $count tandem-cli commands with LC_ALL=C and LC_ALL=de_DE.UTF-8 ($((SECONDS - start)) s)"
if ! grep -qx 0 "$work"/C/*.exit; then
  echo "[locale] FAIL: no command succeeded under LC_ALL=C"
  failures=$((failures + 1))
fi
if ! diff -r "$work/C" "$work/de_DE"; then
  echo "[locale] FAIL: the outputs above differ between LC_ALL=C (<) and de_DE.UTF-8 (>);"
  echo "         commands by number:"
  commands | nl -w3 -s': '
  failures=$((failures + 1))
fi

if [ "$failures" -gt 0 ]; then
  echo "[locale] $failures failure(s)"
  exit 1
fi
echo "[locale] OK: the same numbers under LC_ALL=de_DE.UTF-8 as under LC_ALL=C"
