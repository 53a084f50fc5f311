#!/usr/bin/env bash
# The README's `pip install .`, offline (--no-build-isolation --no-index), into a fresh venv: the
# package imports from the venv's site-packages, outside the checkout, and computes a layout.
# The venv sees the system site-packages for setuptools and wheel (a plain venv has no wheel).
# With ccache on PATH the build reuses the objects of an earlier build of the same sources.
# Usage: pip_install_test.sh PYTHON SOURCE_DIR
set -u
python=$1 src=$(cd "$2" && pwd)
if ! "$python" -c 'import venv, ensurepip' 2>/dev/null; then
  msg="$python has no venv / ensurepip module (apt-get install python3-venv)"
  if [[ -n ${LAYOUT_REQUIRE_PYTHON:-} ]]; then
    echo "FAIL: $msg (LAYOUT_REQUIRE_PYTHON is set)"
    exit 1
  fi
  echo "SKIP: $msg"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if ! "$python" -m venv --system-site-packages "$tmp/venv" >"$tmp/log" 2>&1; then
  echo "FAIL: $python -m venv"
  cat "$tmp/log"
  exit 1
fi
command -v ccache >/dev/null && export CMAKE_CXX_COMPILER_LAUNCHER=ccache
start=$SECONDS
if ! "$tmp/venv/bin/python" -m pip install --no-build-isolation --no-index "$src" >"$tmp/log" 2>&1
then
  echo "FAIL: pip install --no-build-isolation --no-index $src"
  tail -n 80 "$tmp/log"
  exit 1
fi
echo "pip install: $((SECONDS - start)) s"
# From a directory outside the checkout, so the import cannot pick up python/gf2layout.
# The layout, by hand from from_bases' definition (each input bit's basis lists the out dims):
# lane 1 -> (1, 0), lane 2 -> (0, 1), register 1 -> (2, 1), register 2 -> (0, 2). Then
# lane 3, register 1 -> (1,0) ^ (0,1) ^ (2,1) = (3, 0); the four bases span all 4 output bits, so
# the layout inverts and the inverse takes (3, 0) back to lane 3, register 1.
out=$(cd "$tmp" && "$tmp/venv/bin/python" -c '
import os, sys, gf2layout
from gf2layout import LinearLayout
where = os.path.realpath(gf2layout.__file__)
assert where.startswith(os.path.realpath(sys.argv[1]) + "/"), where
for f in ("__init__.pyi", "py.typed"):
    assert os.path.exists(os.path.join(os.path.dirname(where), f)), f + " not installed"
l = LinearLayout.from_bases([("lane", [[1, 0], [0, 1]]), ("register", [[2, 1], [0, 2]])],
                            ["dim0", "dim1"])
got = l.apply({"lane": 3, "register": 1})
assert got == {"dim0": 3, "dim1": 0}, got
back = l.invert().apply(got)
assert back == {"lane": 3, "register": 1}, back
print("ok")' "$tmp/venv" 2>&1)
if [[ $out != ok ]]; then
  echo "FAIL: the pip-installed package: $out"
  exit 1
fi
echo "ok: pip installed gf2layout into a venv, imported it from there and applied a layout"
