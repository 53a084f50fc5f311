"""`pip install .`: builds the extension gf2layout._core with the project's own CMake build (only the
target gf2layout_core and the libraries it links) and packages it with python/gf2layout.

Offline: `pip install --no-build-isolation --no-index .` (needs setuptools and wheel installed).
Environment: CMAKE_CXX_COMPILER_LAUNCHER (e.g. ccache), CMAKE_BUILD_PARALLEL_LEVEL (default: every
core), CMAKE_ARGS (extra configure arguments), GF2LAYOUT_PIP_BUILD_DIR (a build folder kept between
installs; by default each install builds in a temporary folder outside the source tree).
"""

import atexit
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.errors import ExecError, SetupError

ROOT = Path(__file__).resolve().parent


def project_version():
    # One version for the C++ project and the Python package: the one in project(...).
    text = (ROOT / "CMakeLists.txt").read_text(encoding="utf-8")
    match = re.search(r"project\(\s*layout_engine\s+VERSION\s+(\d+(?:\.\d+)*)", text)
    if not match:
        raise SetupError("no `project(layout_engine VERSION x.y.z)` in CMakeLists.txt")
    return match.group(1)


def build_base():
    # setuptools' build/ and *.egg-info would otherwise land in the checkout (pip builds in tree).
    kept = os.environ.get("GF2LAYOUT_PIP_BUILD_DIR")
    if kept:
        path = os.path.abspath(kept)
        os.makedirs(path, exist_ok=True)
        return path
    path = tempfile.mkdtemp(prefix="gf2layout-build-")
    atexit.register(shutil.rmtree, path, ignore_errors=True)
    return path


def run(cmd, what):
    print("+", shlex.join(cmd), flush=True)
    if subprocess.run(cmd).returncode != 0:
        raise ExecError(f"{what} failed (command: {shlex.join(cmd)}); see the output above")


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        cmake = shutil.which("cmake")
        if cmake is None:
            raise SetupError(
                "cmake was not found on PATH: building gf2layout needs CMake 3.21+, a C++20 "
                "compiler, pybind11, nlohmann-json and Boost (see README.md, Dependencies)")
        build_dir = Path(self.build_temp).resolve() / "cmake"
        args = [
            "-DCMAKE_BUILD_TYPE=Release",
            "-DLAYOUT_BUILD_PYTHON=ON",
            f"-DPython_EXECUTABLE={sys.executable}",
            "-DLAYOUT_BUILD_TESTS=OFF",
            "-DLAYOUT_BUILD_BENCHMARKS=OFF",
            "-DLAYOUT_BUILD_EXAMPLES=OFF",
            "-DLAYOUT_BUILD_TOOLS=OFF",
            "-DLAYOUT_INSTALL=OFF",
        ]
        launcher = os.environ.get("CMAKE_CXX_COMPILER_LAUNCHER")
        if launcher:
            args.append(f"-DCMAKE_CXX_COMPILER_LAUNCHER={launcher}")
        args += shlex.split(os.environ.get("CMAKE_ARGS", ""))
        run([cmake, "-S", str(ROOT), "-B", str(build_dir), *args], "CMake configure")
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL") or str(os.cpu_count() or 1)
        run([cmake, "--build", str(build_dir), "--target", "gf2layout_core", "--parallel", jobs],
            "CMake build of gf2layout_core")
        # python/CMakeLists.txt puts the module next to a copy of the package files.
        built = sorted((build_dir / "python" / "gf2layout").glob("_core*.so"))
        if not built:
            raise SetupError(f"the build made no _core*.so in {build_dir / 'python' / 'gf2layout'}")
        dest = Path(self.get_ext_fullpath(ext.name))
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(built[0], dest)


BUILD_BASE = build_base()

setup(
    version=project_version(),
    packages=["gf2layout"],
    package_dir={"gf2layout": "python/gf2layout"},
    package_data={"gf2layout": ["__init__.pyi", "py.typed"]},
    ext_modules=[Extension("gf2layout._core", sources=[])],
    cmdclass={"build_ext": CMakeBuild},
    options={"build": {"build_base": BUILD_BASE}, "egg_info": {"egg_base": BUILD_BASE}},
    zip_safe=False,
)
