#!/usr/bin/env bash
# How the CSVs beside this file were made: inside the Debian 13 root, from the checkout's
# build-test-* directories (release builds), with
#   tools/debian13 run bash bench/results/debian13/run.sh OUT
# mcorecoll_bench (the library's MPI_X against the MPI library's PMPI_X in the same run, with
# the defaults) for every collective (all, reductions, node-only) at np 2 bound to cores and np 4
# (oversubscribed on the 2-core machine); under Open MPI 5 also against its coll/han and
# coll/sm switched on (what a user would otherwise try): there PMPI_X is that component.
set -uo pipefail
out=${1:?usage: run.sh OUT}
mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
bench_args=(--max 256K --rounds 5 --budget 30)
ompi() {  # NAME NP MCA... : one Open MPI run of each group
  local name=$1 np=$2; shift 2
  local bind=(--bind-to core); [ "$np" -gt 2 ] && bind=(--bind-to none --oversubscribe)
  for group in all reductions node-only; do
    mpirun.openmpi "${bind[@]}" -np "$np" --mca btl self,vader "$@" build-test-openmpi/bench/mcorecoll_bench \
      --coll "$group" "${bench_args[@]}" --csv "$out/openmpi-$name-np$np-$group.csv" >/dev/null 2>&1 ||
      echo "openmpi $name np$np $group: failed"
  done
}
mpich() {  # NP
  local np=$1
  for group in all reductions node-only; do
    mpirun.mpich -np "$np" build-test-mpich/bench/mcorecoll_bench \
      --coll "$group" "${bench_args[@]}" --csv "$out/mpich-default-np$np-$group.csv" >/dev/null 2>&1 ||
      echo "mpich np$np $group: failed"
  done
}
ompi default 2
ompi han 2 --mca coll_han_priority 100
ompi sm 2 --mca coll_sm_priority 100
ompi default 4
mpich 2
mpich 4
