"""The build of the Python package (pyproject.toml holds its metadata).

`pip install ./python` and `make wheel` from a source tree where `make` has built
the library put a copy of it in the package, with the data it reads:

    libtrim/lib/libtrim.so.0          the tree's build/lib/libtrim.so.0
    libtrim/share/trim/energy_tables  the tree's energy_tables/ and models/
    libtrim/share/trim/models

so the installed package needs neither `make install` nor TRIM_LIBRARY: it loads
the library it was built with (libtrim/_core.py, find_library), and that library
finds the data next to itself (PREFIX/lib -> PREFIX/share/trim, lib/datadir.c).
The build directory is TRIM_BUILD_DIR if set, else ../build next to this file.
Without a built library (a copy of python/ alone: `make install`'s, the tests')
the package is pure Python and finds an installed libtrim as before; then the
build says so.
"""
import os
import shutil

from setuptools import Distribution, setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))
SONAME = "libtrim.so.0"


def _tree_library():
    """The built library and the source tree it belongs to, or (None, reason)."""
    build = os.environ.get("TRIM_BUILD_DIR") or os.path.join(HERE, "..", "build")
    lib = os.path.join(build, "lib", SONAME)
    tree = os.path.join(HERE, "..")
    if not os.path.isfile(lib):
        return None, None, "no %s" % os.path.normpath(lib)
    for d in ("energy_tables", "models"):
        if not os.path.isdir(os.path.join(tree, d)):
            return None, None, "no %s" % os.path.normpath(os.path.join(tree, d))
    return os.path.realpath(lib), os.path.normpath(tree), None


class BuildWithLibrary(build_py):
    """build_py, then the tree's library and data copied into the built package."""

    def run(self):
        super().run()
        lib, tree, why = _tree_library()
        if not lib:
            print("libtrim: %s: the package will look for an installed libtrim (make install) "
                  "or TRIM_LIBRARY" % why)
            return
        dest = os.path.join(self.build_lib, "libtrim")
        os.makedirs(os.path.join(dest, "lib"), exist_ok=True)
        shutil.copyfile(lib, os.path.join(dest, "lib", SONAME))
        os.chmod(os.path.join(dest, "lib", SONAME), 0o755)
        for d in ("energy_tables", "models"):
            out = os.path.join(dest, "share", "trim", d)
            shutil.rmtree(out, ignore_errors=True)
            shutil.copytree(os.path.join(tree, d), out)
        print("libtrim: bundled %s and the data of %s" % (lib, tree))


class BinaryDistribution(Distribution):
    """A package that carries a shared library is not pure Python: its wheel is
    tagged for this platform."""

    def has_ext_modules(self):
        return _tree_library()[0] is not None


setup(cmdclass={"build_py": BuildWithLibrary}, distclass=BinaryDistribution)
