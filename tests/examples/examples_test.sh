#!/usr/bin/env bash
# Runs every program of examples/ and checks values of its output against sources that do not come
# from the program: the seeds' printed examples as the existing tests transcribe them (each check
# names the test file and the seed lines), or facts derived by hand from the encodings' definitions
# (the derivation is in the comment). No output of the programs is stored as a golden file.
#
# usage: examples_test.sh DIR            (the directory holding the example binaries)
#        examples_test.sh BINARY...      (the binaries themselves, e.g. CMake's $<TARGET_FILE:...>)
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
data=$here/../data

declare -A bin
if [[ $# -eq 1 && -d $1 ]]; then
  for name in conversion_example xegpu_lane_coordinates dpas_block_loads bank_report_swizzle \
    conversion_plan gemm_build_simulate typed_encodings hardware_targets batch_embedding \
    cuda_gemm_plan xegpu_propagation; do
    bin[$name]=$1/$name
  done
else
  for path in "$@"; do bin[$(basename "$path")]=$path; done
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passes=0
failures=0
pass() { passes=$((passes + 1)); }
fail() {
  echo "FAIL $1"
  failures=$((failures + 1))
}

# run NAME [ARG...]: runs the example, keeps its output in $tmp/NAME.out, checks exit status 0.
run() {
  local name=$1
  shift
  if [[ ! -x ${bin[$name]:-} ]]; then
    fail "$name: no binary (${bin[$name]:-not given})"
    : >"$tmp/$name.out"
    return
  fi
  "${bin[$name]}" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
  local rc=$?
  if [[ $rc -eq 0 ]]; then pass; else fail "$name: exit status $rc: $(head -c 400 "$tmp/$name.err")"; fi
}

# line NAME CHECK TEXT: the output of NAME has a line exactly TEXT.
line() {
  if grep -qxF -- "$3" "$tmp/$1.out"; then pass; else fail "$1 $2: no line '$3'"; fi
}

# basis FILE TEXT: a LinearLayout::toString listing in FILE has the basis line TEXT
# ("warp=8 -> (16, 0)", printed as " - warp=8 -> ..." or "   warp=8 -> ...").
basis() {
  if sed -E 's/^ (-| ) //' "$1" | grep -qxF -- "$2"; then pass; else fail "$(basename "$1"): no basis '$2'"; fi
}

# ---- conversion_example ---------------------------------------------------------------------
# By hand: src holds, in lane l, register r, the element (dim0 = l >> 1, dim1 = r + 8 * (l & 1));
# register 5 of lane 3 is (1, 13). dst puts dim0 in register bits 0-2 and lane bit 0, dim1 in
# lane bits 1-4: (1, 13) is register 1 of lane 13 << 1 = 26.
run conversion_example
line conversion_example register5-lane3 "source register 5 of lane 3 goes to register 1 of lane 26"

# ---- xegpu_lane_coordinates -----------------------------------------------------------------
# Seed 000 lines 790-802 (as tests/xegpu/xegpu_seed_test.cpp, BroadcastExample64x16, transcribes
# them): [64, 16] over sg_layout [4, 8], sg_data [16, 16], inst_data [8, 16]: dim 0 split over 4
# subgroups (subgroup s owns rows 16 * (s / 8) .. + 15), dim 1 broadcast to 8; lane 5 of subgroup
# 9 holds column 5 of rows 16..31, the first load's 8 rows first; 16 values per lane; warp bases
# 1, 2, 4 zero, 8 -> (16, 0), 16 -> (32, 0).
run xegpu_lane_coordinates
out=$tmp/xegpu_lane_coordinates.out
want="subgroup 9, lane 5:"
for r in $(seq 16 31); do want+=" [$r, 5]"; done
line xegpu_lane_coordinates sg9-lane5 "$want"
# By hand: subgroup 0 is [0, 0] of the grid, lane 0 is lane [0, 0], register 0 is the origin.
if grep -q '^subgroup 0, lane 0: \[0, 0\] ' "$out"; then pass; else fail "xegpu sg0-lane0 owns [0, 0] first"; fi
# Every subgroup's tile; the grid coordinate is the row-major linearization of order [1, 0]
# (seed 000 lines 711-716, tests/xegpu/xegpu_seed_test.cpp SubgroupIdLinearizationTable).
for sg in $(seq 0 31); do
  line xegpu_lane_coordinates "tile-$sg" \
    "subgroup $sg (sg_layout coordinate [$((sg / 8)), $((sg % 8))]): sg_data [16, 16] at [$((16 * (sg / 8))), 0]"
done
for b in "warp=1 -> (0, 0)" "warp=2 -> (0, 0)" "warp=4 -> (0, 0)" "warp=8 -> (16, 0)" \
  "warp=16 -> (32, 0)"; do
  basis "$out" "$b"
done
# 32 subgroups x 16 lanes, each holding exactly 16 coordinates.
n=$(grep -c '^subgroup [0-9]*, lane [0-9]*:' "$out")
[[ $n -eq 512 ]] && pass || fail "xegpu: $n lane lines, want 512"
bad=$(awk -F: '/^subgroup [0-9]+, lane [0-9]+:/ { if (gsub(/\[/, "[", $2) != 16) print }' "$out" | wc -l)
[[ $bad -eq 0 ]] && pass || fail "xegpu: $bad lanes without 16 coordinates"
# Broadcast: subgroups 8..15 (grid row 1) hold the same elements, lane by lane.
a=$(sed -n 's/^subgroup 8, \(lane .*\)/\1/p' "$out")
b=$(sed -n 's/^subgroup 15, \(lane .*\)/\1/p' "$out")
[[ -n $a && $a == "$b" ]] && pass || fail "xegpu: subgroups 8 and 15 differ (broadcast along dim 1)"

# ---- dpas_block_loads -----------------------------------------------------------------------
run dpas_block_loads
out=$tmp/dpas_block_loads.out
# section OPERAND: the lines of the "== operand OPERAND" part.
section() { awk -v op="== operand $1:" 'index($0, op) == 1 { on = 1; next } /^== operand / { on = 0 } on' "$out"; }
section A >"$tmp/a.txt"
section B >"$tmp/b.txt"
# listing FILE: "Block load tile layout after adding loads:" through "where out dims are: ...".
listing() { awk '/^Block load tile layout after adding loads:/ { on = 1 } on { print } on && /^where out dims are:/ { exit }' "$1"; }
# Seed 002 lines 179-191 (tests/data/seed002/blockload_a_loads.txt), byte for byte.
if diff <(listing "$tmp/a.txt") "$data/seed002/blockload_a_loads.txt" >"$tmp/diff"; then pass; else
  fail "dpas A tile layout vs seed 002 lines 179-191: $(cat "$tmp/diff")"
fi
# Seed 002 lines 397-408 (tests/data/seed002/blockload_b_loads.txt) with the correction of
# tests/data/seed002/INDEX.md item 4 (out dims transposed in the seed), as
# tests/intel/block_load_plan_test.cpp (BlockLoadPlanSeed.OperandB) applies it.
sed -e 's/load=1 -> (128, 0)/load=1 -> (0, 128)/' \
  -e 's/\[dim0 (size 256), dim1 (size 32)\]/[dim0 (size 16), dim1 (size 256)]/' \
  "$data/seed002/blockload_b_loads.txt" >"$tmp/b_want.txt"
if diff <(listing "$tmp/b.txt") "$tmp/b_want.txt" >"$tmp/diff"; then pass; else
  fail "dpas B tile layout vs seed 002 lines 397-408 (corrected): $(cat "$tmp/diff")"
fi
# tests/intel/block_load_plan_test.cpp OperandA: one 16b_32r16x2c load at (0, 0) (the seed's
# "load is a size 1 dimension", reference §6); OperandB: two transform_16b_32r16x2c loads at
# (0, 0) and (0, 128) (INDEX.md item 4: "The second load starts at memory element (0, 128)").
grep -qxF "  load 0: 16b_32r16x2c at [0, 0]" "$tmp/a.txt" && pass || fail "dpas A load 0"
[[ $(grep -c '^  load [0-9]*:' "$tmp/a.txt") -eq 1 ]] && pass || fail "dpas A: not exactly 1 load"
grep -qxF "  load 0: transform_16b_32r16x2c at [0, 0]" "$tmp/b.txt" && pass || fail "dpas B load 0"
grep -qxF "  load 1: transform_16b_32r16x2c at [0, 128]" "$tmp/b.txt" && pass || fail "dpas B load 1"
[[ $(grep -c '^  load [0-9]*:' "$tmp/b.txt") -eq 2 ]] && pass || fail "dpas B: not exactly 2 loads"
# Shuffles, reference §2.4 as tests/intel/block_load_plan_test.cpp states it: A's DPAS i takes
# registers (i >> 2) * 32 + 8 * (i & 3) + 0..7 of the load; B's iteration t takes dwords
# (t & 1) * 16 + 8 * (t >> 1) + 0..7; the same vector for every lane; 8 instructions each.
for i in $(seq 0 7); do
  regs=""
  for j in $(seq 0 7); do regs+="${regs:+, }$(((i >> 2) * 32 + 8 * (i & 3) + j))"; done
  grep -qxF "  dpas $i <- load 0 iteration $i all lanes: [$regs]" "$tmp/a.txt" && pass ||
    fail "dpas A shuffle $i: want [$regs]"
done
nb=0
while read -r t got; do
  regs=""
  for j in $(seq 0 7); do regs+="${regs:+, }$(((t & 1) * 16 + 8 * (t >> 1) + j))"; done
  [[ $got == "[$regs]" ]] && pass || fail "dpas B shuffle iteration $t: $got, want [$regs]"
  nb=$((nb + 1))
done < <(sed -n 's/^  dpas [0-9]* <- load [0-9]* iteration \([0-9]*\) all lanes: \(.*\)/\1 \2/p' "$tmp/b.txt")
[[ $nb -eq 8 ]] && pass || fail "dpas B: $nb shuffle vectors for all lanes, want 8"
[[ $(grep -c '^  dpas ' "$tmp/a.txt") -eq 8 ]] && pass || fail "dpas A: not 8 shuffle vectors"
# Subgroup origins of A: warp id = 4 * m + n (warpsPerCTA [8, 4]); the 4 N-warps hold the same
# rows and the M-warps step 32 rows (tests/data/seed002/INDEX.md, dpas_a_hw_view.txt; the test's
# warp 14 -> (96, 0) is 4 + 8 -> 32 + 64).
for b in "warp=1 -> (0, 0)" "warp=2 -> (0, 0)" "warp=4 -> (32, 0)" "warp=8 -> (64, 0)" \
  "warp=16 -> (128, 0)"; do
  basis "$tmp/a.txt" "$b"
done

# ---- bank_report_swizzle --------------------------------------------------------------------
# Seed 004 as tests/smem/seed004_banks_test.cpp transcribes it: unswizzled, 4-way in every phase,
# 256 wavefronts against an ideal of 64; phase 0 is threads 0-3, 12-15, 20-27, and threads 0, 2,
# 12, 14 all hit banks 0-3 (4 words each). With swizzle unit 8 / max phase 8: conflict-free, and
# thread 1 on banks 36-39 (row 1, chunk 0 ^ 1 = 1: byte (64 + 8) * 2 = 144).
run bank_report_swizzle
out=$tmp/bank_report_swizzle.out
line bank_report_swizzle row-major-summary \
  "summary: row-major load: 4-way, 256 wavefronts (ideal 64), 192 conflict wavefronts"
line bank_report_swizzle row-major-ways "ways/phase    4 4 4 4   (worst over every access)"
line bank_report_swizzle phase0-lanes "phase 0 (lanes 0-3, 12-15, 20-27): 4-way, ideal 1"
n=$(awk '/^phase 0 / { on = 1; next } /^phase / { on = 0 } /^==/ && on { exit }
  on && /^ +[0-3]  .*  0, 2, 12, 14 +<- 4 words$/ { n++ } END { print n + 0 }' "$out")
[[ $n -eq 4 ]] && pass || fail "bank_report_swizzle: banks 0-3 of phase 0 not all lanes 0, 2, 12, 14 ($n of 4)"
line bank_report_swizzle seed-swizzle-summary \
  "summary: seed swizzle load: 1-way, 64 wavefronts (ideal 64), 0 conflict wavefronts"
line bank_report_swizzle seed-swizzle-lane1 "phase 0, lane 1: byte 144, banks 36 37 38 39"
# Synthesis (docs: conflict-free means 0 wavefronts from conflicts on both sides, and the loads
# then need only the ideal 64 of the seed's tile); the lower bound is met.
if grep -qE '^summary: synthesized store: 1-way, [0-9]+ wavefronts \(ideal [0-9]+\), 0 conflict wavefronts$' "$out"; then
  pass
else fail "bank_report_swizzle: synthesized store not conflict-free"; fi
line bank_report_swizzle synth-load \
  "summary: synthesized load: 1-way, 64 wavefronts (ideal 64), 0 conflict wavefronts"
line bank_report_swizzle synth-bound "summary: synthesized lower bound met: yes"

# ---- conversion_plan ------------------------------------------------------------------------
# By hand, 32x32 f16. src blocked [1, 4] / [8, 4] / [4, 1]: register bases (0,1) (0,2) (0,16),
# lane (0,4) (0,8) (1,0) (2,0) (4,0), warp (8,0) (16,0). dst blocked [2, 2] / [4, 8] / [4, 1]:
# register (0,1) (1,0) (0,16), lane (0,2) (0,4) (0,8) (2,0) (4,0), warp (8,0) (16,0). The warp
# bases agree and the lane bases do not: intra-warp shuffles. 32 x 32 / (32 lanes x 4 warps) = 8
# registers per lane on both sides; register 0 is (0,1) on both, so pairs of f16 move as 32 bits,
# and 8 / 2 = 4 dst vectors per lane need at least 4 rounds. comp sends each dst basis to the
# src location of the same element, e.g. dst register 2 = (1,0) = src lane 4.
run conversion_plan
line conversion_plan kind "conversion: intra-warp shuffles"
line conversion_plan sizes "32 lanes, 4 warps, 1 blocks; 8 src and 8 dst registers per lane; 16-bit elements"
if grep -qE '^4 rounds \([0-9]+ shuffles, [0-9]+ local\), lower bound 4; vectors of 2 elements \(32 bits\)$' \
  "$tmp/conversion_plan.out"; then pass; else fail "conversion_plan: not 4 rounds of 32-bit vectors"; fi
for b in "register=1 -> (1, 0, 0, 0)" "register=2 -> (0, 4, 0, 0)" "register=4 -> (4, 0, 0, 0)" \
  "lane=1 -> (2, 0, 0, 0)" "lane=2 -> (0, 1, 0, 0)" "lane=4 -> (0, 2, 0, 0)" \
  "lane=8 -> (0, 8, 0, 0)" "lane=16 -> (0, 16, 0, 0)" "warp=1 -> (0, 0, 1, 0)" \
  "warp=2 -> (0, 0, 2, 0)"; do
  basis "$tmp/conversion_plan.out" "$b"
done
# dst lane 3 = (0,2) ^ (0,4) = (0, 6); its registers add (0,1), (1,0), (0,16). In src, column
# bits 1, 2, 16 are registers 1, 2, 4, column bits 4, 8 lanes 1, 2, row 1 lane 4: (0, 6) is
# register 2 of lane 1, (1, 7) register 3 of lane 5, (0, 22) register 6 of lane 1, ...
src_reg=(2 3 2 3 6 7 6 7)
src_lane=(1 1 5 5 1 1 5 5)
for r in $(seq 0 7); do
  line conversion_plan "lane3-reg$r" \
    "dst register $r of lane 3 (warp 0) <- src register ${src_reg[$r]} of lane ${src_lane[$r]} (warp 0)"
done

# ---- gemm_build_simulate --------------------------------------------------------------------
# By hand: 64x64x64 bf16 on sg_layout [2, 2] x sg_data [16, 32]: workgroup tile 32x64, so 2 x 1
# workgroups of 4 subgroups; DPAS is 8x16x16 for bf16, so (64/8) * (64/16) * (64/16) = 128 DPAS;
# 64 * 64 / (8 * 16) = 32 accumulator tiles, one block store each. Verification: every one of the
# 64 * 64 = 4096 elements, bit for bit on exact inputs, within the fp32 bound on random ones (the
# reported fraction of the bound at most 1).
run gemm_build_simulate
out=$tmp/gemm_build_simulate.out
for kind in exact random; do
  if grep -qE "^$kind inputs: simulated 2 workgroups \(8 subgroups\): 128 DPAS, [0-9]+ loads, 32 stores$" "$out"; then
    pass
  else fail "gemm $kind: not 2 workgroups / 8 subgroups / 128 DPAS / 32 stores"; fi
done
line gemm_build_simulate exact "verification: PASSED: 4096 elements, 0 mismatches (exact fp32)"
ratio=$(sed -n 's/^verification: PASSED: 4096 elements, 0 mismatches (|D - ref| <= gamma(64) \* sum|a\*b| (fp32, u = 2^-24, against the exact sum)), max error .* = \([0-9.e+-]*\) of the bound$/\1/p' "$out")
if [[ -n $ratio ]] && awk -v r="$ratio" 'BEGIN { exit !(r >= 0 && r <= 1) }'; then pass; else
  fail "gemm random: no PASSED line with a bound fraction in [0, 1]: $(grep '^verification' "$out")"
fi

# ---- typed_encodings ------------------------------------------------------------------------
# Printed text: Triton's spelling, as Triton 3.6.0 prints these encodings in
# tests/data/triton_encoding_vectors.jsonl (the blocked one as id 77 with other warps; the mma as
# id 284; dot_op(nvidia_mma) with kWidth as ids 172-175).
run typed_encodings
out=$tmp/typed_encodings.out
mma="#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 1], instrShape = [16, 8]}>"
line typed_encodings blocked-text "blocked text: #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]}>"
line typed_encodings mma-text "mma text: $mma"
line typed_encodings dot-text "dot_op A text: #ttg.dot_op<{opIdx = 0, parent = $mma, kWidth = 2}>"
# By hand, blocked [1, 4] / [8, 4] / [1, 1], order [1, 0] over [8, 16] (docs/reference/
# triton-linear-layout.md §5.2: identityStandardND over register, then lane, dim 1 first): the 4
# registers step columns 1, 2; lane bits 0-1 columns 4, 8; lane bits 2-4 rows 1, 2, 4. So element
# (r, c) is register c % 4 of lane 4 * r + c / 4: (5, 13) is register 1 of lane 23, (7, 15)
# register 3 of lane 31; lane 23 = 0b10111, register 1 holds (1 + 4, 4 + 8 + 1) = (5, 13).
sed -n '/^blocked over/,/^where out dims/p' "$out" >"$tmp/te_blocked.txt"
for b in "register=1 -> (0, 1)" "register=2 -> (0, 2)" "lane=1 -> (0, 4)" "lane=2 -> (0, 8)" \
  "lane=4 -> (1, 0)" "lane=8 -> (2, 0)" "lane=16 -> (4, 0)"; do
  basis "$tmp/te_blocked.txt" "$b"
done
line typed_encodings blocked-forward "blocked: lane 23, register 1 holds element (5, 13)"
line typed_encodings blocked-00 "blocked: element (0, 0) is held by lane 0, register 0 (warp 0)"
line typed_encodings blocked-5-13 "blocked: element (5, 13) is held by lane 23, register 1 (warp 0)"
line typed_encodings blocked-7-15 "blocked: element (7, 15) is held by lane 31, register 3 (warp 0)"
# mma v2 over [16, 16]: Triton 3.6.0's layout (tests/data/triton_encoding_vectors.jsonl id 284):
# register (0, 1), (8, 0), (0, 8); lane (0, 2), (0, 4), (1, 0), (2, 0), (4, 0). The same by hand
# from the PTX ISA's m16n8 C fragment: c0, c1 at (groupID, 2 * threadID_in_group + 0 / 1), c2, c3
# 8 rows lower, lane = 4 * groupID + threadID_in_group; the second n8 tile in registers 4-7. So
# (9, 3) is c3 of lane 4 * 1 + 1 = 5; (9, 13) is c3 of the second tile, lane 4 + 2 = 6, register 7.
sed -n '/^mma over/,/^where out dims/p' "$out" >"$tmp/te_mma.txt"
# dot_op A (kWidth 2) over [16, 16], by hand from §5.2 (tile [16, kWidth * 8] built like the mma
# tile: kWidth registers along K, 4 lanes along K, 8 lanes along M, M/8 registers along M, then
# K / (kWidth * 4) = 2 registers along K): the same bases. The PTX m16n8k16 A fragment agrees:
# a0-a7 = (g, 2t + 0 / 1), (g + 8, ...), (g, 2t + 8 + ...), (g + 8, 2t + 8 + ...). So (10, 12) is
# a6 of lane 4 * 2 + 2 = 10 and (15, 15) a7 of lane 31.
sed -n '/^dot_op A over/,/^where out dims/p' "$out" >"$tmp/te_dot.txt"
for f in te_mma te_dot; do
  for b in "register=1 -> (0, 1)" "register=2 -> (8, 0)" "register=4 -> (0, 8)" "lane=1 -> (0, 2)" \
    "lane=2 -> (0, 4)" "lane=4 -> (1, 0)" "lane=8 -> (2, 0)" "lane=16 -> (4, 0)"; do
    basis "$tmp/$f.txt" "$b"
  done
done
line typed_encodings mma-00 "mma: element (0, 0) is held by lane 0, register 0 (warp 0)"
line typed_encodings mma-9-3 "mma: element (9, 3) is held by lane 5, register 3 (warp 0)"
line typed_encodings mma-9-13 "mma: element (9, 13) is held by lane 6, register 7 (warp 0)"
line typed_encodings dot-00 "dot_op A: element (0, 0) is held by lane 0, register 0 (warp 0)"
line typed_encodings dot-10-12 "dot_op A: element (10, 12) is held by lane 10, register 6 (warp 0)"
line typed_encodings dot-15-15 "dot_op A: element (15, 15) is held by lane 31, register 7 (warp 0)"
line typed_encodings read-back "blocked read back from its text: sizePerThread [1, 4]"

# ---- hardware_targets -----------------------------------------------------------------------
# pvc, docs/reference/intel-xe.md: §4.4 subgroup size 16, GRF 64 B, 128 GRF per thread or 256
# in large-GRF mode; §1.1 executionSize 16 on PVC, systolicDepth 8, repeatCount up to 8, and one
# instruction A = [RC, SD * opsPerChan] x B = [SD * opsPerChan, ES] with opsPerChan 2 for bf16.
# Banks, docs/reference/banks-swizzles-visualizers.md §3.4: 64 consecutive bytes in 16 banks of
# 4 B, one phase per 16-lane sub-group request; the oneAPI guide's stride of 16 ints sends every
# work-item to one bank (1/16 of the bandwidth): 16 distinct words in bank 0, 16-way, ideal 1.
run hardware_targets
line hardware_targets pvc-sg "subgroup size: 16 lanes"
line hardware_targets pvc-grf "register file: 64 bytes per register; 128 256 registers per thread"
grep -qF "DPAS: executionSize 16, systolicDepth 8, maxRepeatCount 8; types" "$tmp/hardware_targets.out" &&
  pass || fail "hardware_targets: pvc DPAS 16 / 8 / 8"
line hardware_targets pvc-dpas-shape "one bf16 DPAS: A [8, 16] x B [16, 16] -> C [8, 16]"
line hardware_targets pvc-banks "bank model xe: 16 banks x 4 B, 16 lanes, 1 phase(s) for xe.slm.ld.b32"
line hardware_targets pvc-stride "stride-64-byte read (xe.slm.ld.b32): 16-way, 16 wavefronts (ideal 1)"
# The message tests/target/hardware_target_test.cpp (UnknownTarget) expects for a name it lacks.
grep -qF "looking up 'pvx': unknown target 'pvx' (known: pvc, bmg, arc, nvidia, cdna3, cdna4" \
  "$tmp/hardware_targets.out" && pass || fail "hardware_targets: unknown target message"
# my_gpu: the values of examples/data/my_gpu_target.json. By hand: DPAS A [4, 16] with
# maxRepeatCount 4; 32 banks: lane l's word 16 * l is in bank 16 * l mod 32, 0 or 16, 8 distinct
# words in each: 8-way, ideal ceil(16 / 32) = 1.
line hardware_targets my-name "== my_gpu (intel): $(sed -n 's/^  "description": "\(.*\)",$/\1/p' \
  "$here/../../examples/data/my_gpu_target.json")"
line hardware_targets my-grf "register file: 64 bytes per register; 128 registers per thread"
line hardware_targets my-dpas "DPAS: executionSize 16, systolicDepth 8, maxRepeatCount 4; types bf16 f16"
line hardware_targets my-dpas-shape "one bf16 DPAS: A [4, 16] x B [16, 16] -> C [4, 16]"
line hardware_targets my-tf32 "supports tf32: no"
[[ $(grep -c '^2D block I/O: yes$' "$tmp/hardware_targets.out") -eq 2 ]] && pass ||
  fail "hardware_targets: pvc and my_gpu (blockIo \"pvc\") have 2D block I/O"
line hardware_targets my-banks "bank model my_slm: 32 banks x 4 B, 16 lanes, 1 phase(s) for my_slm.ld.b32"
line hardware_targets my-stride "stride-64-byte read (my_slm.ld.b32): 8-way, 8 wavefronts (ideal 1)"

# ---- batch_embedding ------------------------------------------------------------------------
# The first four responses are docs/interchange.md §2.1's example session, read from the doc
# (its requests are the program's stream).
run batch_embedding
out=$tmp/batch_embedding.out
awk '/\| layoutctl batch$/ { on = 1; next } on && /^```/ { exit } on' \
  "$here/../../docs/interchange.md" >"$tmp/doc_session.txt"
if [[ $(wc -l <"$tmp/doc_session.txt") -eq 4 ]] && diff <(head -4 "$out") "$tmp/doc_session.txt" >"$tmp/diff"; then
  pass
else fail "batch_embedding vs docs/interchange.md §2.1's session: $(cat "$tmp/diff")"; fi
# example.owner on the blocked layout of typed_encodings above: (5, 13) is register 1 of lane 23.
line batch_embedding owner '{"id":5,"result":{"register":1,"lane":23,"warp":0,"block":0}}'
# An unknown argument, in the words of docs/interchange.md §2.1 ("Unknown arguments").
line batch_embedding unknown-arg \
  '{"id":6,"error":"example.owner: args.elemnt: unknown argument (example.owner takes encoding, shape, element)"}'
grep -q '^{"id":7,"error":"example.owner: ' "$out" && pass || fail "batch_embedding: no error for id 7"

# ---- cuda_gemm_plan -------------------------------------------------------------------------
# By hand, from the configuration (1024 x 1024 x 512 bf16, tile 128 x 128 x 32, warps 2 x 2, 4
# stages) and layout/codegen/cuda_gemm_plan.h's derivation: the name follows its pattern
# (gemm_sm80_bf16_128x128x32_w2x2_s4 is its own example); 4 warps = 128 threads; (1024 / 128)^2 =
# 64 CTAs; a stage is (128 * 32 + 32 * 128) * 2 = 16384 bytes, 4 of them 65536; 128 * 128 / 128 =
# 128 f32 accumulators per thread; each warp owns 64 x 64: per k16 4 A fragments (m16, 4
# registers) + 8 B fragments (n8, 2 registers) = 32 registers, 4 x 8 = 32 mma.sync, 4 + 4
# ldmatrix.x4 (16 x 16 each); BK 32 = 2 k16: 64 mma.sync, 16 ldmatrix.x4; 16384 / 16 / 128 = 8
# cp.async per thread; 512 / 32 = 16 BK steps.
cu=$tmp/gemm.cu
run cuda_gemm_plan "$cu"
out=$tmp/cuda_gemm_plan.out
acc="#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>"
line cuda_gemm_plan name "kernel: gemm_sm80_bf16_128x128x32_w2x2_s4"
line cuda_gemm_plan accumulator "accumulator: $acc"
line cuda_gemm_plan launch "launch: 64 CTAs x 128 threads, 65536 bytes of shared memory (4 stages of 16384 bytes)"
line cuda_gemm_plan registers "per thread: 128 f32 accumulators, 32 fragment registers per k16 step"
line cuda_gemm_plan per-step "per warp and BK step: 64 mma.sync, 16 ldmatrix.x4; per thread: 8 cp.async; 16 BK steps"
line cuda_gemm_plan a-tile "operand A: shared tile 128 x 32, 4096 elements per stage"
line cuda_gemm_plan b-tile "operand B: shared tile 32 x 128, 4096 elements per stage"
line cuda_gemm_plan a-enc "  register layout: #ttg.dot_op<{opIdx = 0, parent = $acc, kWidth = 2}>"
line cuda_gemm_plan b-enc "  register layout: #ttg.dot_op<{opIdx = 1, parent = $acc, kWidth = 2}>"
# The bank proofs: a 32-bank x 4 B line is 128 bytes, and both a cp.async warp issue (32 lanes x
# 16 B) and an ldmatrix.x4 (4 matrices of 8 rows x 16 B) move 512 bytes: 4 wavefronts ideal per
# issue. A stage of either operand is 4096 * 2 / 512 = 16 cp.async issues; each warp issues 4
# ldmatrix.x4 of A and 4 of B per k16 (above), 2 k16 per stage, 4 warps: 32. Conflict-free:
# wavefronts == ideal, 1-way, 0 conflict wavefronts (B stored K x N reads with .trans).
for i in "nvidia.ldmatrix.x4: 32 issues, 128 wavefronts (ideal 128), 1-way at worst" \
  "nvidia.ldmatrix.x4.trans: 32 issues, 128 wavefronts (ideal 128), 1-way at worst"; do
  grep -qxF -- "  $i" "$out" && pass || fail "cuda_gemm_plan: no line '  $i'"
done
[[ $(grep -c '^  nvidia.st.b128 (cp.async 16 B): 16 issues, 64 wavefronts (ideal 64), 1-way at worst$' "$out") -eq 2 ]] &&
  pass || fail "cuda_gemm_plan: cp.async of A and B not both conflict-free"
[[ $(grep -c 'conflict wavefronts: 0, cp.async conflict wavefronts: 0$' "$out") -eq 2 ]] && pass ||
  fail "cuda_gemm_plan: the synthesized swizzles are not conflict-free"
line cuda_gemm_plan wrote "wrote $cu"
# The source: the kernel's entry point and the PTX instructions of the sm80 path (PTX ISA names:
# bf16 mma with f32 accumulators, ldmatrix .trans for B stored K x N, 16-byte cp.async).
for s in "extern \"C\" __global__ void __launch_bounds__(128) gemm_sm80_bf16_128x128x32_w2x2_s4(" \
  "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32" "ldmatrix.sync.aligned.m8n8.x4.shared.b16" \
  "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16" "cp.async.cg.shared.global"; do
  grep -qF -- "$s" "$cu" 2>/dev/null && pass || fail "cuda_gemm_plan: the .cu file lacks '$s'"
done

# ---- xegpu_propagation ----------------------------------------------------------------------
# Seed 000 lines 819-834 (the RFC's dpas example, as tests/xegpu/xegpu_propagation_test.cpp,
# DpasRfcExample, transcribes it), in the canonical spelling of layout/xegpu/propagation.h
# (`key = [a, b]`): A keeps D's sg_layout with sg_data [32, 32]; B is VNNI-packed (inst_data
# [16, 16], lane_data [2, 1]); C is D (the RFC prints C's inst_data as [16, 16], a typo by its own
# rule "sg_data for m and n dimension as output", as that test explains).
run xegpu_propagation
d="sg_layout = [8, 4], sg_data = [32, 64], inst_data = [8, 16], lane_layout = [1, 16], lane_data = [1, 1], order = [1, 0]"
line xegpu_propagation result "result: #xegpu.layout<$d>"
line xegpu_propagation a "a: #xegpu.layout<sg_layout = [8, 4], sg_data = [32, 32], inst_data = [8, 16], lane_layout = [1, 16], lane_data = [1, 1], order = [1, 0]>"
line xegpu_propagation b "b: #xegpu.layout<sg_layout = [8, 4], sg_data = [32, 64], inst_data = [16, 16], lane_layout = [1, 16], lane_data = [2, 1], order = [1, 0]>"
line xegpu_propagation c "c: #xegpu.layout<$d>"
line xegpu_propagation b-parses "b parses back: yes"
# The variant entry point (PropagationRequest) gives what the typed overload gives.
line xegpu_propagation variant "dpas through the variant: same"

echo "$passes checks passed, $failures failed"
[[ $failures -eq 0 ]]
