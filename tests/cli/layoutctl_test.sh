#!/usr/bin/env bash
# End-to-end tests of the layoutctl binary: outputs, exit codes (interchange §3), help texts.
# usage: layoutctl_test.sh /path/to/layoutctl /path/to/tests/data [yes|no: built with Level Zero]
set -u
ctl=$1
level_zero=${3:-yes}
failures=0
passes=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# expect NAME WANT_STATUS WANT_STDOUT_SUBSTRING -- command...
expect() {
  local name=$1 want_status=$2 want_out=$3
  shift 4
  local out status
  out=$("$@" 2>"$tmp/stderr")
  status=$?
  if [[ $status -ne $want_status ]]; then
    echo "FAIL $name: exit $status, want $want_status; stderr: $(cat "$tmp/stderr")"
    failures=$((failures + 1))
  elif [[ -n $want_out && $out$(cat "$tmp/stderr") != *"$want_out"* ]]; then
    echo "FAIL $name: output lacks '$want_out'; got: $out $(cat "$tmp/stderr")"
    failures=$((failures + 1))
  else
    passes=$((passes + 1))
  fi
}

lanes='{"inDims":[{"name":"lane","bases":[[1],[2]]}],"outDims":[{"name":"dim0","size":4}]}'
regs='{"inDims":[{"name":"register","bases":[[1]]}],"outDims":[{"name":"dim1","size":2}]}'
swap='{"inDims":[{"name":"lane","bases":[[2],[1]]}],"outDims":[{"name":"dim0","size":4}]}'
swap_outer='{"inDims":[{"name":"dim0","bases":[[2],[1]]}],"outDims":[{"name":"x","size":4}]}'
bcast='{"inDims":[{"name":"register","bases":[[1],[0]]}],"outDims":[{"name":"dim0","size":2}]}'
echo "$lanes" >"$tmp/lanes.json"

expect show-default 0 " - register=1 -> (0, 1)" -- "$ctl" show
expect show-default-summary 0 "rank: 7, surjective: no, injective: yes" -- "$ctl" show
expect show-json 0 '"surjective": true' -- "$ctl" show "$lanes" --format json
expect show-file 0 " - lane=1 -> (1)" -- "$ctl" show @"$tmp/lanes.json"
expect show-stdin 0 "   lane=2 -> (2)" -- bash -c "echo '$lanes' | '$ctl' show @-"
expect show-format-eq 0 '"inDims"' -- "$ctl" show "$lanes" --format=json
# swap maps lane=2 to 1.
expect apply 0 "dim0=1" -- "$ctl" apply "$swap" lane=2
expect apply-json 0 '[["dim0",3]]' -- "$ctl" apply "$lanes" lane=3 --format json
expect apply-missing 1 "error: apply: no value for in-dim 'lane'" -- "$ctl" apply "$lanes"
expect apply-bad-pair 2 "expected inDim=value" -- "$ctl" apply "$lanes" lane
expect compose 0 " - lane=1 -> (2)" -- "$ctl" compose "$lanes" "$swap_outer"
expect compose-mismatch 1 "error: compose: out-dim 'dim0' is not an in-dim of the outer layout ['lane']" -- "$ctl" compose "$lanes" "$lanes"
expect invert 0 " - dim0=1 -> (2)" -- "$ctl" invert "$swap"
expect invert-not-invertible 1 "error: invert: the layout is not invertible" -- "$ctl" invert "$bcast"
expect pseudoinvert 0 " - dim0=1 -> (1)" -- "$ctl" invert "$bcast" --pseudo
expect invert-compose 0 " - lane=1 -> (2)" -- "$ctl" invert-compose "$lanes" "$swap"
expect product 0 "where out dims are: [dim0 (size 4), dim1 (size 2)]" -- "$ctl" product "$lanes" "$regs"
expect product-three 0 " - lane=1 -> (1, 0)" -- "$ctl" product "$lanes" "$regs" "$regs"
expect reshape 0 " - lane=1 -> (1, 0)" -- "$ctl" reshape "$lanes" --outs a=2,b=2
expect reshape-bad-size 1 "is not a power of two" -- "$ctl" reshape "$lanes" --outs a=3
expect reshape-usage 2 "give --ins" -- "$ctl" reshape "$lanes"
expect transpose 0 "where out dims are: [dim1 (size 2), dim0 (size 4)]" -- bash -c "'$ctl' product '$lanes' '$regs' | true; '$ctl' transpose \"\$('$ctl' product '$lanes' '$regs' --format json)\" --outs dim1,dim0"
expect transpose-bad 1 "must name each of the layout's out-dims" -- "$ctl" transpose "$lanes" --outs dim9
expect sublayout 0 " - lane=1 -> (0)" -- bash -c "'$ctl' sublayout \"\$('$ctl' product '$lanes' '$regs' --format json)\" --ins lane --outs dim1"
expect free-vars 0 "register: mask 2 (free bits 1)" -- "$ctl" free-vars "$bcast"
expect free-vars-json 0 '[["register",2]]' -- "$ctl" free-vars "$bcast" --format json
expect bad-json 1 "error: layout: malformed JSON" -- "$ctl" show '{"inDims": ['
expect bad-size 1 "outDims[0].size: 12 is not a power of two" -- "$ctl" show '{"inDims":[],"outDims":[{"name":"d","size":12}]}'
expect attribute-text 1 "this subcommand takes layout JSON" -- "$ctl" invert '#ttg.blocked<{}>'
expect missing-file 1 "cannot read file" -- "$ctl" show @/nonexistent/file.json
expect unknown-sub 2 "unknown subcommand 'frobnicate'" -- "$ctl" frobnicate
expect unknown-option 2 "unknown option '--bogus'" -- "$ctl" show --bogus
expect bad-format 2 "--format must be 'text', 'json', not 'xml'" -- "$ctl" show --format xml
expect no-args 2 "usage: layoutctl" -- "$ctl"
blocked='#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]}>'
# 8x16 tensor: thread t holds 4 consecutive columns of row t/4; T1 starts at column 4.
expect show-encoding-tensor 0 $'Print layout attribute: #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]}>\n[[ T0:0,  T0:1,  T0:2,  T0:3,  T1:0,' -- "$ctl" show -l "$blocked" -t 'tensor<8x16xf16>'
expect show-encoding-hw 0 $'Warp0:\n(0, 0), (0, 4), (0, 8), (0,12), (1, 0)' -- "$ctl" show -l "$blocked" -t 'tensor<8x16xf16>' -use-hw-view
expect show-encoding-view-hw 0 $'Warp0:\n(0, 0), (0, 4)' -- "$ctl" show "$blocked" --shape 8x16 --view hw
expect show-encoding-json 0 '"name": "register"' -- "$ctl" show "$blocked" --shape 8x16 --format json
expect show-encoding-no-shape 2 "an encoding needs a tensor shape" -- "$ctl" show "$blocked"
expect show-encoding-bad 1 "line 1, column 1: #ttg.blocked needs the parameter 'sizePerThread'" -- "$ctl" show '#ttg.blocked<{order = [0]}>' --shape 4
expect show-encoding-unknown 1 "unknown TritonGPU encoding '#ttg.bogus'" -- "$ctl" show '#ttg.bogus<{}>' --shape 4
expect show-encoding-kwidth 1 "error: line 1, column 142: kWidth 3 must be a power of two" -- "$ctl" show '#ttg.dot_op<{opIdx = 0, parent = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>, kWidth = 3}>' --shape 32x32
expect show-mfma-huge-tiles 1 "'tilesPerWarp' entries must be powers of two in [1, 2^20], not 4611686018427387904" -- "$ctl" show '#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], tilesPerWarp = [4611686018427387904, 4], instrShape = [32, 32, 8], isTransposed = false}>' --shape 64x64
expect show-dot-misspelt-parent 1 "error: layout: line 1, column 32: duplicate or unknown struct parameter name: rent" -- "$ctl" show '#ttg.dot_op<{opIdx = 0, rent = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]}>, kWidth = 16}>' --shape 8x8
expect show-dot-no-parent 1 "error: layout: line 1, column 1: #ttg.dot_op needs the parameter 'parent'" -- "$ctl" show '#ttg.dot_op<{opIdx = 0, kWidth = 16}>' --shape 8x8
expect show-dot-bad-opidx 1 "error: layout: line 1, column 22: ttg.dot_op opIdx parameter can be 0 or 1, got: 2" -- "$ctl" show '#ttg.dot_op<{opIdx = 2, parent = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]}>}>' --shape 8x8
expect show-encoding-shape-pow2 1 "linear layouts need powers of two" -- "$ctl" show "$blocked" --shape 8x12
# amd_wmma version 1: even rows in lanes 0-15, odd rows in lanes 16-31.
wmma='#ttg.amd_wmma<{version = 1, isTranspose = false, warpsPerCTA = [1, 1]}>'
expect show-encoding-wmma 0 $'[[ T0:0,  T1:0,  T2:0,  T3:0,  T4:0,  T5:0,  T6:0,  T7:0,  T8:0,  T9:0, T10:0, T11:0, T12:0, T13:0, T14:0, T15:0]\n[ T16:0, T17:0,' -- "$ctl" show -l "$wmma" -t 'tensor<16x16xf16>'
expect show-encoding-wmma-bad 1 "line 1, column 26: 'version' = 4: #ttg.amd_wmma has versions 1 (gfx11), 2 (gfx12) and 3" -- "$ctl" show '#ttg.amd_wmma<{version = 4, isTranspose = false, warpsPerCTA = [1, 1]}>' --shape 16x16
nvmma='#ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, elementBitWidth = 16}>'
expect show-nvmma-hw 0 $'Offset: 64 -> (4, 8)\nOffset: 65 -> (4, 9)' -- "$ctl" show "$nvmma" --shape 8x16 --view hw
expect show-nvmma-bad 1 "line 1, column 41: 'swizzlingByteWidth' = 48 must be 0, 32, 64 or 128" -- "$ctl" show '#ttg.nvmma_shared<{swizzlingByteWidth = 48, transposed = false, elementBitWidth = 16}>' --shape 8x16
# Intel DPAS (seed 002): Warp0 of the hardware view of operand A is the seed's view, byte for byte.
data=${2:-$(dirname "$0")/../data}
dpas_a='#ttg.dot_op<{opIdx = 0, parent = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [8, 4], repCluster = [4, 2], A = [32, 16], B = [16, 32], C = [32, 32]}>, kWidth = 1}>'
expect show-dpas-a-hw 0 $'Print layout attribute: #ttg.dot_op<{opIdx = 0, parent = #ttig.dpas<{repeatCount = 8,' -- "$ctl" show "$dpas_a" -t "tensor<256x32xf16>" -use-hw-view
if "$ctl" show "$dpas_a" -t "tensor<256x32xf16>" -use-hw-view >"$tmp/dpas_a.txt" &&
  awk '/^Warp0:$/{p=1} /^Warp1:$/{p=0} p' "$tmp/dpas_a.txt" | diff - "$data/seed002/dpas_a_hw_view.txt" >"$tmp/dpas_a.diff"; then
  passes=$((passes + 1))
