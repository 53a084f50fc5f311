#!/usr/bin/env bash
# Issue 15 end to end: hostile and oversized inputs to layoutctl get an error naming the limit
# (exit 1), never a crash, a hang or unbounded memory. Each command runs under a memory cap
# (prlimit --as) and a time limit (timeout); before the limits existed every case here crashed,
# ran out of memory or time, or exited 0.
# usage: robustness_test.sh /path/to/layoutctl
set -u
ctl=$1
failures=0
passes=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# 2 GiB of address space: generous for every legitimate case, far below what the bugs used. The
# sanitizer build reserves terabytes of shadow memory, so there the time limit alone applies.
if [[ ${LAYOUT_SANITIZED:-0} == 1 ]]; then cap=(); else cap=(prlimit --as=2147483648); fi

# expect NAME WANT_STATUS WANT_OUTPUT_SUBSTRING -- command... (stdin from $tmp/stdin when it exists)
expect() {
  local name=$1 want_status=$2 want_out=$3
  shift 4
  local status
  if [[ -f $tmp/stdin ]]; then
    timeout 60 "${cap[@]}" "$@" <"$tmp/stdin" >"$tmp/out" 2>"$tmp/err"
  else
    timeout 60 "${cap[@]}" "$@" </dev/null >"$tmp/out" 2>"$tmp/err"
  fi
  status=$?
  if [[ $status -ne $want_status ]]; then
    echo "FAIL $name: exit $status, want $want_status; stderr: $(head -c 600 "$tmp/err")"
    failures=$((failures + 1))
  elif [[ -n $want_out ]] && ! grep -qF -- "$want_out" "$tmp/out" "$tmp/err"; then
    echo "FAIL $name: output lacks '$want_out'; got: $(head -c 600 "$tmp/out") $(head -c 600 "$tmp/err")"
    failures=$((failures + 1))
  else
    passes=$((passes + 1))
  fi
}

blocked='#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>'
dpas_a='#ttg.dot_op<{opIdx = 0, parent = #ttig.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [8, 4], repCluster = [4, 2]}>, kWidth = 1}>'
cells='the limit is 2^22 (4194304)'

# 1. Views of 2^64 or more cells (the shape product wrapped to 0: segfault).
expect view-2to64 1 "has 2^64 or more elements; $cells" -- "$ctl" show "$blocked" --shape 4294967296x4294967296
expect view-2to64-hw 1 "has 2^64 or more elements" -- "$ctl" show "$blocked" --shape 4294967296x4294967296 --view hw
# An invertible 64-bit layout: registers along dim0, lanes along dim1, 32 bits each.
wide=$(awk 'BEGIN {
  r = ""; l = ""; p = 1
  for (i = 0; i < 32; i++) { r = r (i ? "," : "") "[" sprintf("%.0f", p) ",0]"; l = l (i ? "," : "") "[0," sprintf("%.0f", p) "]"; p *= 2 }
  printf "{\"inDims\":[{\"name\":\"register\",\"bases\":[%s]},{\"name\":\"lane\",\"bases\":[%s]}],", r, l
  printf "\"outDims\":[{\"name\":\"dim0\",\"size\":4294967296},{\"name\":\"dim1\",\"size\":4294967296}]}\n"
}')
echo "$wide" >"$tmp/wide.json"
expect view-json-2to64 1 "has 2^64 or more elements" -- "$ctl" show @"$tmp/wide.json" --view tensor
expect view-json-2to64-hw 1 "has 2^64 or more elements" -- "$ctl" show @"$tmp/wide.json" --view hw

