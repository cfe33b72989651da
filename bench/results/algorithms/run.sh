#!/usr/bin/env bash
# Allreduce by each of its node algorithms (decisions/route.hpp): run.sh OMPI_BUILD MPICH_BUILD OUTDIR PASSES.
# mcorecoll_bench with the library preloaded, one algorithm forced by name (MCORECOLL_ALLREDUCE,
# learning off) against the MPI library's own PMPI_Allreduce in the same launch, alternating
# (ratio: the algorithm over PMPI; both measures: the slowest rank's time, and the mean over
# ranks of each rank's own), np 2 bound, MPI_SUM of doubles: lines and tree at 8-248 B (a record
# line), fold and slices at 8 B-4 MiB, by factors of 4 (lines, tree: 2). The algorithms alternate
# within each pass, the two MPIs one after the other.
set -euo pipefail
ompi=$1 mpich=$2 out=$3 passes=${4:-2}
mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
sizes() {  # algorithm -> bench size arguments
  case $1 in
    lines | tree) echo "--min 8 --max 248 --factor 2" ;;
    *) echo "--min 8 --max 4M --factor 4" ;;
  esac
}
for pass in $(seq 1 "$passes"); do
  for alg in lines tree fold slices; do
    # shellcheck disable=SC2046
    mpirun.openmpi --bind-to core -np 2 --mca btl self,vader -x "LD_PRELOAD=$ompi/libmcorecoll.so.0" \
      -x MCORECOLL_LEARN=off -x "MCORECOLL_ALLREDUCE=$alg" "$ompi/bench/mcorecoll_bench" --coll allreduce \
      $(sizes "$alg") --csv "$out/openmpi-np2-allreduce-$alg-$pass.csv" >/dev/null
    # shellcheck disable=SC2046
    mpirun.mpich -bind-to core -np 2 -genv LD_PRELOAD "$mpich/libmcorecoll.so.0" \
      -genv MCORECOLL_LEARN off -genv MCORECOLL_ALLREDUCE "$alg" "$mpich/bench/mcorecoll_bench" --coll allreduce \
      $(sizes "$alg") --csv "$out/mpich-np2-allreduce-$alg-$pass.csv" >/dev/null
  done
done