else
  echo "FAIL show-dpas-a-hw-seed: Warp0 differs from tests/data/seed002/dpas_a_hw_view.txt: $(head -5 "$tmp/dpas_a.diff")"
  failures=$((failures + 1))
fi
expect show-dpas-bad 1 "error: layout: line 1, column 91: 'systolicDepth' = 16: systolicDepth must be 8" -- "$ctl" show '#ttg.dot_op<{opIdx = 0, parent = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 16, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [8, 4], repCluster = [4, 2]}>, kWidth = 1}>' -t "tensor<256x32xf16>" -use-hw-view
expect show-dpas-kwidth 1 "line 1, column 205: kWidth = 1: ttg.dot_op kWidth parameter must match the parent's opsPerChannel" -- "$ctl" show '#ttg.dot_op<{opIdx = 1, parent = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [8, 4], repCluster = [4, 2]}>, kWidth = 1}>' -t "tensor<32x256xf16>"
printf '%s\n' '// aliases' '#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [4], warpsPerCTA = [1], order = [0]}>' '#s = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>' > "$tmp/aliases.mlir"
expect show-alias-file 0 $'Print layout attribute: #b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [4], warpsPerCTA = [1], order = [0]}>\n[T0:0, T1:0, T2:0, T3:0]\n\nPrint layout attribute: #s' -- "$ctl" show -i "$tmp/aliases.mlir" -t 'tensor<4xf16>'
expect show-alias-names 0 $'Print layout attribute: #s = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>\n[(0),(1),(2),(3)]' -- "$ctl" show -i "$tmp/aliases.mlir" -t 'tensor<4xf16>' -alias-names=s
expect show-output-file 0 "" -- "$ctl" show -l "$blocked" -t 'tensor<8x16xf16>' -o "$tmp/out.txt"
if grep -q '^\[\[ T0:0,  T0:1' "$tmp/out.txt"; then passes=$((passes + 1)); else echo "FAIL show-output-file content"; failures=$((failures + 1)); fi
expect show-json-layout-hw 0 $'Warp0:\n(0), (1), (2), (3)' -- "$ctl" show "$lanes" --view hw
# xegpu: seed 000 lines 804-817 ([128, 128] over sg_layout [2, 2], sg_data [32, 128]) and the
# sg_map distributions of lines 371-399.
xe='#xegpu.layout<sg_layout = [2, 2], sg_data = [32, 128], lane_layout = [1, 16], lane_data = [1, 1], order = [1, 0]>'
expect xegpu-tiles 0 $'subgroup 2: 2 tile(s) of [32, 128] at\n  [32, 0]\n  [96, 0]' -- "$ctl" xegpu tiles --layout "$xe" --shape 128x128 --subgroup 2
expect xegpu-tiles-json 0 '"tileOffsets": [' -- "$ctl" xegpu tiles --layout "$xe" --shape 128x128 --subgroup 1 --format json
# Upstream's isDistributable tests whole shapes: [128, 128] / [2, 2] vs sg_data [32, 128] fails.
expect xegpu-layout-rfc 1 "error: cannot distribute [128, 128] using $xe" -- "$ctl" xegpu layout --layout "$xe" --shape 128x128
expect xegpu-layout 0 $' - warp=1 -> (0, 128)\n   warp=2 -> (32, 0)' -- "$ctl" xegpu layout --layout "$xe" --shape 128x256
expect xegpu-layout-json 0 '"name": "warp"' -- "$ctl" xegpu layout --layout "$xe" --shape 128x256 --format json
expect xegpu-dist-shape 0 "24x1" -- "$ctl" xegpu distributed-shape --layout '#xegpu.sg_map<wi_layout = [1, 16], wi_data = [1, 1]>' --shape 12x32
expect xegpu-dist-shape-vnni 0 "[8,2]" -- "$ctl" xegpu distributed-shape --layout '#xegpu.sg_map<wi_layout = [1, 16], wi_data = [2, 1]>' --shape 16x16 --format json
expect xegpu-delinearize 0 "[0, 1]" -- "$ctl" xegpu delinearize --layout '#xegpu.layout<sg_layout = [4, 4], sg_data = [8, 8], order = [0, 1]>' --id 4 --level subgroup
expect xegpu-lane-coords 0 $'register 0: [0, 6]\nregister 1: [0, 7]\nregister 2: [0, 38]' -- "$ctl" xegpu lane-coords --layout '#xegpu.layout<lane_layout = [1, 16], lane_data = [1, 2]>' --shape 32x64 --lane 3
expect xegpu-not-distributable 1 "error: cannot distribute [128, 128] using #xegpu.layout<sg_layout = [2, 2], sg_data = [48, 128]>" -- "$ctl" xegpu layout --layout '#xegpu.layout<sg_layout = [2, 2], sg_data = [48, 128]>' --shape 128x128
expect xegpu-not-pow2 1 "linear layouts over GF(2) need power-of-two sizes" -- "$ctl" xegpu layout --layout '#xegpu.layout<sg_layout = [4, 4], sg_data = [2, 2]>' --shape 24x24
expect xegpu-verifier 1 "error: layout: line 1, column 1: lane_layout and lane_data must be used together" -- "$ctl" xegpu layout --layout '#xegpu.layout<lane_layout = [1, 16]>' --shape 8x16
expect xegpu-needs-subgroup 1 "laneCoords needs a subgroup id" -- "$ctl" xegpu lane-coords --layout "$xe" --shape 128x128 --lane 0
expect xegpu-no-query 2 "expected one query" -- "$ctl" xegpu --layout "$xe"
expect xegpu-bad-query 2 "unknown query 'frob'" -- "$ctl" xegpu frob --layout "$xe"
expect xegpu-no-shape 2 "needs --shape" -- "$ctl" xegpu layout --layout "$xe"
expect xegpu-bad-level 2 "--level must be 'subgroup' or 'lane'" -- "$ctl" xegpu delinearize --layout "$xe" --id 1 --level wg
expect xegpu-bad-id 2 "--subgroup: '-1' is not a non-negative integer" -- "$ctl" xegpu tiles --layout "$xe" --shape 128x128 --subgroup -1
expect help-xegpu 0 "example:" -- "$ctl" xegpu --help
expect help 0 "subcommands:" -- "$ctl" --help
for sub in show apply compose invert invert-compose product reshape transpose sublayout free-vars batch; do
  expect "help-$sub" 0 "example:" -- "$ctl" "$sub" --help
