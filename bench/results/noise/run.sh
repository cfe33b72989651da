#!/bin/bash
# Launch-to-launch stability with something else running on the node (issue #39, item 5): one
# busy process (`yes`, unbound) beside np 2 ranks bound to the 2 cores; mcorecoll_bench
# (allreduce, gather, bcast: 8 B, 256 B, 8 KiB, 256 KiB), LAUNCHES launches per setting of
# MCORECOLL_SPIN_US, alternating, so that both meet the same noise.
# Usage: run.sh LIB OUTDIR SPIN_US...   (Open MPI; BENCH: the benchmark binary; LAUNCHES: 8;
# LOAD=0: without the busy process)
set -eu
lib=$1 out=$2; shift 2
bench=${BENCH:-build-test-openmpi/bench/mcorecoll_bench}
mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
if [ "${LOAD:-1}" != 0 ]; then
  yes >/dev/null &
  load=$!
  trap 'kill $load' EXIT
fi
for launch in $(seq 1 "${LAUNCHES:-8}"); do
  for spin in "$@"; do
    for c in allreduce gather bcast; do
      mpirun --bind-to core -np 2 -x LD_PRELOAD="$lib" -x MCORECOLL_SPIN_US="$spin" \
        "$bench" --coll "$c" --min 8 --max 256K --factor 32 --rounds 8 \
        --csv "$out/spin$spin-$c-$launch.csv" >/dev/null
    done
  done
done