# 2. Work without a bound: 2^38 hardware positions, a 128x65536 DPAS operand (40 s, 4.5 GB),
#    block-load plans of 2^64 elements (past 8 GB).
expect view-warps-2to31 1 "2^38 hardware positions to print; $cells" -- "$ctl" show '#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [2147483648, 1], order = [1, 0]}>' --shape 16x16
expect view-dpas-128x65536 1 "the tensor 128x65536 has 8388608 elements; $cells" -- "$ctl" show "$dpas_a" --shape 128x65536 --view hw
expect view-max-cells 0 "T0:0" -- "$ctl" show "$blocked" --shape 2048x4096 --max-cells 8388608
expect view-max-cells-env 1 "has 256 elements; the limit is 100" -- env LAYOUT_MAX_VIEW_CELLS=100 "$ctl" show "$blocked" --shape 16x16
expect view-max-cells-option-wins 0 "T0:0" -- env LAYOUT_MAX_VIEW_CELLS=100 "$ctl" show "$blocked" --shape 16x16 --max-cells 512
expect view-max-cells-low 1 "has 256 elements; the limit is 100" -- "$ctl" show "$blocked" --shape 16x16 --max-cells 100
expect view-max-cells-bad 2 "--max-cells: '0' is not a positive integer" -- "$ctl" show "$blocked" --shape 16x16 --max-cells 0
expect limit-env-bad 1 "LAYOUT_MAX_VIEW_CELLS: expected a positive decimal integer, got 'lots'" -- env LAYOUT_MAX_VIEW_CELLS=lots "$ctl" show
expect blockload-2to64 1 "has 2^64 or more elements; the limit is 2^24 (16777216) (raise it with LAYOUT_MAX_PLAN_ELEMENTS)" -- "$ctl" blockload --encoding "$dpas_a" --shape 4294967296x4294967296 --elem-bits 16
expect blockload-2to40 1 "the operand tensor 256x4294967296 has 1099511627776 elements" -- "$ctl" blockload --encoding "$dpas_a" --shape 256x4294967296 --elem-bits 16
printf '%s\n' "{\"id\": 1, \"op\": \"blockLoad.plan\", \"args\": {\"encoding\": \"$dpas_a\", \"shape\": [1099511627776, 1099511627776], \"elemBits\": 16}}" \
  "{\"id\": 2, \"op\": \"layoutStr\", \"args\": {\"encoding\": \"$blocked\", \"shape\": [4294967296, 4294967296], \"view\": \"hw\"}}" \
  '{"id": 3, "op": "isInvertible", "inputs": [{"inDims": [{"name": "lane", "bases": [[1]]}], "outDims": [{"name": "dim0", "size": 2}]}]}' >"$tmp/stdin"
expect batch-oversized 0 '{"id":3,"result":true}' -- "$ctl" batch
expect batch-oversized-plan 0 '{"id":1,"error":"blockLoad.plan: the operand tensor 1099511627776x1099511627776 has 2^64 or more elements' -- "$ctl" batch
expect batch-oversized-view 0 '{"id":2,"error":"layoutStr: the tensor 4294967296x4294967296 has 2^64 or more elements' -- "$ctl" batch
rm -f "$tmp/stdin"

# 3. Alias files that expand exponentially (4 GiB in seconds) or in a long chain (1.3 GB).
{
  echo "#a0 = $blocked"
  for i in $(seq 1 41); do echo "#a$i = #xegpu.slice<#a$((i - 1)), dims = [#a$((i - 1))]>"; done
} >"$tmp/double.mlir"
{
  echo "#a0 = $blocked"
  for i in $(seq 1 2000); do echo "#a$i = #ttg.slice<{dim = 0, parent = #a$((i - 1))}>"; done
} >"$tmp/chain.mlir"
expect alias-doubling 1 "expands to more than 2^18 (262144) values (aliases included; raise it with LAYOUT_MAX_ATTR_VALUES)" -- "$ctl" show -i "$tmp/double.mlir" --shape 16x16
expect alias-chain 1 "nested more than 200 levels deep once alias" -- "$ctl" show -i "$tmp/chain.mlir" --shape 16x16