done
expect batch 0 '{"id":1,"result":' -- bash -c "echo '{\"id\":1,\"op\":\"identity1D\",\"args\":{\"size\":4,\"inDim\":\"lane\",\"outDim\":\"dim0\"}}' | '$ctl' batch"
expect batch-errors-continue 0 '{"id":2,"result":true}' -- bash -c "printf '%s\n%s\n' 'garbage' '{\"id\":2,\"op\":\"isSurjective\",\"inputs\":[$lanes]}' | '$ctl' batch"
expect batch-list-ops 0 "invertAndCompose (2 inputs)" -- "$ctl" batch --list-ops

# propagate: the XeGPU RFC's transpose example (seed 000, lines 883-889) and ARC int8 DPAS maps
# (lines 541-547); the batch op; errors.
expect propagate-transpose 0 "source: #xegpu.layout<sg_layout = [8, 4], sg_data = [64, 32], inst_data = [16, 16], lane_layout = [16, 1], lane_data = [1, 1], order = [0, 1]>" -- "$ctl" propagate transpose --result '#xegpu.layout<sg_layout = [4, 8], sg_data = [32, 64], inst_data=[16, 16], lane_layout=[1,16], lane_data = [1, 1], order=[1, 0]>' --permutation 1,0
expect propagate-dpas-arc-json 0 '{"a":"#xegpu.sg_map<wi_layout = [1, 8], wi_data = [1, 4]>","b":"#xegpu.sg_map<wi_layout = [1, 8], wi_data = [4, 1]>","c":"#xegpu.sg_map<wi_layout = [1, 8], wi_data = [1, 1]>"}' -- "$ctl" propagate dpas --result '#xegpu.sg_map<wi_layout = [1, 8], wi_data = [1, 1]>' --shape-a 8x32 --shape-b 32x8 --element-type ui8 --target arc --format json
expect propagate-batch 0 '"result":{"source":"#xegpu.layout<sg_layout = [8, 4], sg_data = [32, 32], order = [1, 0]>"}' -- bash -c "echo '{\"op\":\"xegpu.propagate\",\"args\":{\"op\":\"shape_cast\",\"result\":\"#xegpu.layout<sg_layout = [8, 1, 4], sg_data = [1, 32, 32], order = [2, 1, 0]>\",\"sourceShape\":[256,128],\"resultShape\":[8,32,128]}}' | '$ctl' batch"
expect propagate-convert 0 "movement: lanes" -- "$ctl" propagate convert_layout --input '#xegpu.layout<lane_layout = [1, 16], lane_data = [1, 1]>' --result '#xegpu.layout<lane_layout = [1, 16], lane_data = [1, 2]>' --shape 8x32
expect propagate-unknown-op 1 "error: propagate: unknown op 'frobnicate' (expected one of dpas, multi_reduction" -- "$ctl" propagate frobnicate --result '#xegpu.sg_map<wi_layout = [1, 16], wi_data = [1, 1]>'
expect propagate-bad-arg 1 "error: transpose: the permutation [0, 0] is not a permutation" -- "$ctl" propagate transpose --result '#xegpu.sg_map<wi_layout = [1, 16], wi_data = [1, 1]>' --permutation 0,0
expect propagate-batch-unknown-key 0 '"error":"xegpu.propagate: args.permutaton: unknown argument of xegpu.propagate"' -- bash -c "echo '{\"op\":\"xegpu.propagate\",\"args\":{\"op\":\"transpose\",\"result\":\"#xegpu.sg_map<wi_layout = [1, 16], wi_data = [1, 1]>\",\"permutaton\":[1,0]}}' | '$ctl' batch"
# blockload: seed 002's AxBT operand B (transposed 32-bit loads) and AxB operand A; errors.
dpas_b="#ttg.dot_op<{opIdx = 1, parent = #ttig.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [8, 4], repCluster = [4, 2]}>, kWidth = 2}>"
expect blockload-bt 0 "  1     transpose_32b_32r8x1c     32        8 x 32 x 1      (0, 16)" -- "$ctl" blockload --encoding "$dpas_b" --shape 32x256 --elem-bits 16 --transposed --target pvc
expect blockload-json 0 '"loads":[{"elemBits":16,"tileWidth":16,"tileHeight":32,"numBlocks":2,"transpose":false,"vnni":true,"offset":[0,0]},{"elemBits":16,"tileWidth":16,"tileHeight":32,"numBlocks":2,"transpose":false,"vnni":true,"offset":[0,128]}]' -- "$ctl" blockload --encoding "$dpas_b" --shape 32x256 --elem-bits 16 --format json
expect blockload-help 0 "layoutctl blockload --encoding" -- "$ctl" blockload --help
expect blockload-bad-bits 1 "error: elemBits 8 does not match the parent's opsPerChan = 2" -- "$ctl" blockload --encoding "$dpas_b" --shape 32x256 --elem-bits 8
expect blockload-not-dpas 1 "needs a #ttg.dot_op whose parent is a #ttig.dpas" -- "$ctl" blockload --encoding '#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 4], warpsPerCTA = [4, 1], order = [1, 0]}>' --shape 32x256 --elem-bits 16
expect blockload-batch 0 '"numLoads":4' -- bash -c "echo '{\"op\":\"blockLoad.plan\",\"args\":{\"encoding\":\"$dpas_b\",\"shape\":[32,256],\"elemBits\":16,\"transposedInMemory\":true,\"target\":\"bmg\"}}' | '$ctl' batch"
expect blockload-batch-bad-target 0 '"error":"blockLoad.plan: args.target:' -- bash -c "echo '{\"op\":\"blockLoad.plan\",\"args\":{\"encoding\":\"$dpas_b\",\"shape\":[32,256],\"elemBits\":16,\"target\":\"xe9\"}}' | '$ctl' batch"
# Exactly one response line per request line, errors included.
lines=$(printf '%s\n' '{' 'x' '{"id":1,"op":"nope"}' '' '{"id":2,"op":"isInjective","inputs":[]}' | "$ctl" batch | wc -l)
if [[ $lines -eq 5 ]]; then passes=$((passes + 1)); else echo "FAIL batch-line-count: $lines"; failures=$((failures + 1)); fi

