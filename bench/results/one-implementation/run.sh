#!/bin/bash
# Before and after the collectives were written once (issue #40, item 1): mcorecoll_bench with
# the library of BASE (a build directory of the commit before) and of NEW, launches alternated
# base, new, new, base, for each MPI, np and group. Each CSV holds both measures against the
# MPI library's own PMPI_X of the same launch (four launches each, alternated base, new, new,
# base, base, new, new, base); compare.py sets the two builds' ratios side by side.
# Usage: run.sh BASE_OMPI NEW_OMPI BASE_MPICH NEW_MPICH OUT_DIR
set -eu
base_ompi=$1 new_ompi=$2 base_mpich=$3 new_mpich=$4 out=$5
budget=${BUDGET:-35}
# MPICH spins when oversubscribed: np 4 on two cores measures its waits, not ours.
ompi_nps=${OMPI_NPS:-2 4} mpich_nps=${MPICH_NPS:-2}
mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
run() {  # flavor np group build label
  local flavor=$1 np=$2 group=$3 build=$4 label=$5 launcher
  local args=(--coll "$group" --max 1M --alltoall-max 256K --rounds 20 --budget "$budget"
              --csv "$out/$flavor-np$np-$group-$label.csv")
  if [ "$flavor" = openmpi ]; then
    launcher=(mpirun --oversubscribe --bind-to none -np "$np" -x LD_LIBRARY_PATH="$build")
    [ "$np" -le 2 ] && launcher=(mpirun --bind-to core -np "$np" -x LD_LIBRARY_PATH="$build")
  else
    launcher=(mpirun.mpich -np "$np" -env LD_LIBRARY_PATH "$build")
    [ "$np" -le 2 ] && launcher+=(-bind-to core)
  fi
  "${launcher[@]}" "$build/bench/mcorecoll_bench" "${args[@]}" > /dev/null
}
for flavor in openmpi mpich; do
  if [ "$flavor" = openmpi ]; then base=$base_ompi new=$new_ompi nps=$ompi_nps
  else base=$base_mpich new=$new_mpich nps=$mpich_nps; fi
  for np in $nps; do
    for group in all reductions; do
      run "$flavor" "$np" "$group" "$base" base-1
      run "$flavor" "$np" "$group" "$new" new-1
      run "$flavor" "$np" "$group" "$new" new-2
      run "$flavor" "$np" "$group" "$base" base-2
      run "$flavor" "$np" "$group" "$base" base-3
      run "$flavor" "$np" "$group" "$new" new-3
      run "$flavor" "$np" "$group" "$new" new-4
      run "$flavor" "$np" "$group" "$base" base-4
    done
  done
done
