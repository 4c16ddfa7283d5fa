#!/usr/bin/env bash
# Extra CI stages: libFuzzer targets and sanitizer builds, each bounded in time. Exits non-zero
# on any finding (a fuzzer crash, leak, timeout or out-of-memory, an ASan/UBSan/TSan report, a
# failing test) or a build failure; prints one summary line per stage, with its time. A missing
# clang or libFuzzer runtime is installed (apt-get: clang, libclang-rt-14-dev), never skipped: if
# it cannot be installed the stage fails.
#
#   scripts/ci-extra.sh                 # all stages
#   scripts/ci-extra.sh fuzz asan       # some stages: fuzz, asan, tsan
#
# Two builds, each of only what its stages run:
#   build-asan  clang, ASan + UBSan, no GUI: the fuzz targets AND the core test groups and
#               tandem-cli. The fuzz stage and the asan stage share it (one compile of core/,
#               instrumented for coverage as libFuzzer needs; the test groups link the same
#               objects), whichever stage runs first builds it.
#   build-tsan  clang, TSan: the three threaded suites only (tst_sweep, tst_mosaic_search and,
#               with the GUI, tst_job_runner), each an executable of its own.
#
# Gating: .ci/run fails when this script fails. To run it as advisory only (report, but do not
# fail CI), set TANDEM_CI_EXTRA_GATING=0 for .ci/run.
#
# Environment (defaults in brackets):
#   TANDEM_FUZZ_SECONDS   seconds per fuzz target [60; less than 60 is refused unless
#                         TANDEM_FUZZ_SHORT=1, for local smoke runs]
#   TANDEM_FUZZ_SEED      libFuzzer -seed of every target [1]; with a fresh working corpus per
#                         run, the same build explores the same inputs in the same order (only
#                         how far it gets in the time bound depends on the machine's load)
#   TANDEM_CI_JOBS        parallel build jobs and concurrent fuzzers [2]
#   TANDEM_ASAN_BUILD, TANDEM_TSAN_BUILD
#                         build dirs [build-asan, build-tsan]
#   TANDEM_TEST_TIMEOUT   seconds per sanitized test suite [600]
#   TANDEM_TSAN_GUI       1: also build the GUI worker and its test (tst_job_runner) under TSan;
#                         0: the sweep and search suites only;
#                         auto: 1 when Qt Charts is installed, else 0 [auto]
# Fuzz findings are written to <asan build>/artifacts/; the seed corpus in tests/fuzz/corpus/ is
# never modified (each run starts a fresh copy under <asan build>/corpus-work/).
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
# Every build dir here goes through ccache when it is installed (CMakeLists.txt sets
# CMAKE_CXX_COMPILER_LAUNCHER for gcc and clang alike); paths relative to the repository root
# let clones at different paths share the cache.
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$root}

