#!/usr/bin/env bash
# The whole test suite under both MPIs, from a fresh Debian machine: installs what is missing,
# builds one directory per MPI (build-test-openmpi, build-test-mpich), runs every suite, and
# ends with the line "N passed, N failed". Exit status 0 only if nothing failed.
# Usage: tools/run-tests.sh [openmpi|mpich ...]   (default: both)
set -uo pipefail
cd "$(dirname "$0")/.."

tools/install-deps.sh || { echo "0 passed, 1 failed"; exit 1; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# The suite's settings come from its own tests, never from the caller's shell.
for v in $(env | sed -n 's/^\(MCORECOLL_[A-Z_]*\)=.*/\1/p'); do unset "$v"; done
unset LD_PRELOAD

flavors=("$@")
[ ${#flavors[@]} -gt 0 ] || flavors=(openmpi mpich)

passed=0
failed=0
for flavor in "${flavors[@]}"; do
  dir="build-test-$flavor"
  echo "=== $flavor: configure and build ($dir)"
  if [ -f "$dir/build.ninja" ]; then
    meson setup --reconfigure "$dir" -Dmpi="$flavor" >/dev/null
  else
    meson setup "$dir" -Dmpi="$flavor" >/dev/null
  fi
  if ! ninja -C "$dir" >"$dir/meson-logs/ninja-build.log" 2>&1; then
    cat "$dir/meson-logs/ninja-build.log"
    echo "=== $flavor: build FAILED"
    failed=$((failed + 1))
    continue
  fi
  echo "=== $flavor: test"
  meson test -C "$dir" --print-errorlogs --num-processes 1
  # Count from meson's machine-readable log: one JSON object per test.
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
  echo "=== $flavor: $p passed, $f failed"
  passed=$((passed + p))
  failed=$((failed + f))
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
