#!/usr/bin/env bash
# Usage: run.sh BUILD_DIR MPI(openmpi|mpich) NP LAUNCHES > times.txt
# Alternates launches without and with MCORECOLL_REPORT; prints "MPI np report|none slowest_ms".
set -euo pipefail
build=$1 mpi=$2 np=$3 launches=$4
here=$(cd "$(dirname "$0")" && pwd)
cc=mpicc; run=(mpirun --oversubscribe -np "$np"); envflag=-x
if [ "$mpi" = mpich ]; then cc=mpicc.mpich; run=(mpirun.mpich -np "$np"); envflag=-genv; fi
prog=$(mktemp -d)/finalize_time
"$cc" -O2 -o "$prog" "$here/finalize_time.c"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
report=$(mktemp -d)/job.json
setting() { if [ "$mpi" = mpich ]; then echo -genv "$1" "$2"; else echo -x "$1=$2"; fi; }
for ((i = 0; i < launches; i++)); do
  for mode in none report; do
    extra=$(setting LD_PRELOAD "$(realpath "$build"/libmcorecoll.so)")
    extra+=" $(setting MCORECOLL_LEARN_DIR none)"
    [ "$mode" = report ] && extra+=" $(setting MCORECOLL_REPORT "$report")"
    # shellcheck disable=SC2086
    slowest=$("${run[@]}" $extra "$prog" | awk '/^finalize_ms/ { if ($3 > m) m = $3 } END { print m }')
    echo "$mpi $np $mode $slowest"
  done
done
