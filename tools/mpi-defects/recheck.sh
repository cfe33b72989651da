#!/usr/bin/env bash
# Builds recheck.c with MPICH's compiler and runs every case natively at np 2, one job each,
# 60 s at most: the release's line for doc/mpi-defects.md. Usage: recheck.sh [OUTDIR]
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$(mktemp -d)}
mkdir -p "$out"
mpicc.mpich -O1 "$here/recheck.c" -o "$out/recheck" || exit 1
mpichversion 2>/dev/null | head -1 || mpirun.mpich --version | head -2
for c in reduce-in-place testall-persistent allgather-init gather-init scatter-init max-uint64; do
  timeout 60 mpirun.mpich -np 2 "$out/recheck" "$c" >"$out/$c.log" 2>&1
  # A job that failed before its verdict (crashed, aborted, hung) shows the defect.
  grep ": \(present\|absent\)$" "$out/$c.log" ||
    echo "$c: present (the job failed: $(grep -m1 -i 'error\|signal\|assert' "$out/$c.log" | cut -c1-120))"
done
