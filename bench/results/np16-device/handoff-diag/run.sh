#!/bin/bash
# np 16 diagnosis of handed-on gatherv and reduce: defaults, forced pmpi, library disabled; twice each
source .device-run/bundle/env.sh
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
out=$OUT/diag; mkdir -p $out
for mpi in openmpi mpich; do
  lib=$PWD/.device-run/$mpi/libmcorecoll.so.0; bench=$PWD/.device-run/$mpi/mcorecoll_bench
  for rep in 1 2; do
    for coll in gatherv reduce; do
      up=$(echo $coll | tr a-z A-Z)
      for setting in none MCORECOLL_${up}=pmpi MCORECOLL_DISABLE=1; do
        if [ $mpi = openmpi ]; then l=(mpirun.openmpi -np 16 --bind-to core -x LD_PRELOAD=$lib); [ $setting != none ] && l+=(-x $setting)
        else l=(mpirun.mpich -np 16 -bind-to core -genv LD_PRELOAD $lib); [ $setting != none ] && l+=(-genv ${setting%%=*} ${setting#*=}); fi
        timeout 60 "${l[@]}" $bench --coll $coll --max 1K --rounds 10 --csv $out/$mpi-$coll-${setting//=/-}-$rep.csv >/dev/null 2>&1 || echo "$mpi $coll $setting $rep failed" >>$out/failed.txt
        pkill -9 -f mcorecoll_bench 2>/dev/null || true
      done
    done
  done
done
ls $out | wc -l