# convert: every kind from Triton encodings, JSON operands, the batch op, errors.
cvt_a='#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>'
cvt_b='#ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>'
cvt_t='#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>'
cvt_w64='#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 8], warpsPerCTA = [2, 1], order = [1, 0]}>'
expect convert-none 0 "conversion: none" -- "$ctl" convert --src "$cvt_a" --dst "$cvt_a" --shape 32x32 --elem-bits 16
cvt_l='#ttg.linear<{register = [[0, 2], [0, 1], [0, 16]], lane = [[0, 4], [0, 8], [1, 0], [2, 0], [4, 0]], warp = [[8, 0], [16, 0]], block = []}>'
expect convert-permutation 0 "dst register r <- src register [r]: [0 2 1 3 4 6 5 7]" -- "$ctl" convert --src "$cvt_a" --dst "$cvt_l" --shape 32x32 --elem-bits 16
expect convert-shuffle 0 "4 rounds (4 shuffles, 0 local), lower bound 4; vectors of 2 elements (32 bits)" -- "$ctl" convert --src "$cvt_a" --dst "$cvt_b" --shape 32x32 --elem-bits 16
expect convert-shuffle-json 0 '"kind":"warpShuffle","lanes":32,"warps":4' -- "$ctl" convert --src "$cvt_a" --dst "$cvt_b" --shape 32x32 --elem-bits 16 --format json
expect convert-shared 0 "conversion: shared memory (store, then load)" -- "$ctl" convert --src "$cvt_a" --dst "$cvt_t" --shape 64x64 --elem-bits 16 --target nvidia
"$ctl" show "$cvt_a" --shape 32x32 --format json >"$tmp/cvt_a.json"
expect convert-json-file 0 "conversion: none" -- "$ctl" convert --src @"$tmp/cvt_a.json" --dst "$cvt_a" --shape 32x32 --elem-bits 32
expect convert-help 0 "layoutctl convert --src" -- "$ctl" convert --help
expect convert-lanes 1 "error: dst: lane has 64 lanes but src has 32" -- "$ctl" convert --src "$cvt_a" --dst "$cvt_w64" --shape 32x32 --elem-bits 16
expect convert-no-shape 1 "error: --src: an encoding needs the tensor shape" -- "$ctl" convert --src "$cvt_a" --dst "$cvt_b" --elem-bits 16
expect convert-bad-bits 2 "error: --elem-bits: 12 is not 8, 16, 32 or 64" -- "$ctl" convert --src "$cvt_a" --dst "$cvt_b" --shape 32x32 --elem-bits 12
expect convert-bad-target 2 "error: --target: unknown target 'gfx0'" -- "$ctl" convert --src "$cvt_a" --dst "$cvt_b" --shape 32x32 --elem-bits 16 --target gfx0
expect convert-missing-src 2 "error: --src: missing (encoding text or layout JSON)" -- "$ctl" convert --dst "$cvt_b" --shape 32x32 --elem-bits 16
expect convert-batch 0 '"result":{"kind":"warpShuffle"' -- bash -c "echo '{\"op\":\"convert.plan\",\"args\":{\"src\":\"$cvt_a\",\"dst\":\"$cvt_b\",\"shape\":[32,32],\"elemBits\":16}}' | '$ctl' batch"
expect convert-batch-unknown-arg 0 '"error":"convert.plan: args.colour: unknown argument (convert.plan takes src, dst, shape, elemBits, target)"' -- bash -c "echo '{\"op\":\"convert.plan\",\"args\":{\"src\":\"$cvt_a\",\"dst\":\"$cvt_b\",\"shape\":[32,32],\"elemBits\":16,\"colour\":1}}' | '$ctl' batch"

# banks / swizzle: seed 004 (the default example), explicit addresses, user models, errors, batch.
expect banks-seed 0 "wavefronts    256 (ideal 64, 192 from conflicts)" -- "$ctl" banks
expect banks-seed-phase0 0 "     0  0 64 384 448                           0, 2, 12, 14   <- 4 words" -- "$ctl" banks
expect banks-seed-swizzled 0 "     1       144  36-39" -- "$ctl" banks --swizzle-unit 8 --max-phase 8
expect banks-seed-json 0 '"perPhaseMaxWays":[1,1,1,1],"wavefronts":64,"idealWavefronts":64' -- "$ctl" banks --swizzle-unit 8 --max-phase 8 --format json
expect banks-seed-cdna3 0 "ways/phase    4 4 4 4 4 4 4 4" -- "$ctl" banks --instruction cdna3.ds_read_b128
expect banks-csv 0 "phase,lane,byte_address,bytes,banks,phase_ways,phase_ideal_ways" -- "$ctl" banks --format csv
bnk_st='#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>'
bnk_ld='#ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>'
expect banks-encoding 0 "ways/phase    1 1 1 1" -- "$ctl" banks --access "$bnk_st" --shape 64x64 --elem-bits 16 --instruction nvidia.st.b128 --shared '#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>'
expect banks-padded 0 "method        enumerated" -- "$ctl" banks --access "$bnk_st" --shape 64x64 --elem-bits 16 --instruction nvidia.st.b128 --shared '#ttg.padded_shared<[64:+4] {order = [1, 0], shape = [64, 64]}>'
expect banks-too-wide 1 "registers of a lane hold at most 1 elements" -- "$ctl" banks --access "$bnk_ld" --shape 64x64 --elem-bits 16 --instruction nvidia.ld.b128
expect banks-addresses 0 "ways/phase    32" -- "$ctl" banks --addresses "$(for l in $(seq 0 31); do printf '%d:%d,' $l $((l * 128)); done | sed 's/,$//')" --instruction nvidia.ld.b32
expect banks-b96 0 "ways/phase    1 1 1 1 1 1 1 1" -- "$ctl" banks --addresses "$(for l in $(seq 0 63); do printf '%d:%d,' $l $((l * 16)); done | sed 's/,$//')" --instruction cdna4.ds_read_b96
echo '{"name": "mygpu.ld.b32", "direction": "read", "laneCount": 16, "banks": 8, "bankBytes": 4, "bytesPerLane": 4}' >"$tmp/model.json"
expect banks-user-model 0 "mygpu.ld.b32 (read): 8 banks x 4 B, 2 phases" -- "$ctl" banks --addresses 0:0,1:32 --instruction @"$tmp/model.json"
echo '{"name": "bad", "direction": "read", "laneCount": 16, "banks": 6, "bankBytes": 4, "bytesPerLane": 4}' >"$tmp/bad_model.json"
expect banks-bad-model 1 "error: --instruction: bad: banks 6 is not a power of two" -- "$ctl" banks --addresses 0:0 --instruction @"$tmp/bad_model.json"
expect banks-unknown-ins 1 "unknown instruction 'cdna4.ds_read_b256'" -- "$ctl" banks --instruction cdna4.ds_read_b256
expect banks-bad-phase 2 "error: --max-phase: needs --swizzle-unit" -- "$ctl" banks --max-phase 8
expect banks-bad-swizzle 1 "maxPhase: 16 must be a power of two of at most columns / swizzleUnit = 8" -- "$ctl" banks --swizzle-unit 8 --max-phase 16
expect banks-bad-address 1 "--addresses: 'x:1' is not LANE:BYTE" -- "$ctl" banks --addresses x:1 --instruction nvidia.ld.b32
expect banks-list 0 "cdna4.ds_read_b128         read   16 B/lane, 64 banks, 4 phases" -- "$ctl" banks --list
expect banks-help 0 "layoutctl banks --swizzle-unit 8 --max-phase 8" -- "$ctl" banks --help
expect swizzle-seed 0 "load 64 (1 per phase): met" -- "$ctl" swizzle
expect swizzle-target 0 "seed 004, exception 1" -- "$ctl" swizzle --store "$bnk_st" --load "$bnk_ld" --shape 64x64 --elem-bits 16 --target nvidia
expect swizzle-json 0 '"lowerBound":{"store":{"waysPerPhase":1,"wavefronts":64}' -- "$ctl" swizzle --store "$bnk_st" --load "$bnk_ld" --shape 64x64 --elem-bits 16 --target nvidia --format json
expect swizzle-too-wide 1 "storeInstruction: nvidia.st.b128 moves 8 elements per lane, but only 1" -- "$ctl" swizzle --store "$bnk_st" --load "$bnk_ld" --shape 64x64 --elem-bits 16 --store-instruction nvidia.st.b128 --load-instruction nvidia.ld.b128
expect swizzle-need-ins 1 "give --store-instruction and --load-instruction, or --target" -- "$ctl" swizzle --store "$bnk_st" --load "$bnk_ld" --shape 64x64 --elem-bits 16
expect banks-batch 0 '"perPhaseMaxWays":[32],"wavefronts":32' -- bash -c "echo '{\"op\":\"banks.analyze\",\"args\":{\"byteAddresses\":[$(for l in $(seq 0 31); do printf '[%d,%d],' $l $((l * 256)); done | sed 's/,$//')],\"instruction\":\"nvidia.ld.b32\"}}' | '$ctl' batch"
expect banks-batch-unknown-arg 0 '"error":"banks.analyze: args.colour: unknown argument (banks.analyze takes access, shared' -- bash -c "echo '{\"op\":\"banks.analyze\",\"args\":{\"access\":\"$bnk_st\",\"shape\":[64,64],\"elemBits\":16,\"instruction\":\"nvidia.st.b128\",\"colour\":1}}' | '$ctl' batch"
expect banks-batch-swizzle 0 '"lowerBound":{"store":{"waysPerPhase":1,"wavefronts":64},"load":{"waysPerPhase":1,"wavefronts":128},"met":true}' -- bash -c "echo '{\"op\":\"banks.swizzle\",\"args\":{\"store\":\"$bnk_st\",\"load\":\"$bnk_ld\",\"shape\":[64,64],\"elemBits\":16,\"storeInstruction\":\"nvidia.st.b128\",\"loadInstruction\":\"nvidia.ld.b16\"}}' | '$ctl' batch"

