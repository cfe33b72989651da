#!/usr/bin/env bash
# The main job, from a fresh Debian machine: installs what is missing, builds mcorecoll for one
# MPI, then runs real MPI programs under the launcher with the library and shows what it did:
# the hierarchy each rank sees, an unmodified program's calls counted per path, and the
# library against the MPI library's own barrier, side by side.
# Usage: tools/demo.sh [openmpi|mpich]   (default: openmpi)
set -euo pipefail
cd "$(dirname "$0")/.."
flavor=${1:-openmpi}
case $flavor in
  openmpi) launcher=mpirun.openmpi; np_flag=(--oversubscribe -np) ;;
  mpich) launcher=mpirun.mpich; np_flag=(-np) ;;
  *) echo "demo: unknown MPI '$flavor' (openmpi or mpich)" >&2; exit 2 ;;
esac

tools/install-deps.sh
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# A step's output shows only when it fails, with what failed.
quietly() {
  local out
  if ! out=$("$@" 2>&1); then
    echo "$out" | tail -60 >&2
    echo "demo: failed: $*" >&2
    exit 1
  fi
}
dir=build-demo-$flavor
if [ -f "$dir/build.ninja" ]; then
  quietly meson setup --reconfigure "$dir" -Dmpi="$flavor"
else
  quietly meson setup "$dir" -Dmpi="$flavor"
fi
quietly ninja -C "$dir"
run="$dir/tools/mcorecoll-run"

echo "== What each rank sees (4 ranks; a pretend 2-socket machine through the test knobs)"
MCORECOLL_TEST_TOPOLOGY="pack:2 core:2 pu:1" MCORECOLL_TEST_BINDING=0,1,2,3 \
  "$run" "$launcher" "${np_flag[@]}" 4 "$dir/tools/mcorecoll-info"

echo
echo "== An unmodified MPI program (not linked with mcorecoll), preloaded, with statistics"
MCORECOLL_STATS=1 MCORECOLL_VERBOSE=1 \
  "$run" "$launcher" "${np_flag[@]}" 2 "$dir/test/mpi/test_collectives" 1

echo
echo "== MPI_Barrier through mcorecoll against PMPI_Barrier, same run, 2 ranks (ratio < 1: faster)"
bind=()
[ "$flavor" = openmpi ] && bind=(--bind-to core)
"$launcher" "${bind[@]}" -np 2 "$dir/bench/mcorecoll_bench" --coll barrier --iters 2000 --rounds 11
