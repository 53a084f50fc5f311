#!/usr/bin/env bash
# The installed package works for a project outside this tree: `cmake --install` to a temporary
# prefix, examples/downstream configured with find_package(layout ...) and built against it, its
# conversion plan compared with layoutctl's for the same layouts, its front_door program (one
# include: <layout/layout.h>) run; then a one-file program built with
# `pkg-config --cflags --libs layout`.
# usage: downstream_test.sh BUILD_DIR SOURCE_DIR LAYOUTCTL
set -u
build=$1 src=$2 ctl=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() {
  echo "FAIL $1"
  exit 1
}

cmake --install "$build" --prefix "$tmp/prefix" >"$tmp/install.log" 2>&1 ||
  fail "cmake --install: $(tail -5 "$tmp/install.log")"
for f in include/layout/layout.h include/layout/core/linear_layout.h include/layout/codegen/codegen.h \
  include/layout/codegen/kernel_ir.h bin/layoutctl; do
  [[ -e $tmp/prefix/$f ]] || fail "install: $f missing"
done
# Internal headers (every module's internal/ folder: text/internal, xegpu/internal, ...) and the
# internal libraries' headers (views, cuda) stay out of the package.
internal=$(cd "$tmp/prefix" && find include -name internal | tr '\n' ' ')
[[ -z $internal ]] || fail "install: internal header folders installed: $internal"
for f in include/layout/views include/layout/cuda; do
  [[ ! -e $tmp/prefix/$f ]] || fail "install: $f is internal but installed"
done
# The optional runtime libraries (Level Zero, OpenCL): where the build has one, the package has it
# too: its headers and its CMake target.
modules=(core text target triton xegpu intel smem conversion protocol codegen kernels)
optional_headers=(
  "level_zero:level_zero_runner.h gemm_device_run.h"
  "opencl:opencl_runner.h gemm_opencl_run.h"
)
for entry in "${optional_headers[@]}"; do
  module=${entry%%:*}
  compgen -G "$build/$module/liblayout_$module.*" >/dev/null || continue
  modules+=("$module")
  for h in ${entry#*:}; do
    [[ -e $tmp/prefix/include/layout/$module/$h ]] || fail "install: include/layout/$module/$h missing"
  done
  grep -qs "add_library(layout::$module " "$tmp"/prefix/lib*/cmake/layout/layoutTargets.cmake ||
    fail "install: the CMake package has no layout::$module"
done
# A shared build (-DBUILD_SHARED_LIBS=ON): versioned libraries (liblayout_core.so ->
# liblayout_core.so.MAJOR -> liblayout_core.so.MAJOR.MINOR.PATCH, SONAME liblayout_core.so.MAJOR)
# and an installed layoutctl that finds them.
shared=""
core=$(find "$tmp/prefix" -name 'liblayout_core.so' | head -1)
if [[ -n $core ]]; then
  shared=yes
  libdir=$(dirname "$core")
  for module in "${modules[@]}"; do
    lib=$libdir/liblayout_$module.so
    [[ -L $lib ]] || fail "shared: $lib is not a link to the versioned library"
    soname=$(readelf -d "$(readlink -f "$lib")" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
    [[ $soname =~ ^liblayout_$module\.so\.[0-9]+$ ]] || fail "shared: $lib has SONAME '$soname'"
    [[ -e $libdir/$soname ]] || fail "shared: $libdir/$soname missing"
    [[ $(readlink -f "$lib") =~ \.so\.[0-9]+\.[0-9]+\.[0-9]+$ ]] || fail "shared: $lib is not versioned"
  done
  export LD_LIBRARY_PATH=$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  env -u LD_LIBRARY_PATH "$tmp/prefix/bin/layoutctl" targets pvc >"$tmp/targets.txt" 2>&1 ||
    fail "installed layoutctl (shared): $(cat "$tmp/targets.txt")"
fi
cmake -S "$src/examples/downstream" -B "$tmp/downstream" -DCMAKE_PREFIX_PATH="$tmp/prefix" \
  -DCMAKE_BUILD_TYPE=Release >"$tmp/configure.log" 2>&1 ||
  fail "configuring examples/downstream: $(tail -5 "$tmp/configure.log")"
cmake --build "$tmp/downstream" >"$tmp/build.log" 2>&1 ||
  fail "building examples/downstream: $(tail -20 "$tmp/build.log")"
"$tmp/downstream/downstream" >"$tmp/out.txt" 2>&1 || fail "downstream: $(cat "$tmp/out.txt")"
grep -q "^invertAndCompose:" "$tmp/out.txt" || fail "downstream printed no invertAndCompose"
# The front door: a program whose one include is <layout/layout.h> builds a layout from bases and
# checks its values against the bases by hand (examples/downstream/front_door.cpp).
"$tmp/downstream/front_door" >"$tmp/front_door.txt" 2>&1 || fail "front_door: $(cat "$tmp/front_door.txt")"
grep -q "^front door: [0-9]* checks passed$" "$tmp/front_door.txt" ||
  fail "front_door printed: $(cat "$tmp/front_door.txt")"
# The plan must be the one layoutctl prints for the same two encodings.
"$ctl" convert --src '#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>' \
  --dst '#ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>' \
  --shape 32x32 --elem-bits 16 >"$tmp/ctl.txt" 2>&1 || fail "layoutctl convert: $(cat "$tmp/ctl.txt")"
sed -n '/^conversion: /,$p' "$tmp/out.txt" >"$tmp/plan.txt"
diff -q "$tmp/plan.txt" "$tmp/ctl.txt" >/dev/null ||
  fail "downstream plan differs from layoutctl convert: $(diff "$tmp/plan.txt" "$tmp/ctl.txt" | head -5)"

# pkg-config, one file.
pc=$(find "$tmp/prefix" -name layout.pc | head -1)
[[ -n $pc ]] || fail "install: layout.pc missing"
cat >"$tmp/one.cpp" <<'CPP'
#include "layout/triton/encoding.h"
#include <iostream>
int main() {
  auto enc = layout::triton::parseEncoding("#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>");
  const int64_t shape[] = {64};
  auto ll = layout::triton::toLinearLayout(*enc, shape);
  uint64_t in[4] = {1, 3, 0, 0}, out[1];
  ll->apply(in, out);
  std::cout << out[0] << "\n";
}
CPP
flags=$(PKG_CONFIG_PATH=$(dirname "$pc") pkg-config --cflags --libs layout) || fail "pkg-config --cflags --libs layout"
# shellcheck disable=SC2086
c++ "$tmp/one.cpp" -o "$tmp/one" $flags >"$tmp/one.log" 2>&1 || fail "pkg-config build: $(tail -10 "$tmp/one.log")"
# register 1 of lane 3 on a 64-element tensor of 32 lanes: element 3 + 32 = 35.
[[ $("$tmp/one") == 35 ]] || fail "pkg-config program printed $("$tmp/one"), want 35"
echo "package${shared:+ (shared libraries)}: 1 passed, 0 failed"
