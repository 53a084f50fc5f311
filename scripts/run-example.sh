#!/usr/bin/env bash
# Builds the project and runs the main job on the built-in default example: layoutctl shows the
# layout of interchange §1, the C++ API example plans a layout conversion between two
# distributed layouts of a 16x16 tile, and layoutctl gemm generates the XeGPU RFC's bf16 GEMM
# kernel for 1000x1000x1000, writes its OpenCL C / SPIR-V / plan, and verifies it in the Xe
# simulator against an exact reference; layout-explorer writes the default layout's tensor view
# as SVG and, under xvfb-run, as a PNG screenshot of the app.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j2 --target layoutctl conversion_example layout-explorer
echo "== layoutctl show (built-in example) =="
./build/explorer/cli/layoutctl show
echo
echo "== examples/conversion_example =="
./build/examples/conversion_example
echo
echo "== layoutctl gemm (the RFC tiling, 1000^3 bf16, simulated and verified) =="
./build/explorer/cli/layoutctl gemm --m 1000 --n 1000 --k 1000 --element-type bf16 --runner sim \
  --emit build/gemm-example
echo
echo "== layout-explorer (the default 16x16 layout: SVG, and a screenshot under xvfb-run) =="
./build/explorer/gui/layout-explorer --svg build/explorer-example.svg
xvfb-run -a -s "-screen 0 1600x1000x24" ./build/explorer/gui/layout-explorer \
  --screenshot build/explorer-example.png --report build/explorer-example.json
echo "wrote build/explorer-example.svg ($(grep -c 'class="cell"' build/explorer-example.svg) cells)" \
  "and build/explorer-example.png; start the app with ./build/explorer/gui/layout-explorer"