# 4. Reads without a bound: devices, directories, large files, standard input.
expect read-layout-dev-zero 1 "layout: '/dev/zero' is a character device, not a file" -- "$ctl" show @/dev/zero
expect read-input-dev-zero 1 "--input: '/dev/zero' is a character device, not a file" -- "$ctl" show -i /dev/zero --shape 4x4
expect read-config-dev-zero 1 "--config: '/dev/zero' is a character device, not a file" -- "$ctl" gemm --config /dev/zero
expect read-instruction-dev-zero 1 "--instruction: '/dev/zero' is a character device, not a file" -- "$ctl" banks --instruction @/dev/zero
expect read-directory 1 "--input: '$tmp' is a directory, not a file" -- "$ctl" show -i "$tmp" --shape 4x4
expect read-compose-directory 1 "'$tmp' is a directory, not a file" -- "$ctl" compose @"$tmp" @"$tmp"
head -c 5000 /dev/zero | tr '\0' ' ' >"$tmp/big.json"
expect read-too-big 1 "has 5000 bytes, more than the limit of 4 KiB (raise it with LAYOUT_MAX_INPUT_BYTES)" -- env LAYOUT_MAX_INPUT_BYTES=4096 "$ctl" show @"$tmp/big.json"
expect read-stdin-too-big 1 "standard input is larger than the limit of 4 KiB" -- bash -c "head -c 5000 /dev/zero | env LAYOUT_MAX_INPUT_BYTES=4096 '$ctl' show @-"
expect batch-dev-zero 1 "standard input is a character device (such as /dev/zero)" -- bash -c "'$ctl' batch </dev/zero"
expect batch-dev-null 0 "" -- bash -c "'$ctl' batch </dev/null"
expect batch-closed-stdin 1 "standard input is closed (Bad file descriptor): give the requests on standard input" -- bash -c "'$ctl' batch <&-"

# 5. A batch line larger than memory allows stopped the batch silently (1 of 3 answered, exit 0).
{
  echo '{"id": 1, "op": "identity1D", "args": {"size": 4, "inDim": "lane", "outDim": "dim0"}}'
  printf '{"id": "big", "op": "identity1D", "pad": "'
  head -c 40000000 /dev/zero | tr '\0' 'a'
  echo '"}'
  echo '{"id": 3, "op": "identity1D", "args": {"size": 2, "inDim": "lane", "outDim": "dim0"}}'
} >"$tmp/stdin"
expect batch-huge-line 0 '{"id":"big","error":"request: the line is longer than the limit of 16 MiB (raise it with LAYOUT_MAX_LINE_BYTES)"}' -- "$ctl" batch
expect batch-huge-line-next 0 '{"id":3,"result"' -- "$ctl" batch
timeout 60 "${cap[@]}" "$ctl" batch <"$tmp/stdin" >"$tmp/out" 2>/dev/null
if [[ $(wc -l <"$tmp/out") -eq 3 ]]; then passes=$((passes + 1)); else
  echo "FAIL batch-huge-line-count: $(wc -l <"$tmp/out") responses for 3 requests"
  failures=$((failures + 1))
fi
rm -f "$tmp/stdin"

# 7. Failed writes exited 0.
expect write-stdout-full 1 "error: writing to standard output failed (No space left on device)" -- bash -c "'$ctl' show >/dev/full"
expect write-output-full 1 "error: --output: writing '/dev/full' failed (No space left on device)" -- "$ctl" show "$blocked" --shape 16x16 -o /dev/full
expect write-batch-full 1 "error: writing the responses to standard output failed" -- bash -c "echo '{\"id\": 1, \"op\": \"identity1D\", \"args\": {\"size\": 4, \"inDim\": \"lane\", \"outDim\": \"dim0\"}}' | '$ctl' batch >/dev/full"
expect write-gemm-full 1 "error: writing to standard output failed" -- bash -c "'$ctl' gemm --m 64 --n 64 --k 64 --sg-layout 2x2 --sg-data 16x32 >/dev/full"

