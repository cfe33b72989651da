#!/usr/bin/env bash
# Installs what mcorecoll needs to build, test and benchmark on Debian 12 (bookworm) or 13
# (trixie), by the same package names: both MPIs, Meson, Catch2 (2 or 3), hwloc, libnuma,
# gfortran, gnuplot, iproute2 and procps (the multi-host bed), mpi4py and numpy (the Python
# test), Slurm and munge (tools/slurmbed: jobs under srun and sbatch). Skips apt when everything is there; apt's output shows only when it fails.
set -euo pipefail

packages=(
  build-essential g++ gfortran pkg-config meson ninja-build python3
  catch2 libhwloc-dev hwloc libnuma-dev
  openmpi-bin libopenmpi-dev
  mpich libmpich-dev
  gnuplot-nox iproute2 procps
  python3-mpi4py python3-numpy
  slurmctld slurmd slurm-client munge
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

sudo=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "install-deps: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
  sudo=(sudo)
fi
echo "install-deps: installing ${missing[*]}"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! { "${sudo[@]}" apt-get update -qq &&
       DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"; } \
     >"$log" 2>&1; then
  tail -20 "$log" >&2
  echo "install-deps: apt-get failed" >&2
  exit 1
fi
