#!/bin/bash
# The device-memory check's cost in a process without a GPU runtime (issue #42): the hand-off
# to the MPI library (MCORECOLL_<X>=pmpi, so that mcorecoll_bench's difference is the
# interposition's cost) with the library before the check and with it, np 2, Open MPI, bound;
# three launches each, alternating. Usage: run.sh BEFORE_LIB AFTER_LIB OUTDIR
set -eu
before=$1 after=$2 out=$3
bench=${BENCH:-build-test-openmpi/bench/mcorecoll_bench}
mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
for run in 1 2 3; do
  for which in before after; do
    lib=$before; [ "$which" = after ] && lib=$after
    for c in bcast allreduce gather; do
      upper=$(echo "$c" | tr a-z A-Z)
      mpirun --bind-to core -np 2 -x LD_PRELOAD="$lib" -x "MCORECOLL_$upper=pmpi" \
        "$bench" --coll "$c" --min 8 --max 64 --rounds 40 --csv "$out/$which-$c-$run.csv" >/dev/null
    done
  done
done