# gemm: build, simulate, verify; configuration errors; the Level Zero no-device path (exit 3).
small=(--m 100 --n 72 --k 50 --sg-layout 2x2 --sg-data 16x32)
expect gemm-sim 0 "verification: PASSED: 7200 elements, 0 mismatches" -- "$ctl" gemm "${small[@]}"
expect gemm-sim-int8 0 "(exact int32)" -- "$ctl" gemm "${small[@]}" --dtype int8 --k-tile 32
expect gemm-sim-exact 0 "(exact fp32)" -- "$ctl" gemm "${small[@]}" --dtype f16 --inputs exact --transpose-b
expect gemm-tf32-default 0 "k_tile 16, DPAS 8x16x8" -- "$ctl" gemm --m 64 --n 64 --k 32 --dtype tf32
expect gemm-sg-8x8-grf256 1 "64 subgroups exceed the 32 (512 work-items) a workgroup may hold with grf_per_thread = 256" -- "$ctl" gemm --sg-layout 8x8 --grf 256
expect gemm-group-m-bad 1 "group_m = 0: must be in 1..64 tile rows" -- "$ctl" gemm --group-m 0
expect gemm-report 0 "registers: 101 of 256 GRF (32 accumulators + 48 operands + 4 block-I/O payloads + 1 scalars + 16 reserved for the compiler; assumed:" -- "$ctl" gemm "${small[@]}"
expect gemm-json 0 '"passed": true' -- "$ctl" gemm "${small[@]}" --dtype tf32 --k-tile 16 --format json
expect gemm-bad-sg-data 1 "error: sg_data[1] = 40: must be a power-of-two multiple of the DPAS execution size 16" -- "$ctl" gemm --sg-data 32x40
expect gemm-bad-dtype 2 "error: --dtype 'fp8': expected one of f16, bf16, int8, tf32" -- "$ctl" gemm --dtype fp8
expect gemm-bad-arch 2 "error: --arch: unknown target 'xe3' (known: pvc, bmg, arc, nvidia, cdna3, cdna4, or @file.json)" -- "$ctl" gemm --arch xe3
expect gemm-bad-int 2 "error: --m '1e3': expected an integer" -- "$ctl" gemm --m 1e3
expect gemm-bad-target 2 "error: --target 'sycl': expected sim, opencl, level-zero or cuda" -- "$ctl" gemm --target sycl
expect gemm-host-memory 1 "GiB of host memory (A, B, C and the float64 reference); the limit is 8 GiB" -- "$ctl" gemm --m 100000 --n 100000 --k 100000
# Issue 31, long runs: --target sim refuses more than 2^34 multiply-adds (M x N x K) before it
# allocates (--max-macs N, LAYOUT_MAX_GEMM_MACS=N raise it; the option wins), writes the plan
# before the run, gives the same result on any number of threads, and draws a progress line only
# on a terminal (not with --quiet).
expect gemm-macs-limit 1 "error: m, n, k: simulating this GEMM takes 17188257792 multiply-adds (4096x2048x2049, " -- "$ctl" gemm --m 4096 --n 2048 --k 2049
expect gemm-macs-limit-hint 1 "; the limit is 2^34 (17179869184) (raise it with --max-macs N or LAYOUT_MAX_GEMM_MACS)" -- "$ctl" gemm --m 4096 --n 2048 --k 2049
expect gemm-max-macs-refuses 1 "takes 360000 multiply-adds (100x72x50, " -- "$ctl" gemm "${small[@]}" --max-macs 359999
expect gemm-max-macs-limit 1 "the limit is 359999 (raise it with --max-macs N or LAYOUT_MAX_GEMM_MACS)" -- "$ctl" gemm "${small[@]}" --max-macs 359999
expect gemm-max-macs-raises 0 "verification: PASSED: 7200 elements, 0 mismatches" -- "$ctl" gemm "${small[@]}" --max-macs 360000
expect gemm-max-macs-env 1 "the limit is 359999 (raise it with" -- env LAYOUT_MAX_GEMM_MACS=359999 "$ctl" gemm "${small[@]}"
expect gemm-max-macs-option-wins 0 "verification: PASSED" -- env LAYOUT_MAX_GEMM_MACS=1000 "$ctl" gemm "${small[@]}" --max-macs 360000
expect gemm-max-macs-env-bad 1 "error: LAYOUT_MAX_GEMM_MACS: expected a positive decimal integer, got 'lots'" -- env LAYOUT_MAX_GEMM_MACS=lots "$ctl" gemm "${small[@]}"
expect gemm-max-macs-bad 2 "error: --max-macs: '0' is not a positive integer" -- "$ctl" gemm "${small[@]}" --max-macs 0
expect gemm-threads-bad 2 "error: --threads: 'two' is not a positive integer" -- "$ctl" gemm "${small[@]}" --threads two
expect gemm-quiet 0 "verification: PASSED: 7200 elements, 0 mismatches" -- "$ctl" gemm "${small[@]}" --quiet
expect gemm-no-progress-in-pipe 0 "" -- bash -c "'$ctl' gemm ${small[*]} 2>&1 >/dev/null | wc -c | grep -qx 0"
one=$("$ctl" gemm "${small[@]}" --threads 1 --format json | grep -v '"seconds"\|"threads"')
three=$("$ctl" gemm "${small[@]}" --threads 3 --format json | grep -v '"seconds"\|"threads"')
expect gemm-threads-same 0 "" -- test "$one" == "$three"
expect gemm-threads-same-exact 0 "" -- bash -c "diff <('$ctl' gemm ${small[*]} --dtype f16 --inputs exact --threads 1 | grep -v ' s$') <('$ctl' gemm ${small[*]} --dtype f16 --inputs exact --threads 4 | grep -v ' s$')"
# Killed after a second (2^34 multiply-adds on one thread take several), the run leaves its plan.
(timeout -s KILL 1 "$ctl" gemm --m 4096 --n 4096 --k 1024 --threads 1 >"$tmp/killed.txt" 2>/dev/null; true) 2>/dev/null
expect gemm-plan-before-run 0 "kernel gemm_bf16_8x4_32x64_k32: D[4096, 4096] = A[4096, 1024] * B[1024, 4096]" -- cat "$tmp/killed.txt"
expect gemm-plan-before-run-killed 1 "" -- grep -q "^verification:" "$tmp/killed.txt"
if command -v script >/dev/null; then
  # Standard error a terminal (script's pseudo-terminal): the estimate and the progress line.
  expect gemm-progress-tty 0 "simulating and verifying 360000 multiply-adds on " -- script -qec "'$ctl' gemm ${small[*]}" /dev/null
  expect gemm-progress-tty-quiet 0 "" -- bash -c "script -qec \"'$ctl' gemm ${small[*]} --quiet\" /dev/null | grep -c 'multiply-adds on' | grep -qx 0"
fi
expect gemm-too-big 1 "error: m = 20000000: exceeds the 2D block surface limit of 2^24 rows or bytes per row" -- "$ctl" gemm --m 20000000
expect gemm-grf 1 "more than the 128 of grf_per_thread" -- "$ctl" gemm --grf 128
expect gemm-level-zero 3 "error: level-zero: no device: Level Zero" -- "$ctl" gemm "${small[@]}" --target level-zero
if [[ $level_zero == no ]]; then
  expect gemm-no-level-zero 3 "error: level-zero: no device: Level Zero: this build has no Level Zero support" -- "$ctl" gemm "${small[@]}" --target level-zero
fi
# The loader is opened at run time: layoutctl links no Level Zero library (libze_*; layout's own
# liblayout_level_zero of a shared build is not one), and without a loader it still starts and
# says so (exit 3).
expect ldd-no-level-zero 1 "" -- bash -c "ldd '$ctl' | grep -i 'libze_\|ze_loader'"
if [[ $level_zero == yes ]]; then
  expect gemm-no-loader 3 "no device: Level Zero: cannot load the Level Zero loader /nonexistent/libze_loader.so.1" -- env LAYOUT_LEVEL_ZERO_LOADER=/nonexistent/libze_loader.so.1 "$ctl" gemm "${small[@]}" --target level-zero
