# mcorecoll's Spack recipe: one build per MPI (mcorecoll ^openmpi, mcorecoll ^mpich), the
# Fortran bindings as a variant, and a smoke test that runs a preloaded MPI program and reads
# the job's report. Checked with tools/check-spack-recipe (a Spack checkout given to it; README
# says which version); test/tools/check_recipe.py reads it on every test run without Spack.
import json
import os
from pathlib import Path

from spack.package import *

# The checkout this recipe lies in (tools/spack/packages/mcorecoll/package.py): Spack clones
# its main branch. A site that mirrors mcorecoll elsewhere sets `git` to its mirror.
CHECKOUT = Path(__file__).resolve().parents[4]

SMOKE_PROGRAM = r"""
#include <mpi.h>
#include <stdio.h>
int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, value = 0, sum = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (int i = 0; i < 100; i++) {
    value = rank == 0 ? i : -1;
    MPI_Bcast(&value, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Allreduce(&value, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  }
  if (rank == 0) printf("smoke: %s\n", value == 99 ? "passed" : "FAILED");
  MPI_Finalize();
  return value != 99;
}
"""


class Mcorecoll(MesonPackage):
    """Multicore-aware MPI collectives on shared memory: a PMPI interposition library
    (LD_PRELOAD or -lmcorecoll) that serves the collectives of unmodified MPI programs inside
    and across multicore nodes, or hands them to the MPI library."""

    homepage = CHECKOUT.as_uri()
    git = CHECKOUT.as_uri()

    maintainers("mcorecoll")
    license("BSD-3-Clause")

    version("main", branch="main")

    variant("fortran", default=True, description="Fortran entry points (mpif.h, use mpi, use mpi_f08)")

    depends_on("c", type="build")
    depends_on("cxx", type="build")
    depends_on("fortran", type="build", when="+fortran")
    depends_on("meson@0.63:", type="build")
    depends_on("ninja", type="build")
    depends_on("pkgconfig", type="build")
    depends_on("python@3.8:", type="build")
    depends_on("mpi")
    depends_on("hwloc@2:")
    depends_on("numactl")
    # Built against one MPI's ABI (Open MPI's handles are pointers, MPICH's integers).
    requires("^openmpi", "^mpich", policy="one_of", msg="mcorecoll is built for Open MPI or MPICH")

    def meson_args(self):
        flavor = "openmpi" if self.spec.satisfies("^openmpi") else "mpich"
        return [
            "-Dmpi=" + flavor,
            "-Dfortran=" + ("true" if self.spec.satisfies("+fortran") else "false"),
            "-Dtests=false",
        ]

    def smoke(self, workdir):
        """Builds a small MPI program, runs it on 2 ranks with the library preloaded and reads
        the report: its bcast and allreduce calls counted, the job 2 ranks."""
        workdir = Path(workdir)
        workdir.mkdir(parents=True, exist_ok=True)
        program, report = workdir / "smoke", workdir / "report.json"
        source = program.with_suffix(".c")
        source.write_text(SMOKE_PROGRAM)
        Executable(self.spec["mpi"].mpicc)(str(source), "-o", str(program))
        library = find_libraries("libmcorecoll", root=self.prefix, recursive=True, shared=True)
        env = dict(os.environ, LD_PRELOAD=library[0], MCORECOLL_REPORT=str(report),
                   OMPI_MCA_rmaps_base_oversubscribe="1")
        mpiexec = Executable(join_path(self.spec["mpi"].prefix.bin, "mpiexec"))
        out = mpiexec("-n", "2", str(program), output=str, error=str, env=env)
        if "smoke: passed" not in out:
            raise InstallError("the preloaded program failed:\n" + out)
        job = json.loads(report.read_text())
        calls = {c["collective"]: 0 for c in job["collectives"]}
        for c in job["collectives"]:
            calls[c["collective"]] += c["calls"]
        if job["job"]["ranks"] != 2 or calls.get("bcast") != 200 or calls.get("allreduce") != 200:
            raise InstallError(f"the report does not count the program's calls: {job}")

    def test_preload(self):
        """a preloaded MPI program's calls are counted in mcorecoll's report"""
        self.smoke(Path(self.test_suite.current_test_cache_dir) / "smoke")

    @run_after("install")
    @on_package_attributes(run_tests=True)
    def check_preload(self):
        self.smoke(Path(self.stage.path) / "smoke")
