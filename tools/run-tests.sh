#!/usr/bin/env bash
# The whole test suite, from a fresh Debian machine: installs what is missing, builds one
# directory per configuration (build-test-<config>), runs its suites, and ends with the line
# "N passed, N failed". Exit status 0 only if nothing failed.
# Configurations: openmpi, mpich (every suite), openmpi-sanitize (the unit suite and the MPI
# tests test/sanitizers/mpi-subset.txt names, with the library and the test programs under
# AddressSanitizer, LeakSanitizer and UBSan; the library counted: -Dcount_transfers=true).
# Usage: tools/run-tests.sh [--no-suite SUITE ...] [--max-np N] [openmpi|mpich|openmpi-sanitize ...]
#   (default: all three configurations, every suite; --no-suite leaves a suite out, e.g. large:
#   the runs of 32 and 64 ranks; --max-np leaves out the tests whose name says they run more
#   than N ranks: "-np4", " np4")
set -uo pipefail
cd "$(dirname "$0")/.."

tools/install-deps.sh || { echo "0 passed, 1 failed"; exit 1; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# The suite's settings come from its own tests, never from the caller's shell.
for v in $(env | sed -n 's/^\(MCORECOLL_[A-Z0-9_]*\)=.*/\1/p'); do unset "$v"; done
unset LD_PRELOAD

left_out=()
max_np=0
while [ $# -ge 2 ]; do
  case $1 in
    --no-suite) left_out+=("$2") ;;
    --max-np) max_np=$2 ;;
    *) break ;;
  esac
  shift 2
done
configs=("$@")
[ ${#configs[@]} -gt 0 ] || configs=(openmpi mpich openmpi-sanitize)

passed=0
failed=0
for config in "${configs[@]}"; do
  dir="build-test-$config"
  flavor=${config%-sanitize}
  options=(-Dmpi="$flavor")
  subset_file=
  if [ "$config" != "$flavor" ]; then
    # Frame pointers and DWARF unwinding give leak reports whole stacks, so that
    # test/sanitizers/lsan.supp can tell the MPI library's allocations from ours.
    # Counted too (-Dcount_transfers=true, for test_transfer_counts): this build is only for tests anyway, and
    # CI has no time for a build of its own. The other tests record nothing (recording starts at a clear).
    options+=(-Dbuildtype=debugoptimized -Db_sanitize=address,undefined -Db_lundef=false -Dfortran=false
              -Dc_args=-fno-omit-frame-pointer -Dcpp_args=-fno-omit-frame-pointer -Dcount_transfers=true)
    # The unit tests and the MPI tests test/sanitizers/mpi-subset.txt names (chosen below,
    # once the build has defined them).
    subset_file=test/sanitizers/mpi-subset.txt
    export ASAN_OPTIONS=detect_leaks=1:fast_unwind_on_malloc=0
    export LSAN_OPTIONS=suppressions=$PWD/test/sanitizers/lsan.supp:print_suppressions=0
    export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
  fi
  echo "=== $config: configure and build ($dir)"
  # Quiet unless it fails: then its message shows.
  if [ -f "$dir/build.ninja" ]; then
    setup=(meson setup --reconfigure "$dir" "${options[@]}")
  else
    setup=(meson setup "$dir" "${options[@]}")
  fi
  if ! setup_out=$("${setup[@]}" 2>&1); then
    echo "$setup_out" | tail -20
    echo "=== $config: configure FAILED"
    failed=$((failed + 1))
    continue
  fi
  if ! ninja -C "$dir" >"$dir/meson-logs/ninja-build.log" 2>&1; then
    cat "$dir/meson-logs/ninja-build.log"
    echo "=== $config: build FAILED"
    failed=$((failed + 1))
    continue
  fi
  # The tests to run, by name, from the build's own list (tools/select-tests.py).
  mapfile -t chosen < <(meson introspect "$dir" --tests |
                        python3 tools/select-tests.py --max-np "$max_np" --subset "$subset_file" "${left_out[@]}")
  echo "=== $config: test (${#chosen[@]} tests)"
  if [ ${#chosen[@]} -eq 0 ]; then
    echo "=== $config: no test chosen"
    failed=$((failed + 1))
    continue
  fi
  meson test -C "$dir" --print-errorlogs --num-processes 1 "${chosen[@]}"
  # Count from meson's machine-readable log: one JSON object per test.
  unset ASAN_OPTIONS LSAN_OPTIONS UBSAN_OPTIONS
  read -r p f < <(python3 - "$dir/meson-logs/testlog.json" <<'PY'
import json, sys
p = f = 0
for line in open(sys.argv[1]):
    result = json.loads(line)["result"]
    if result in ("OK", "EXPECTEDFAIL"):
        p += 1
    elif result != "SKIP":
        f += 1
print(p, f)
PY
)
  echo "=== $config: $p passed, $f failed"
  passed=$((passed + p))
  failed=$((failed + f))
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