# 8. Layout JSON with many dims was quadratic (100k dims: 5-7 s; 333k: over 20 s).
awk 'BEGIN {
  printf "{\"inDims\": ["
  for (k = 0; k < 300000; k++) printf "%s{\"name\": \"i%d\", \"bases\": []}", (k ? ", " : ""), k
  printf "], \"outDims\": [{\"name\": \"o\", \"size\": 1}]}\n"
}' >"$tmp/dims.json"
expect dims-limit 1 "the layout has 300000 in-dims and 1 out-dims; the limit is 4096 dims in all (raise it with LAYOUT_MAX_DIMS)" -- "$ctl" show @"$tmp/dims.json"
# Linear once raised: 300k dims in well under the 20 s the quadratic reader took for 333k (300k
# distinct names: past the interned-name limit too).
start=$(date +%s)
expect dims-raised 0 "in bits: 0" -- env LAYOUT_MAX_DIMS=400000 LAYOUT_MAX_DIM_NAMES=400000 "$ctl" show @"$tmp/dims.json"
if (($(date +%s) - start > 10)); then
  echo "FAIL dims-raised-time: $(($(date +%s) - start)) s for 300k dims"
  failures=$((failures + 1))
fi

# 9. Messages.
expect msg-no-double-prefix 1 'error: layout: missing field "inDims"' -- "$ctl" show '{"outDims": []}'
expect msg-empty-layout 1 "error: layout: the layout text is empty" -- "$ctl" show ""
# What still runs out of memory (here: a limit raised too far) is named, never "std::bad_alloc".
# (Not under the sanitizers, whose allocator cannot start under a small address-space cap.)
if [[ ${LAYOUT_SANITIZED:-0} != 1 ]]; then
  expect msg-out-of-memory 1 "error: out of memory: the input needs more memory than is available" -- prlimit --as=400000000 "$ctl" show "$blocked" --shape 8192x8192 --max-cells 100000000
fi
echo '{"id": 123456789012345678901234567890, "op": "nope"}' >"$tmp/stdin"
expect msg-big-id 0 '{"id":123456789012345678901234567890,"error":"unknown op \"nope\""}' -- "$ctl" batch
rm -f "$tmp/stdin"

# Issue 31: a host simulation past the work limit (2^34 multiply-adds) is refused before its
# inputs are made: 8192^3 (2^39, 1.3 GiB of inputs, half an hour on one core before) answers
# within a second, under 4 GiB of address space and a 20 s time limit.
if [[ ${LAYOUT_SANITIZED:-0} == 1 ]]; then cap4=(); within_ms=5000; else cap4=(prlimit --as=4294967296); within_ms=1000; fi
started=$(date +%s%N)
timeout 20 "${cap4[@]}" "$ctl" gemm --m 8192 --n 8192 --k 8192 </dev/null >"$tmp/out" 2>"$tmp/err"
status=$?
took_ms=$((($(date +%s%N) - started) / 1000000))
want='error: m, n, k: simulating this GEMM takes 549755813888 multiply-adds (8192x8192x8192, '
limit='; the limit is 2^34 (17179869184) (raise it with --max-macs N or LAYOUT_MAX_GEMM_MACS)'
if [[ $status -ne 1 ]] || ! grep -qF -- "$want" "$tmp/err" || ! grep -qF -- "$limit" "$tmp/err"; then
  echo "FAIL gemm-8192-cubed-refused: exit $status, want 1; stderr: $(head -c 600 "$tmp/err")"
  failures=$((failures + 1))
elif ((took_ms > within_ms)); then
  echo "FAIL gemm-8192-cubed-refused: took $took_ms ms, more than $within_ms"
  failures=$((failures + 1))
elif ! grep -qF "kernel gemm_bf16_8x4_32x64_k32: D[8192, 8192]" "$tmp/out"; then
  echo "FAIL gemm-8192-cubed-refused: the plan is not on standard output: $(head -c 300 "$tmp/out")"
  failures=$((failures + 1))
else
  passes=$((passes + 1))
fi
# Raised past it, the same GEMM is taken (here its inputs, 1.3 GiB, exceed the 1 GiB cap at once).
if [[ ${LAYOUT_SANITIZED:-0} != 1 ]]; then
  expect gemm-8192-cubed-raised 1 "error: out of memory" -- prlimit --as=1073741824 "$ctl" gemm --m 8192 --n 8192 --k 8192 --max-macs 549755813888
fi

echo "robustness: $passes passed, $failures failed"
[[ $failures -eq 0 ]]
