#!/usr/bin/env bash
# Runs every fuzz target (or the TARGETs named) for SECONDS each (default 600), JOBS at a time
# (default 1), and prints one line a target: executions, and whether it found a crash (kept
# under fuzz/artifacts/).
#   fuzz/run-all.sh [SECONDS [JOBS [TARGET...]]]
# Works on stable Rust: RUSTC_BOOTSTRAP lets cargo-fuzz pass its instrumentation flags, and
# `-s none` leaves out the sanitizer (safe Rust needs none to find panics).
#   cargo install cargo-fuzz && fuzz/run-all.sh 600
set -uo pipefail
cd "$(dirname "$0")"
seconds=${1:-600}
jobs=${2:-1}
shift 2 2>/dev/null || shift $#
export RUSTC_BOOTSTRAP=1
cargo fuzz build -s none -O >/dev/null || exit 1
mkdir -p logs
run_one() {
    local target=$1
    mkdir -p "corpus/$target"
    cargo fuzz run -s none -O "$target" "corpus/$target" -- \
        -max_total_time="$seconds" -max_len=4096 -print_final_stats=1 \
        >"logs/$target.log" 2>&1
    local status=$?
    local execs
    execs=$(grep -Eo 'stat::number_of_executed_units: *[0-9]+' "logs/$target.log" | grep -Eo '[0-9]+$')
    if [ "$status" -eq 0 ]; then
        echo "$target: ${execs:-?} executions in ${seconds} s, no crash"
    else
        echo "$target: CRASH (exit $status) after ${execs:-?} executions; see fuzz/logs/$target.log and fuzz/artifacts/$target/"
    fi
    return "$status"
}
export -f run_one
export seconds
targets=${*:-$(cargo fuzz list)}
printf '%s\n' $targets | xargs -P "$jobs" -I{} bash -c 'run_one {}'