fuzz_seconds=${TANDEM_FUZZ_SECONDS:-60}
fuzz_seed=${TANDEM_FUZZ_SEED:-1}
jobs=${TANDEM_CI_JOBS:-2}
asan_dir=${TANDEM_ASAN_BUILD:-build-asan}
fuzz_dir=$asan_dir
tsan_dir=${TANDEM_TSAN_BUILD:-build-tsan}
test_timeout=${TANDEM_TEST_TIMEOUT:-600}
stages=("$@")
[ ${#stages[@]} -eq 0 ] && stages=(fuzz asan tsan)

summary=()
failed=0
note() { echo "[ci-extra] $*"; }
record() {  # record STAGE STATUS SECONDS DETAIL
  summary+=("$(printf '%-6s %-5s %5ss  %s' "$1" "$2" "$3" "$4")")
  [ "$2" = "PASS" ] || failed=1
}
generator=()
mkdir -p "$asan_dir" "$tsan_dir"
command -v ninja >/dev/null 2>&1 && generator=(-G Ninja)

# Sanitizer runtime options: stop at the first report, with a stack trace.
export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1:strict_string_checks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
# TSan: Qt 6.4 is not TSan-instrumented; tests/reliability/tsan.supp lists the three Qt-internal
# reports (QWaitCondition teardown, the QtTest watchdog, posted-event deletion) that TSan
# cannot see ordered.
export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1:second_deadlock_stack=1:suppressions=$root/tests/reliability/tsan.supp}
export QT_QPA_PLATFORM=offscreen
# Sanitizer builds keep line tables only (-g1): stack traces name functions, files and lines, and
# the builds compile and link faster than with full debug info.
reldebug="-O2 -g1 -DNDEBUG"

probe_clang() {  # a libFuzzer + ASan + TSan capable clang++
  local probe=/tmp/tandem-fuzz-probe.$$ ok=1
  command -v clang++ >/dev/null 2>&1 || return 1
  echo 'extern "C" int LLVMFuzzerTestOneInput(const char*, unsigned long){return 0;}' |
    clang++ -x c++ -fsanitize=fuzzer,address,undefined - -o "$probe" 2>/dev/null || ok=0
  echo 'int main(){return 0;}' | clang++ -x c++ -fsanitize=thread - -o "$probe" 2>/dev/null || ok=0
  rm -f "$probe"
  [ $ok = 1 ]
}
need_clang() {
  probe_clang && return 0
  note "clang with libFuzzer/sanitizer runtimes not found; installing clang and libclang-rt-14-dev"
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 || { note "not root and no sudo: cannot install clang"; return 1; }
    sudo="sudo"
  fi
  $sudo apt-get update -qq &&
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
      clang libclang-rt-14-dev >/dev/null || { note "apt-get install failed"; return 1; }
  probe_clang || { note "clang installed but it cannot link -fsanitize=fuzzer/thread"; return 1; }
}

# ---------------------------------------------------------------------------------------------
# The ASan + UBSan build of the fuzz and asan stages (clang): core/ instrumented for coverage
# (TANDEM_FUZZ), everything else with the sanitizers only. Built once per run.
sanitized_built=""
build_sanitized() {
  [ -n "$sanitized_built" ] && return "$sanitized_built"
  sanitized_built=1
  need_clang || return 1
  local t0=$SECONDS
  local flags="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
  note "configuring $asan_dir (clang, ASan + UBSan, libFuzzer targets and the core test groups)"
  if ! CC=clang CXX=clang++ cmake -S . -B "$asan_dir" "${generator[@]}" \
        -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="$reldebug" \
        -DTANDEM_BUILD_GUI=OFF -DTANDEM_FUZZ=ON -DCMAKE_CXX_FLAGS="$flags" \
        -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" >"$asan_dir/ci-configure.log" 2>&1; then
    tail -20 "$asan_dir/ci-configure.log"
    return 1
  fi
  cmake --build "$asan_dir" --parallel "$jobs" || return 1
  note "sanitized build: $((SECONDS - t0)) s"
  sanitized_built=0
}

# ---------------------------------------------------------------------------------------------
stage_fuzz() {
  local t0=$SECONDS
  if [ "$fuzz_seconds" -lt 60 ] && [ "${TANDEM_FUZZ_SHORT:-0}" != 1 ]; then
    record fuzz FAIL 0 "TANDEM_FUZZ_SECONDS=$fuzz_seconds is below the 60 s minimum (TANDEM_FUZZ_SHORT=1 allows it locally)"
    return
  fi
  if ! need_clang; then record fuzz FAIL $((SECONDS - t0)) "clang/libFuzzer unavailable"; return; fi
  if ! build_sanitized; then record fuzz FAIL $((SECONDS - t0)) "build failed"; return; fi
  # One target per input path (tests/fuzz/fuzz_<name>.cpp), each with its seed corpus in
  # tests/fuzz/corpus/<name>/: a target without a corpus, or a corpus without a target, is a
  # failure, so no importer goes unfuzzed.
  local targets=() t missing=()
  for d in tests/fuzz/corpus/*/; do targets+=("$(basename "$d")"); done
  for src in tests/fuzz/fuzz_*.cpp; do
    t=$(basename "$src" .cpp)
    t=${t#fuzz_}
    [ -d "tests/fuzz/corpus/$t" ] || missing+=("$t")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    record fuzz FAIL $((SECONDS - t0)) "fuzz targets without a seed corpus: ${missing[*]}"
    return
  fi
  # A fresh working corpus and artifact dir per run: the result depends on this checkout only.
  rm -rf "$fuzz_dir/corpus-work" "$fuzz_dir/artifacts" "$fuzz_dir/logs"
  mkdir -p "$fuzz_dir/artifacts" "$fuzz_dir/logs"
  note "fuzz: ${#targets[@]} targets x ${fuzz_seconds}s, -seed=$fuzz_seed, $jobs at a time"
  local pids=() names=() bad=()
  run_one() {
    local t=$1 work="$fuzz_dir/corpus-work/$1"
    mkdir -p "$work"
    [ -x "$fuzz_dir/tests/fuzz/fuzz_$t" ] || { echo "no fuzz target fuzz_$t" >"$fuzz_dir/logs/$t.log"; return 1; }
    # -timeout: an input that takes > 10 s is a hang; -rss_limit_mb: runaway memory is a finding.
    timeout $((fuzz_seconds + 120)) "$fuzz_dir/tests/fuzz/fuzz_$t" "$work" "tests/fuzz/corpus/$t" \
      -seed="$fuzz_seed" -max_total_time="$fuzz_seconds" -timeout=10 -rss_limit_mb=2048 \
      -print_final_stats=1 -artifact_prefix="$fuzz_dir/artifacts/$t-" >"$fuzz_dir/logs/$t.log" 2>&1
  }
  for t in "${targets[@]}"; do
    run_one "$t" &
    pids+=($!)
    names+=("$t")
    if [ ${#pids[@]} -ge "$jobs" ]; then
      wait "${pids[0]}" || bad+=("${names[0]}")
      pids=("${pids[@]:1}")
      names=("${names[@]:1}")
    fi
  done
  for i in "${!pids[@]}"; do wait "${pids[$i]}" || bad+=("${names[$i]}"); done
  local short=()
  for t in "${targets[@]}"; do
    local runs secs
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$fuzz_dir/logs/$t.log" | grep -o '[0-9]*$')
    secs=$(grep -o 'Done [0-9]* runs in [0-9]* second' "$fuzz_dir/logs/$t.log" | grep -o 'in [0-9]*' | grep -o '[0-9]*')
    note "fuzz_$t: ${runs:-?} executions in ${secs:-?} s"
    # A clean exit must mean the full time bound was fuzzed (not, e.g., an empty corpus).
    if [ -n "$secs" ] && [ "$secs" -lt "$fuzz_seconds" ]; then short+=("$t"); fi
  done
  if [ ${#bad[@]} -gt 0 ]; then
    for t in "${bad[@]}"; do
      note "fuzz_$t FOUND A PROBLEM; log: $fuzz_dir/logs/$t.log"
      grep -E 'ERROR|invariant violated|runtime error|Test unit written|timeout|no fuzz target' \
        "$fuzz_dir/logs/$t.log" | head -8
    done
    record fuzz FAIL $((SECONDS - t0)) "findings in: ${bad[*]} (reproducers in $fuzz_dir/artifacts/)"
  elif [ ${#short[@]} -gt 0 ]; then
    record fuzz FAIL $((SECONDS - t0)) "ran less than ${fuzz_seconds}s: ${short[*]}"
  else
    record fuzz PASS $((SECONDS - t0)) "${#targets[@]} targets x ${fuzz_seconds}s (-seed=$fuzz_seed), no findings"
  fi
}

# ---------------------------------------------------------------------------------------------
# Core test suites (no GUI) under AddressSanitizer + UndefinedBehaviorSanitizer (clang).
stage_asan() {
  local t0=$SECONDS
  if ! build_sanitized; then record asan FAIL $((SECONDS - t0)) "build failed"; return; fi
  note "asan: running the core suites"
  if ctest --test-dir "$asan_dir" --output-on-failure --timeout "$test_timeout" -j "$jobs"; then
    record asan PASS $((SECONDS - t0)) "$(ctest --test-dir "$asan_dir" -N | grep -c 'Test *#') suites clean"
  else
    record asan FAIL $((SECONDS - t0)) "a suite failed or a sanitizer reported (see above)"
  fi
}

# ---------------------------------------------------------------------------------------------
# Threaded code under ThreadSanitizer (clang): the sweep thread pool, the MoE search's geometry
# threads and its costing cache shared between searches and background preparations, and, with
# the GUI, the coalescing worker (ui/job_runner).
stage_tsan() {
  local t0=$SECONDS
  local gui=${TANDEM_TSAN_GUI:-auto}
  if [ "$gui" = auto ]; then
    gui=0
    dpkg-query -W -f='${Status}' qt6-charts-dev 2>/dev/null | grep -q "install ok installed" && gui=1
  fi
  local gui_flag=OFF tests=(tst_sweep tst_mosaic_search)
  [ "$gui" = 1 ] && gui_flag=ON && tests+=(tst_job_runner)
  if ! need_clang; then record tsan FAIL $((SECONDS - t0)) "clang unavailable"; return; fi
  note "tsan: configuring $tsan_dir (clang, TSan; suites: ${tests[*]})"
  if ! CC=clang CXX=clang++ cmake -S . -B "$tsan_dir" "${generator[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="$reldebug" \
        -DTANDEM_BUILD_GUI=$gui_flag -DCMAKE_CXX_FLAGS="-fsanitize=thread -fno-omit-frame-pointer" \
        -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=thread" >"$tsan_dir/ci-configure.log" 2>&1 ||
     ! cmake --build "$tsan_dir" --parallel "$jobs" --target "${tests[@]}"; then
    tail -20 "$tsan_dir/ci-configure.log" 2>/dev/null
    record tsan FAIL $((SECONDS - t0)) "build failed"
    return
  fi
  local regex
  regex="^($(IFS='|'; echo "${tests[*]}"))\$"
  note "tsan: running ${tests[*]}"
  if ctest --test-dir "$tsan_dir" --output-on-failure --timeout "$test_timeout" -R "$regex"; then
    record tsan PASS $((SECONDS - t0)) "${tests[*]} clean"
  else
    record tsan FAIL $((SECONDS - t0)) "a suite failed or TSan reported a race (see above)"
  fi
}

for s in "${stages[@]}"; do
  case "$s" in
    fuzz) stage_fuzz ;;
    asan) stage_asan ;;
    tsan) stage_tsan ;;
    *) note "unknown stage '$s' (fuzz, asan, tsan)"; failed=1 ;;
  esac
done

echo
echo "[ci-extra] summary (stage, result, time, detail):"
for l in "${summary[@]}"; do echo "  $l"; done
exit $failed