fi
expect show-no-loader 0 " - register=1 -> (0, 1)" -- env LAYOUT_LEVEL_ZERO_LOADER=/nonexistent/libze_loader.so.1 "$ctl" show
# gemm --target cuda: the plan and the emitted files come first; this machine has no CUDA device
# (no driver, or a build without the runner), so the run exits 3 saying so. The driver, NVRTC
# and cuBLAS are opened at run time: layoutctl links none of them.
expect gemm-cuda-no-device 3 "error: cuda: no device:" -- "$ctl" gemm --target cuda --m 1000 --n 1000 --k 1000 --emit "$tmp/cuda"
expect gemm-cuda-plan 3 "ldmatrix reads: 128 issues (nvidia.ldmatrix.x4.trans), 512 wavefronts, ideal 512 (conflict-free)" -- "$ctl" gemm --target cuda --emit "$tmp/cuda"
expect gemm-cuda-emitted 0 "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32" -- cat "$tmp/cuda/gemm_sm80_bf16_128x256x64_w2x4_s3.cu"
expect gemm-cuda-plan-json 0 '"conflictFree": true' -- cat "$tmp/cuda/gemm_sm80_bf16_128x256x64_w2x4_s3.plan.json"
expect gemm-cuda-sm90 3 "= TMA SWIZZLE_128B (checked), boxes [128 x 64] and 4 x [64 x 64] (B N-major, read transposed)" -- "$ctl" gemm --target cuda --arch sm90 --emit "$tmp/cuda"
expect gemm-cuda-sm90-emitted 0 "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16" -- cat "$tmp/cuda/gemm_sm90_bf16_128x256x64_s4.cu"
expect gemm-cuda-bad-k 1 "error: k = 1001: must be a multiple of 8" -- "$ctl" gemm --target cuda --k 1001
expect gemm-cuda-host-memory 1 "GiB of host memory (A, B, D and the float64 reference); the limit is 8 GiB" -- "$ctl" gemm --target cuda --m 100000 --n 100000 --k 100000
expect gemm-cuda-bad-dtype 2 "error: --dtype 'int8': --target cuda takes f16 or bf16" -- "$ctl" gemm --target cuda --dtype int8
expect gemm-cuda-bad-arch 2 "error: --arch 'pvc': --target cuda takes sm80 or sm90" -- "$ctl" gemm --target cuda --arch pvc
expect gemm-cuda-bad-tile 1 "error: block_tile[0] = 96: must be a power of two in [16, 256]" -- "$ctl" gemm --target cuda --block-tile 96x128
expect gemm-cuda-only 2 "error: --warps: only with --target cuda" -- "$ctl" gemm --warps 2x2
expect gemm-cuda-sm90-warps 2 "error: --warps: applies to --arch sm80 only" -- "$ctl" gemm --target cuda --arch sm90 --warps 2x2
expect gemm-cuda-help 0 "--block-tile 128x256 over --warps 2x4, --k-tile 64, --stages 3" -- "$ctl" gemm --help
expect gemm-cuda-bad-config 1 "config: unknown key 'sg_layout'" -- bash -c "echo '{\"sg_layout\": [1, 1]}' > '$tmp/cuda.json' && '$ctl' gemm --target cuda --config '$tmp/cuda.json'"
expect ldd-no-cuda 1 "" -- bash -c "ldd '$ctl' | grep -i 'libcuda\.\|libcublas\|libnvrtc'"
echo '{"m": 64, "n": 64, "k": 64, "dtype": "bf16", "sg_layout": [2, 2], "sg_data": [16, 32], "k_tile": 32}' >"$tmp/gemm.json"
expect gemm-config 0 "kernel gemm_bf16_2x2_16x32_k32: D[64, 64] = A[64, 64] * B[64, 64]" -- "$ctl" gemm --config "$tmp/gemm.json"
expect gemm-config-override 0 "D[64, 128] = A[64, 64] * B[64, 128]" -- "$ctl" gemm --config "$tmp/gemm.json" --n 128
echo '{"m": 64, "sg_dat": [2, 2]}' >"$tmp/gemm_typo.json"
expect gemm-config-typo 1 "error: --config $tmp/gemm_typo.json: sg_dat: unknown field" -- "$ctl" gemm --config "$tmp/gemm_typo.json"
expect gemm-config-missing 1 "--config: cannot read file" -- "$ctl" gemm --config "$tmp/nope.json"
expect gemm-help 0 "layoutctl gemm --m 1000 --n 1000 --k 1000 --dtype bf16 --target sim --emit out/" -- "$ctl" gemm --help
if command -v clang-14 >/dev/null && command -v llvm-spirv-14 >/dev/null && command -v spirv-val >/dev/null; then
  expect gemm-emit 0 "wrote $tmp/emit/gemm_bf16_2x2_16x32_k32.spv" -- "$ctl" gemm "${small[@]}" --emit "$tmp/emit"
  expect gemm-emitted-valid 0 "" -- spirv-val --target-env opencl2.2 "$tmp/emit/gemm_bf16_2x2_16x32_k32.spv"
  expect gemm-emitted-plan 0 '"kernel": "gemm_bf16_2x2_16x32_k32"' -- cat "$tmp/emit/gemm_bf16_2x2_16x32_k32.plan.json"
  expect gemm-emitted-cl 0 "intel_sub_group_bf16_bf16_matrix_mad_k16" -- cat "$tmp/emit/gemm_bf16_2x2_16x32_k32.cl"
elif [[ -n ${LAYOUT_REQUIRE_SPIRV:-} ]]; then
  echo "FAIL gemm-emit: clang-14, llvm-spirv-14 or spirv-val missing (LAYOUT_REQUIRE_SPIRV is set)"
  failures=$((failures + 1))
fi

# Every subcommand of the overview rejects an option it does not take, naming it (exit 2).
subcommands=$("$ctl" --help | awk '/^subcommands:/ {on = 1; next} on && /^  [a-z]/ {print $1} /^$/ && on {on = 0}')
[[ $(wc -w <<<"$subcommands") -ge 10 ]] || { echo "FAIL subcommand-list: '$subcommands'"; failures=$((failures + 1)); }
for sub in $subcommands; do
  expect "unknown-option-$sub" 2 "unknown option '--bogus-option'" -- "$ctl" "$sub" --bogus-option
done

# targets: one vocabulary for every --target (and gemm --arch). Facts from the public sources in
# docs/reference/intel-xe.md §1.1 and §4.4: DPAS execution size 16 on PVC/BMG and 8 on DG2, GRF
# 64 B (32 B on DG2), 128 or 256 GRF per thread; DG2 has no 2D block I/O.
expect targets-list 0 "pvc (intel): Intel Data Center GPU Max" -- "$ctl" targets
expect targets-pvc 0 "  DPAS: execution size 16, systolic depth 8, repeat count up to 8, types f16 bf16 tf32 int8" -- "$ctl" targets pvc
expect targets-pvc-grf 0 "subgroup size 16; registers of 64 B, 128 or 256 per thread" -- "$ctl" targets pvc
expect targets-arc 0 "  DPAS: execution size 8," -- "$ctl" targets arc
expect targets-arc-no-blockio 0 "  2D block I/O: no" -- "$ctl" targets arc
expect targets-nvidia 0 "  bank model: nvidia" -- "$ctl" targets nvidia
expect targets-json 0 '"name":"cdna4","vendor":"amd"' -- "$ctl" targets --format json
expect targets-unknown 2 "error: unknown target 'h100' (known: pvc, bmg, arc, nvidia, cdna3, cdna4, or @file.json)" -- "$ctl" targets h100
# A user target: PVC's rules by reference, then as its own JSON (the description targets prints).
echo '{"name": "mygpu", "vendor": "intel", "subgroupSize": 16, "registerFile": {"registerBytes": 64, "registersPerThread": [128, 256]}, "dpas": {"executionSize": 16, "systolicDepth": 8, "maxRepeatCount": 8, "types": ["bf16", "f16"]}, "blockIo": "pvc", "bankModel": "xe"}' >"$tmp/mygpu.json"
"$ctl" targets pvc --format json | sed 's/"name":"pvc"/"name":"pvc2"/' >"$tmp/pvc2.json"
expect targets-user 0 "mygpu (intel)" -- "$ctl" targets @"$tmp/mygpu.json"
want_plan=$("$ctl" blockload --encoding "$dpas_b" --shape 32x256 --elem-bits 16 --target pvc)
expect blockload-user-target 0 "$want_plan" -- "$ctl" blockload --encoding "$dpas_b" --shape 32x256 --elem-bits 16 --target @"$tmp/mygpu.json"
expect blockload-target-file-roundtrip 0 "$want_plan" -- "$ctl" blockload --encoding "$dpas_b" --shape 32x256 --elem-bits 16 --target @"$tmp/pvc2.json"
expect blockload-no-blockio 2 "error: --target: target 'nvidia' has no 2D block I/O (targets with it: pvc, bmg)" -- "$ctl" blockload --encoding "$dpas_b" --shape 32x256 --elem-bits 16 --target nvidia
echo '{"name": "bad", "vendor": "intel", "subgroupSize": 12}' >"$tmp/bad_target.json"
expect target-file-bad 1 "error: --target: target '$tmp/bad_target.json': subgroupSize: 12 is not a power of two" -- "$ctl" blockload --encoding "$dpas_b" --shape 32x256 --elem-bits 16 --target @"$tmp/bad_target.json"
expect propagate-no-dpas 1 "error: dpas: target 'cdna3' has no DPAS unit (targets with one: pvc, bmg, arc)" -- "$ctl" propagate dpas --result '#xegpu.sg_map<wi_layout = [1, 16], wi_data = [1, 1]>' --shape-a 8x16 --shape-b 16x16 --element-type bf16 --target cdna3
# The Xe SLM model is reached by any Intel target and by its own name (the alias xe = pvc).
slm_st='#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 8], warpsPerCTA = [4, 1], order = [1, 0]}>'
slm_ld='#ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 2], warpsPerCTA = [1, 4], order = [0, 1]}>'
want_swz=$("$ctl" swizzle --store "$slm_st" --load "$slm_ld" --shape 64x64 --elem-bits 16 --target xe | sed 's/chosen for xe/chosen for T/')
expect swizzle-target-bmg 0 "$want_swz" -- bash -c "'$ctl' swizzle --store '$slm_st' --load '$slm_ld' --shape 64x64 --elem-bits 16 --target bmg | sed 's/chosen for bmg/chosen for T/'"
expect swizzle-target-slm 0 "instructions chosen for pvc: xe.slm.st.b128 and xe.slm.ld.b16" -- "$ctl" swizzle --store "$slm_st" --load "$slm_ld" --shape 64x64 --elem-bits 16 --target pvc
expect gemm-arch-no-dpas16 1 "error: arch 'arc': the GEMM kernels need DPAS over 16 lanes and 2D block I/O (targets: pvc, bmg)" -- "$ctl" gemm --arch arc

