#!/bin/bash
# np 16, Open MPI: where the handed-on gatherv of 4-64 B loses its time
source .device-run/bundle/env.sh
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
out=$OUT/diag2; mkdir -p $out
d=$PWD/.device-run/openmpi; bench=$d/mcorecoll_bench
one() {  # name lib min env...
  local name=$1 lib=$2 min=$3; shift 3
  local l=(mpirun.openmpi -np 16 --bind-to core -x LD_PRELOAD=$lib)
  for e in "$@"; do l+=(-x "$e"); done
  for rep in 1 2; do
    timeout 60 "${l[@]}" $bench --coll gatherv --min $min --max 256 --rounds 10 --csv $out/$name-$rep.csv >/dev/null 2>&1 || echo "$name $rep failed" >>$out/failed.txt
    pkill -9 -f mcorecoll_bench 2>/dev/null || true
  done
}
one defaults $d/libmcorecoll.so.0 1
one defaults-from4 $d/libmcorecoll.so.0 4
one row-no-shm-at-1 $d/libmcorecoll.so.0 1 "MCORECOLL_GATHERV_PATHS_NP16=pmpi:64 shm:512K pmpi"
one nolook $d/libmcorecoll-nolook.so.0 1
one nolook-from4 $d/libmcorecoll-nolook.so.0 4
one forced-pmpi $d/libmcorecoll.so.0 1 MCORECOLL_GATHERV=pmpi
ls $out | wc -l
