#!/bin/bash
# Instructions a call costs when mcorecoll hands it to the MPI library, counted by callgrind
# (exact, unlike a timer on a shared 2-core machine): rank 0's instructions inside run_calls()
# for N and for 2N calls, the difference over N, per library given, np 2, Open MPI
# (mpicc/mpirun on PATH): those of mcorecoll's own code (functions of libmcorecoll) and of the
# whole call (the MPI library's too, whose polling varies from run to run). The collective's
# path is forced to pmpi (MCORECOLL_<X>=pmpi), or with BY_SIZE=1 its np 2 row hands the call's
# 8 bytes to PMPI and larger sizes to shared memory (pmpi:64 shm:1M pmpi): the v-forms then
# hand on by what their last header line found.
#
#   bench/handoff/handoff.sh LIBRARY... (e.g. an older build's libmcorecoll.so and this one's)
#   COLLECTIVES="bcast scan" picks some of bcast allreduce gather scatter reduce scan gatherv
#   scatterv alltoallv (default: the first six)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mpicc -O2 -o "$work/handoff_calls" "$here/handoff_calls.c"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
n=2000
count() {  # library collective calls -> "mcorecoll's whole" instructions in run_calls on rank 0
  upper=$(echo "$2" | tr a-z A-Z)
  if [ "${BY_SIZE:-0}" = 1 ]; then path="MCORECOLL_${upper}_PATHS_NP2=pmpi:64 shm:1M pmpi"; else path="MCORECOLL_$upper=pmpi"; fi
  mpirun --oversubscribe -np 2 -x LD_PRELOAD="$1" -x MCORECOLL_SETUP_AFTER=1 -x "$path" \
    sh -c "if [ \$OMPI_COMM_WORLD_RANK = 0 ]; then exec valgrind -q --tool=callgrind --callgrind-out-file=$work/out.$2.$3 \
      --toggle-collect=run_calls $work/handoff_calls $2 $3; else exec $work/handoff_calls $2 $3; fi" >/dev/null 2>&1
  callgrind_annotate --threshold=100 "$work/out.$2.$3" 2>/dev/null | awk '
    /PROGRAM TOTALS/ {gsub(",", "", $1); whole = $1}
    /libmcorecoll/ {gsub(",", "", $1); ours += $1}
    END {print ours + 0, whole + 0}'
}
printf 'library,collective,mcorecoll_instructions_per_call,all_instructions_per_call\n'
for lib in "$@"; do
  for c in ${COLLECTIVES:-bcast allreduce gather scatter reduce scan}; do
    read -r ours_a whole_a < <(count "$lib" "$c" "$n")
    read -r ours_b whole_b < <(count "$lib" "$c" $((2 * n)))
    printf '%s,%s,%s,%s\n' "$lib" "$c" "$(( (ours_b - ours_a) / n ))" "$(( (whole_b - whole_a) / n ))"
  done
done
