#!/bin/bash
# The small calls, more carefully than run.sh: K launches per build alternated, each
# `mcorecoll_bench --coll COLL --max MAX --factor 4 --rounds 20 --iters 1000`, np 2 bound to
# cores; per size the median over launches of the ratio to the MPI library's own (slowest
# rank) and of mcorecoll's time per call.
# Usage: FLAVOR=openmpi|mpich COLL=bcast MAX=4096 abtest.sh K BUILD_DIR...
K=$1; shift
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
for i in $(seq "$K"); do for b in "$@"; do
  rm -f "$out/run.csv"
  args=(--coll "${COLL:-bcast}" --max "${MAX:-4096}" --factor 4 --rounds 20 --iters 1000 --csv "$out/run.csv")
  if [ "${FLAVOR:-openmpi}" = mpich ]; then
    mpirun.mpich -np 2 -bind-to core -env LD_LIBRARY_PATH "$b" "$b/bench/mcorecoll_bench" "${args[@]}" >/dev/null 2>&1
  else
    mpirun --bind-to core -np 2 -x LD_LIBRARY_PATH="$b" "$b/bench/mcorecoll_bench" "${args[@]}" >/dev/null 2>&1
  fi
  awk -F, 'NR>1{print $3, $4, $6}' "$out/run.csv" >> "$out/$(echo "$b" | tr / _)"
done; done
for b in "$@"; do python3 - "$out/$(echo "$b" | tr / _)" "$b" <<'PY'
import collections, statistics, sys
ratio, us = collections.defaultdict(list), collections.defaultdict(list)
for line in open(sys.argv[1]):
    size, t, r = line.split()
    ratio[int(size)].append(float(r)); us[int(size)].append(float(t))
print(sys.argv[2], ' '.join('%d B: %.3fx %.0f ns' % (k, statistics.median(v), 1000 * statistics.median(us[k]))
                            for k, v in sorted(ratio.items())))
PY
done
