#!/usr/bin/env bash
# Runs the pytest suite of the Python module against the package in the build tree.
# Usage: run_pytest.sh PYTHON BUILD_PACKAGE_DIR TEST_DIR [LAYOUTCTL]
set -u
python=$1 build=$2 tests=$3
export GF2LAYOUT_LAYOUTCTL=${4:-}
if ! "$python" -c 'import pytest, numpy' 2>/dev/null; then
  msg="$python has no pytest or numpy (apt-get install python3-pytest python3-numpy)"
  if [[ -n ${LAYOUT_REQUIRE_PYTHON:-} ]]; then
    echo "FAIL: $msg (LAYOUT_REQUIRE_PYTHON is set)"
    exit 1
  fi
  echo "SKIP: $msg"
  exit 77
fi
GF2LAYOUT_BUILD_DIR=$build exec "$python" -m pytest -q -p no:cacheprovider "$tests"
