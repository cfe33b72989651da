#!/usr/bin/env python3
"""Reads mcorecoll's Spack recipe (tools/spack/packages/mcorecoll/package.py) without Spack:
the `spack.package` names it uses are stood in for here, recording what it declares. Checks
what the recipe promises: one build per MPI (Open MPI or MPICH, nothing else), the Fortran
bindings as a variant, the dependencies, meson_args naming only options meson_options.txt
has, with the right values for each MPI and variant; then runs the recipe's own smoke test
(compile, preload, read the report) against this build, with this machine's MPI standing in
for Spack's. tools/check-spack-recipe checks the recipe with a real Spack.

Usage: check_recipe.py RECIPE MESON_OPTIONS LIBRARY openmpi|mpich
"""
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tempfile
import types
from pathlib import Path

declared = {"version": [], "variant": [], "depends_on": [], "requires": [], "license": [], "maintainers": []}


def directive(kind):
    def record(*args, **kwargs):
        declared[kind].append((args, kwargs))
    return record


class InstallError(Exception):
    pass


class Executable:
    def __init__(self, path):
        self.path = str(path)

    def __call__(self, *args, output=None, error=None, env=None):
        done = subprocess.run([self.path, *args], env=env, text=True, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, timeout=120)
        if done.returncode != 0:
            raise InstallError(f"{self.path} {' '.join(args)} failed ({done.returncode}):\n{done.stdout}")
        return done.stdout if output is str else None


def decorator_factory(*_args, **_kwargs):
    return lambda f: f


def stand_in_spack():
    package = types.ModuleType("spack.package")
    package.MesonPackage = type("MesonPackage", (), {})
    for kind in declared:
        setattr(package, kind, directive(kind))
    package.InstallError = InstallError
    package.Executable = Executable
    package.run_after = decorator_factory
    package.on_package_attributes = decorator_factory
    package.join_path = os.path.join
    package.find_libraries = lambda name, root, recursive, shared: sorted(
        str(p) for p in Path(root).rglob(name + ".so*"))
    package.__all__ = [n for n in dir(package) if not n.startswith("_")]
    spack = types.ModuleType("spack")
    spack.package = package
    sys.modules["spack"], sys.modules["spack.package"] = spack, package


class Spec:
    """What the recipe asks of self.spec: satisfies('^openmpi'), satisfies('+fortran'), ['mpi']."""

    def __init__(self, flavor, fortran, mpi_prefix):
        self.flavor, self.fortran = flavor, fortran
        self.mpi = types.SimpleNamespace(prefix=types.SimpleNamespace(bin=str(mpi_prefix / "bin")),
                                         mpicc=str(mpi_prefix / "bin" / "mpicc"))

    def satisfies(self, what):
        return {"^openmpi": self.flavor == "openmpi", "^mpich": self.flavor == "mpich",
                "+fortran": self.fortran, "~fortran": not self.fortran}[what]

    def __getitem__(self, name):
        assert name == "mpi", name
        return self.mpi


def main():
    recipe, options_file, library, flavor = sys.argv[1:5]
    for name in [n for n in os.environ if n.startswith("MCORECOLL_")]:  # the smoke test's settings are its own
        del os.environ[name]
    if os.geteuid() == 0:  # Open MPI's mpiexec refuses root without these
        os.environ.setdefault("OMPI_ALLOW_RUN_AS_ROOT", "1")
        os.environ.setdefault("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
    stand_in_spack()
    spec = importlib.util.spec_from_file_location("mcorecoll_recipe", recipe)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    Package = module.Mcorecoll
    failures = []

    def check(ok, what):
        print(("ok: " if ok else "FAILED: ") + what)
        if not ok:
            failures.append(what)

    check(issubclass(Package, sys.modules["spack.package"].MesonPackage), "a MesonPackage")
    deps = {args[0].split("@")[0] for args, _ in declared["depends_on"]}
    check({"mpi", "hwloc", "numactl", "meson"} <= deps, f"depends on mpi, hwloc, numactl, meson ({sorted(deps)})")
    requires = [(args, kw) for args, kw in declared["requires"]]
    check(any(set(args) == {"^openmpi", "^mpich"} and kw.get("policy") == "one_of" for args, kw in requires),
          "requires one of ^openmpi, ^mpich")
    check(any(args[0] == "fortran" for args, _ in declared["variant"]), "a fortran variant")
    options = set(re.findall(r"option\('(\w+)'", Path(options_file).read_text()))
    with tempfile.TemporaryDirectory() as work:
        work = Path(work)
        # This machine's MPI where Spack's would be: bin/mpicc and bin/mpiexec of the flavor.
        mpi_prefix = work / "mpi"
        (mpi_prefix / "bin").mkdir(parents=True)
        for tool in ("mpicc", "mpiexec", "hydra_pmi_proxy"):  # Hydra runs its proxy from its own folder
            found = shutil.which(f"{tool}.{flavor}") or shutil.which(tool)
            if found:
                (mpi_prefix / "bin" / tool).symlink_to(found)
        for mpi in ("openmpi", "mpich"):
            for fortran in (True, False):
                package = Package()
                package.spec = Spec(mpi, fortran, mpi_prefix)
                args = package.meson_args()
                named = {a[2:].split("=")[0] for a in args}
                check(named <= options, f"meson_args {args} name options meson_options.txt has")
                check(f"-Dmpi={mpi}" in args and f"-Dfortran={'true' if fortran else 'false'}" in args,
                      f"meson_args for ^{mpi} {'+' if fortran else '~'}fortran: {args}")
        # The smoke test itself, on this build: its prefix holds the library.
        prefix = work / "prefix"
        (prefix / "lib").mkdir(parents=True)
        shutil.copy(library, prefix / "lib" / "libmcorecoll.so")
        package = Package()
        package.spec = Spec(flavor, False, mpi_prefix)
        package.prefix = str(prefix)
        try:
            package.smoke(work / "smoke")
            check(True, "the recipe's smoke test passes on this build")
        except InstallError as e:
            check(False, f"the recipe's smoke test: {e}")
    print(f"check_recipe: {'FAILED' if failures else 'passed'}")
    return 1 if failures else 0


sys.exit(main())
