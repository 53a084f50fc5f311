#!/usr/bin/env bash
# layoutctl gemm --target level-zero against the fake Level Zero driver: the device ordinal and the
# requirement checks reach the command line with exit status 1 and the rule, before any kernel
# runs. Usage: fake_driver_cli_test.sh LAYOUTCTL FAKE_LOADER
set -u
layoutctl=$1
export LAYOUT_LEVEL_ZERO_LOADER=$2
failures=0
expect() { # name, expected status, expected text, command...
  local name=$1 status=$2 text=$3
  shift 3
  local out rc
  out=$("$@" 2>&1)
  rc=$?
  if [[ $rc -ne $status || $out != *"$text"* ]]; then
    echo "FAIL $name: status $rc (expected $status), output:"
    echo "$out" | tail -5
    failures=$((failures + 1))
  else
    echo "ok   $name"
  fi
}
gemm=("$layoutctl" gemm --m 64 --n 64 --k 64 --sg-layout 2x2 --sg-data 32x32 --target level-zero)

export FAKE_ZE_IP=0x05004000 FAKE_ZE_DPAS=1 FAKE_ZE_BLOCK_IO=1
expect wrong-arch 1 "error: level-zero: Level Zero: Fake Intel GPU 0: the device is IP 20.1.0 (bmg), the kernel was built for --arch pvc (IP 12.60)" "${gemm[@]}"
expect right-arch 1 "zeContextCreate failed (ZE_RESULT_ERROR_UNSUPPORTED_FEATURE)" "${gemm[@]}" --arch bmg
export FAKE_ZE_GPUS=2
expect ordinal-past 1 "error: level-zero: device ordinal 2: there are 1 driver, 3 devices, 2 GPU devices (ordinals 0..1)" "${gemm[@]}" --device 2
expect ordinal-range 1 "--device -1: must be a GPU device ordinal in 0..255" "${gemm[@]}" --device -1
export FAKE_ZE_GPUS=0
expect no-gpu 3 "error: level-zero: no device: Level Zero (zeInitDrivers(ZE_INIT_DRIVER_TYPE_FLAG_GPU)): 1 driver, 1 device, 0 GPU devices" "${gemm[@]}"
echo "$failures failed"
[[ $failures -eq 0 ]]