# Shared op arguments (layout/protocol/op_args.h): the CLI and the batch protocol give the same rule
# in the same words, each naming the argument its own way.
expect args-bits-cli 2 "error: --elem-bits: 12 is not 8, 16 or 32" -- "$ctl" blockload --encoding "$dpas_b" --shape 32x256 --elem-bits 12
expect args-bits-batch 0 '"error":"banks.swizzle: args.elemBits: 12 is not 8, 16, 32 or 64"' -- bash -c "echo '{\"op\":\"banks.swizzle\",\"args\":{\"store\":\"$bnk_st\",\"load\":\"$bnk_ld\",\"shape\":[64,64],\"elemBits\":12,\"storeInstruction\":\"nvidia.st.b128\",\"loadInstruction\":\"nvidia.ld.b16\"}}' | '$ctl' batch"
expect args-bits-blockload-batch 0 '"error":"blockLoad.plan: args.elemBits: 12 is not 8, 16 or 32"' -- bash -c "echo '{\"op\":\"blockLoad.plan\",\"args\":{\"encoding\":\"$dpas_b\",\"shape\":[32,256],\"elemBits\":12}}' | '$ctl' batch"
expect args-shape-cli 2 "error: --shape: 0 is outside [1, 2^40]" -- "$ctl" convert --src "$cvt_a" --dst "$cvt_b" --shape 0x32 --elem-bits 16
expect args-addresses-cli 1 "error: --addresses: '3' is not LANE:BYTE with a lane in [0, 4095]" -- "$ctl" banks --addresses 0:0,3 --instruction nvidia.ld.b32
expect args-addresses-json-cli 1 "error: --addresses[1]: expected [lane, byte] with a lane in [0, 4095] and a byte address >= 0" -- "$ctl" banks --addresses '[[0, 0], [5000, 4]]' --instruction nvidia.ld.b32
expect args-addresses-batch 0 '"error":"banks.analyze: args.byteAddresses[1]: expected [lane, byte] with a lane in [0, 4095] and a byte address >= 0"' -- bash -c "echo '{\"op\":\"banks.analyze\",\"args\":{\"byteAddresses\":[[0,0],[5000,4]],\"instruction\":\"nvidia.ld.b32\"}}' | '$ctl' batch"
expect banks-zero-unit 2 "error: --swizzle-unit: 0 is outside [1, 2^20]" -- "$ctl" banks --swizzle-unit 0
expect banks-huge-unit 2 "error: --swizzle-unit: 99999999 is outside [1, 2^20]" -- "$ctl" banks --swizzle-unit 99999999

# One op, two front ends (issue 16): a subcommand bound to an op prints, with --format json,
# exactly the "result" of the batch request with the same arguments; a bad value fails with the
# same rule, named as each front end spells it.
same_as_batch() { # NAME OP ARGS_JSON -- cli args...
  local name=$1 op=$2 args=$3
  shift 4
  local cli batch
  cli=$("$ctl" "$@" --format json 2>&1)
  batch=$(printf '{"id":1,"op":"%s","args":%s}\n' "$op" "$args" | "$ctl" batch)
  if [[ -n $cli && $batch == "{\"id\":1,\"result\":$cli}" ]]; then
    passes=$((passes + 1))
  else
    echo "FAIL $name: cli '${cli:0:300}' vs batch '${batch:0:300}'"
    failures=$((failures + 1))
  fi
}
jq_str() { printf '"%s"' "$1"; } # the encodings used here hold no quotes or backslashes
same_as_batch same-convert convert.plan "{\"src\":$(jq_str "$cvt_a"),\"dst\":$(jq_str "$cvt_t"),\"shape\":[64,64],\"elemBits\":16}" -- convert --src "$cvt_a" --dst "$cvt_t" --shape 64x64 --elem-bits 16
same_as_batch same-blockload blockLoad.plan "{\"encoding\":$(jq_str "$dpas_b"),\"shape\":[32,256],\"elemBits\":16,\"transposedInMemory\":true,\"target\":\"bmg\"}" -- blockload --encoding "$dpas_b" --shape 32x256 --elem-bits 16 --transposed --target bmg
same_as_batch same-banks banks.analyze "{\"access\":$(jq_str "$bnk_st"),\"shape\":[64,64],\"elemBits\":16,\"instruction\":\"nvidia.st.b128\",\"swizzleUnit\":8,\"maxPhase\":8}" -- banks --access "$bnk_st" --shape 64x64 --elem-bits 16 --instruction nvidia.st.b128 --swizzle-unit 8 --max-phase 8
same_as_batch same-banks-addresses banks.analyze '{"byteAddresses":[[0,0],[1,144],[2,4]],"instruction":"nvidia.ld.b32"}' -- banks --addresses 0:0,1:144,2:4 --instruction nvidia.ld.b32
same_as_batch same-swizzle banks.swizzle "{\"store\":$(jq_str "$bnk_st"),\"load\":$(jq_str "$bnk_ld"),\"shape\":[64,64],\"elemBits\":16,\"target\":\"nvidia\"}" -- swizzle --store "$bnk_st" --load "$bnk_ld" --shape 64x64 --elem-bits 16 --target nvidia
same_as_batch same-propagate xegpu.propagate '{"op":"transpose","result":"#xegpu.layout<sg_layout = [4, 8], sg_data = [32, 64], order = [1, 0]>","permutation":[1,0]}' -- propagate transpose --result '#xegpu.layout<sg_layout = [4, 8], sg_data = [32, 64], order = [1, 0]>' --permutation 1,0
expect same-rule-cli 2 "error: --bytes-per-lane: 300 is outside [1, 256]" -- "$ctl" banks --addresses 0:0 --instruction nvidia.ld.b32 --bytes-per-lane 300
expect same-rule-batch 0 '"error":"banks.analyze: args.bytesPerLane: 300 is outside [1, 256]"' -- bash -c "echo '{\"op\":\"banks.analyze\",\"args\":{\"byteAddresses\":[[0,0]],\"instruction\":\"nvidia.ld.b32\",\"bytesPerLane\":300}}' | '$ctl' batch"
expect same-swizzle-target-batch 0 '"error":"banks.swizzle: args.storeInstruction: give either it or args.target, not both"' -- bash -c "echo '{\"op\":\"banks.swizzle\",\"args\":{\"store\":\"x\",\"load\":\"y\",\"elemBits\":16,\"target\":\"nvidia\",\"storeInstruction\":\"nvidia.st.b32\",\"loadInstruction\":\"nvidia.ld.b32\"}}' | '$ctl' batch"

