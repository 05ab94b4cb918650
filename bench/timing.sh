# Sourced by bench/masking.sh and bench/scan.sh, which set $work (a scratch
# directory). best_time RUNS COMMAND prints the fastest of RUNS runs of the
# shell command COMMAND, in seconds: with hyperfine when installed (after one
# warm-up run), else with Python's clock.
best_time() {
    if command -v hyperfine >/dev/null 2>&1; then
        hyperfine --warmup 1 --runs "$1" --style none --export-json "$work/time.json" "$2" >/dev/null 2>&1
        python3 -c 'import json, sys; print(min(json.load(open(sys.argv[1]))["results"][0]["times"]))' "$work/time.json"
    else
        python3 -c 'import subprocess, sys, time
times = []
for _ in range(int(sys.argv[1])):
    start = time.perf_counter()
    subprocess.run(sys.argv[2], shell=True)
    times.append(time.perf_counter() - start)
print(min(times))' "$1" "$2"
    fi
}
