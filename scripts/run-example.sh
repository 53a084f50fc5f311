#!/usr/bin/env bash
# Builds the project and runs the main job on the built-in default example: layoutctl shows the
# layout of interchange §1, and the C++ API example plans a layout conversion between two
# distributed layouts of a 16x16 tile.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j2 --target layoutctl conversion_example
echo "== layoutctl show (built-in example) =="
./build/explorer/cli/layoutctl show
echo
echo "== examples/conversion_example =="
./build/examples/conversion_example