# Issue 31: wrong or silent answers that are errors now.
# a. A target whose sections the tools refuse is refused when read, by targets and --target alike.
"$ctl" targets pvc --format json | sed 's/"maxHeight":[0-9]*/"maxHeight":-1/' >"$tmp/bad_height.json"
"$ctl" targets pvc --format json | sed 's/"maxTileWidth":[0-9]*/"maxTileWidth":0/' >"$tmp/bad_width.json"
echo '{"name": "badbanks", "vendor": "other", "subgroupSize": 32, "bankModel": {"name": "m", "laneCount": 32, "banks": 32, "bankBytes": 0, "instructions": [{"name": "ld", "direction": "read", "bytesPerLane": 4}]}}' >"$tmp/bad_banks.json"
expect issue31-targets-bad-height 1 "error: target '$tmp/bad_height.json': blockIo: surface.maxHeight: -1 is outside [1, 2147483648]" -- "$ctl" targets @"$tmp/bad_height.json"
expect issue31-blockload-bad-height 1 "error: --target: target '$tmp/bad_height.json': blockIo: surface.maxHeight: -1 is outside [1, 2147483648]" -- "$ctl" blockload --encoding "$dpas_b" --shape 32x256 --elem-bits 16 --target @"$tmp/bad_height.json"
expect issue31-targets-bad-width 1 "error: target '$tmp/bad_width.json': blockIo: elements[0].maxTileWidth: 0 is outside [1, 256]" -- "$ctl" targets @"$tmp/bad_width.json" --format json
expect issue31-targets-bad-banks 1 "error: target '$tmp/bad_banks.json': bankModel.bankBytes: 0 is outside [1, 64]" -- "$ctl" targets @"$tmp/bad_banks.json"
# b. Unknown alias names, a file without aliases, an alias defined twice.
expect issue31-alias-unknown 1 "error: -alias-names: unknown alias name 'nosuch': $tmp/aliases.mlir defines '#b', '#s'" -- "$ctl" show -i "$tmp/aliases.mlir" -t 'tensor<4xf16>' -alias-names=nosuch
printf '%s\n' '// no aliases here' 'module {}' >"$tmp/no_aliases.mlir"
expect issue31-alias-none 1 "error: $tmp/no_aliases.mlir: the file defines no aliases" -- "$ctl" show -i "$tmp/no_aliases.mlir" -t 'tensor<4xf16>'
printf '%s\n' '#a = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>' '' ' #a = #ttg.swizzled_shared<{vec = 2, perPhase = 1, maxPhase = 1, order = [0]}>' >"$tmp/twice.mlir"
expect issue31-alias-redefined 1 "error: $tmp/twice.mlir: line 3, column 2: redefinition of alias '#a' (first defined at line 1, column 1)" -- "$ctl" show -i "$tmp/twice.mlir" -t 'tensor<4xf16>'
# c. apply takes every 64-bit value, as the batch does (only the dim's low bits are read).
expect issue31-apply-u64 0 "dim0=3" -- "$ctl" apply "$lanes" lane=18446744073709551615
expect issue31-apply-u64-batch 0 '{"id":1,"result":[["dim0",3]]}' -- bash -c "echo '{\"id\":1,\"op\":\"apply\",\"inputs\":[$lanes],\"args\":{\"ins\":[[\"lane\",18446744073709551615]]}}' | '$ctl' batch"
expect issue31-apply-past-u64 2 "error: expected inDim=value with a value in [0, 2^64 - 1] (18446744073709551615), got 'lane=18446744073709551616'" -- "$ctl" apply "$lanes" lane=18446744073709551616
# d. Ids past the layout's grid are refused, not wrapped.
expect issue31-xegpu-subgroup 1 "error: --subgroup: 99 is outside the valid range [0, 3] (sg_layout [2, 2] has 4 subgroups)" -- "$ctl" xegpu tiles --layout "$xe" --shape 128x128 --subgroup 99
expect issue31-xegpu-id 1 "error: --id: 99999999999 is outside the valid range [0, 3] (sg_layout [2, 2] has 4 subgroups)" -- "$ctl" xegpu delinearize --layout "$xe" --id 99999999999 --level subgroup
expect issue31-xegpu-lane 1 "error: --lane: 16 is outside the valid range [0, 15] (lane_layout [1, 16] has 16 lanes)" -- "$ctl" xegpu lane-coords --layout "$xe" --shape 128x128 --subgroup 0 --lane 16
# e. propagate refuses shapes with a 0.
expect issue31-propagate-zero 2 "error: --shape: dimension 1 is 0: every dimension is at least 1" -- "$ctl" propagate sg_layout_candidates --num-subgroups 32 --shape 128x0 --inst-data 8x16
expect issue31-propagate-zero-a 2 "error: --shape-a: dimension 0 is 0: every dimension is at least 1" -- "$ctl" propagate dpas --result '#xegpu.sg_map<wi_layout = [1, 16], wi_data = [1, 1]>' --shape-a 0x16 --shape-b 16x16 --element-type bf16
# f. sg_layout_candidates is a JSON list.
expect issue31-candidates-json 0 '{"candidates":[[8,4],[16,2]]}' -- "$ctl" propagate sg_layout_candidates --num-subgroups 32 --shape 128x64 --inst-data 8x16 --format json
expect issue31-candidates-text 0 "candidates: [[8, 4], [16, 2]]" -- "$ctl" propagate sg_layout_candidates --num-subgroups 32 --shape 128x64 --inst-data 8x16
# g. A bad byte address is named as such.
expect issue31-addresses-byte 1 "error: --addresses: '0:9223372036854775807': byte address 9223372036854775807 is above 2^48 (a byte address is an integer in [0, 2^48])" -- "$ctl" banks --addresses 0:9223372036854775807 --instruction nvidia.ld.b32
expect issue31-addresses-byte-text 1 "error: --addresses: '1:x4': the byte address 'x4' is not a non-negative integer" -- "$ctl" banks --addresses 0:0,1:x4 --instruction nvidia.ld.b32
expect issue31-addresses-byte-json 1 "error: --addresses[0][1]: byte address 281474976710657 is above 2^48" -- "$ctl" banks --addresses '[[0, 281474976710657]]' --instruction nvidia.ld.b32
# h. Options are named as spelled.
expect issue31-spelled-l 2 "error: option -l needs a value" -- "$ctl" show -l
expect issue31-spelled-format 2 "error: -format must be 'text', 'json', not 'xml'" -- "$ctl" show -format xml
expect issue31-spelled-t 2 "error: -t: expected tensor<AxBx...xTYPE>, got 'tensor<4xf16'" -- "$ctl" show -l "$blocked" -t 'tensor<4xf16'
expect issue31-spelled-flag 2 "error: option -use-hw-view is a flag and takes no value" -- "$ctl" show -l "$blocked" -t 'tensor<8x16xf16>' -use-hw-view=yes
# i. Messages quote at most ~200 bytes of an input, with its length.
expect_short() { # NAME STATUS WANT -- command: stderr holds WANT and stays under 1000 bytes
  local name=$1 want_status=$2 want=$3
  shift 4
  "$@" >/dev/null 2>"$tmp/short_err"
  local status=$? size
  size=$(wc -c <"$tmp/short_err")
  if [[ $status -ne $want_status || $size -ge 1000 || $(cat "$tmp/short_err") != *"$want"* ]]; then
    echo "FAIL $name: exit $status (want $want_status), $size bytes: $(head -c 400 "$tmp/short_err")"
    failures=$((failures + 1))
  else
    passes=$((passes + 1))
  fi
}
long=$(head -c 100000 /dev/zero | tr '\0' 'k')
printf '#ttg.blocked<{%s = [1], %s = [1]}>' "$long" "$long" >"$tmp/long_param.mlir"
expect_short issue31-short-param 1 "...' (100000 bytes) is given twice" -- "$ctl" show @"$tmp/long_param.mlir" --shape 4
expect_short issue31-short-target 2 "...' (100000 bytes) (known: pvc" -- "$ctl" targets "$long"
expect_short issue31-short-format 2 "...' (100000 bytes)" -- "$ctl" show --format "$long"
expect_short issue31-short-option 2 "unknown option '--kkk" -- "$ctl" show "--$long"

echo "$passes passed, $failures failed"
[[ $failures -eq 0 ]]
