#!/usr/bin/env bash
# Installs the Debian 12 packages the project needs. Idempotent: when everything is present it
# does nothing; otherwise it runs `apt-get update` and installs what is missing.
set -euo pipefail

packages=(
  build-essential cmake          # compiler and build system
  pkg-config                     # the installed package test builds a program with pkg-config
  libgtest-dev                   # GoogleTest: the test suites
  libbenchmark-dev               # Google Benchmark: benchmarks/
  nlohmann-json3-dev             # layout JSON and the batch protocol
  libboost-dev                   # Boost.Multiprecision: exact sizes of layouts past 64 bits
  clang-14 libclang-rt-14-dev    # libFuzzer targets for the parsers (tests/fuzz)
  clang-format-14                # the formatting check of the test command (.clang-format)
  llvm-spirv-14                  # OpenCL C -> SPIR-V for the generated GEMM kernels (with clang-14)
  spirv-tools                    # spirv-val: every emitted SPIR-V module is validated in the tests
  libze-dev                      # the Level Zero loader: runs the kernels where an Intel GPU exists
  opencl-c-headers ocl-icd-libopencl1  # OpenCL headers and ICD loader: gemm --target opencl
  pocl-opencl-icd                # PoCL, an OpenCL CPU device: the emitted kernels run in the tests
  libimgui-dev libglfw3-dev      # Dear ImGui + GLFW: the desktop explorer (explorer/gui)
  libstb-dev libgl-dev           # stb_image(_write) for its PNG export and tests, OpenGL
  xvfb xauth                     # headless X server: the explorer's tests render under xvfb-run
  libgl1-mesa-dri                # Mesa's software OpenGL (llvmpipe) for those renders
  fonts-dejavu-core              # DejaVu Sans Mono, the explorer's label font
  python3-dev pybind11-dev       # the Python module gf2layout (python/)
  python3-pytest python3-numpy   # its test suite (tests/python) and NumPy apply
  time                           # GNU time: peak memory of the hostile inputs (tests/robustness)
  doxygen                        # the HTML API reference (cmake --build build --target docs)
  python3-venv python3-pip python3-setuptools python3-wheel  # `pip install .` in a fresh venv
  ccache                         # the test command's second build of the Python module reuses objects
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [[ ${#missing[@]} -eq 0 ]]; then
  exit 0
fi

sudo=""
if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi
echo "install-deps: installing ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
