#!/usr/bin/env bash
# Standard output of every tandem-cli command on hostile targets:
#   1. stdout to /dev/full             -> exit non-zero and a message on stderr;
#   2. under `ulimit -f 4` into a file -> exit non-zero and "File too large" (not killed by
#      SIGXFSZ), for every command whose stdout or --out file exceeds the 4 KiB limit;
#   3. stdout into `| head -c 10`      -> quiet: nothing on stderr.
# Usage: scripts/ci-stdout.sh BUILD_DIR   (needs BUILD_DIR/app/cli/tandem-cli; under 2 minutes)
set -u
build=${1:?usage: scripts/ci-stdout.sh BUILD_DIR}
root=$(cd "$(dirname "$0")/.." && pwd)
cli=$(cd "$build" && pwd)/app/cli/tandem-cli
[ -x "$cli" ] || { echo "ci-stdout: no tandem-cli at $cli" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
start=$SECONDS
failures=0

# Inputs: a small MOSAIC scenario, two shards of a sweep over it, an nccl-tests log.
scen=$tmp/s.json
cat > "$scen" <<'EOF'
{"mosaic": {"nodes": 2, "q_values": [8], "top_k_values": [2], "experts_values": [16],
  "expert_split_values": [4]}}
EOF
for i in 0 1; do
    "$cli" sweep "$scen" --vary mosaic.days=1,2,3 --shard $i/2 --out "$tmp/shard$i.csv" \
        > /dev/null || { echo "ci-stdout: cannot make shard $i" >&2; exit 2; }
done
model=$root/tests/data/models/DeepSeek-V3.config.json
nccl=$root/tests/data/nccl/H100-all_reduce-2x8-awsome-distributed-training.txt
example=$root/examples/mlforml-scenario1.json
fabric=$root/examples/mlforml-fabric-scaling.json

# name|arguments (OUT is replaced by a fresh output path in the case's folder)
cases=(
    "plan|plan $model --devices 256 --hardware h100"
    "plan --json|plan $model --devices 256 --hardware h100 --json"
    "inspect|inspect $nccl"
    "inspect --json|inspect $nccl --json"
    "validate|validate $example"
    "reproduce|reproduce mosaic"
    "fit-stack|fit-stack --json"
    "run|run $scen --out OUT"
    "sweep|sweep $scen --vary mosaic.days=1,2 --out OUT.csv"
    "merge|merge --out OUT.csv $tmp/shard0.csv $tmp/shard1.csv"
    "scaling|scaling $fabric --nodes 8,16 --out OUT.json"
    "help|--help"
)

fail() {
    echo "FAIL  $1" >&2
    failures=$((failures + 1))
}

n=0
for c in "${cases[@]}"; do
    name=${c%%|*}
    n=$((n + 1))
    dir=$tmp/case$n
    mkdir -p "$dir"
    # shellcheck disable=SC2206
    args=(${c#*|})
    for k in "${!args[@]}"; do args[$k]=${args[$k]//OUT/$dir/out}; done

    # 1. /dev/full
    "$cli" "${args[@]}" > /dev/full 2> "$dir/err1"
    rc=$?
    if [ $rc -eq 0 ] || ! grep -qi "cannot write to standard output: No space left on device" "$dir/err1"; then
        fail "$name > /dev/full: exit $rc, stderr: $(head -c 300 "$dir/err1")"
    else
        echo "ok    $name > /dev/full: exit $rc"
    fi

    # 2. a 4 KiB file-size limit (stdout and --out files alike)
    rm -rf "$dir/out" "$dir/out.csv" "$dir/out.json"
    (ulimit -f 4 && exec "$cli" "${args[@]}" > "$dir/stdout" 2> "$dir/err2")
    rc=$?
    big=$(find "$dir" -maxdepth 2 -type f ! -name 'err*' -size +3k | head -n 1)
    if [ $rc -eq 0 ] && [ -z "$big" ]; then
        echo "ok    $name under ulimit -f 4: its output fits in 4 KiB (nothing to refuse)"
    elif [ $rc -eq 0 ] || [ $rc -gt 128 ] || ! grep -qi "file too large" "$dir/err2"; then
        fail "$name under ulimit -f 4: exit $rc, stderr: $(head -c 300 "$dir/err2")"
    else
        echo "ok    $name under ulimit -f 4: exit $rc"
    fi

    # 3. a reader that closes early
    rm -rf "$dir/out" "$dir/out.csv" "$dir/out.json"
    "$cli" "${args[@]}" 2> "$dir/err3" | head -c 10 > /dev/null
    if [ -s "$dir/err3" ]; then
        fail "$name | head -c 10: stderr not empty: $(head -c 300 "$dir/err3")"
    else
        echo "ok    $name | head -c 10: quiet"
    fi
done

echo "ci-stdout: ${#cases[@]} commands, $failures failure(s), $((SECONDS - start)) s"
[ $failures -eq 0 ]
