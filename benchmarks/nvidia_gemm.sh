#!/usr/bin/env bash
# The NVIDIA GEMM kernels of `layoutctl gemm --runner cuda` against cuBLAS on the CUDA device (run
# it on the lent H100/H200 machine): first the correctness runs of both paths (bf16 and f16, sizes
# that are and are not multiples of the tile, B stored K x N and N x K, exact and random inputs),
# then M = N = K in {1024, 2048, 4096, 8192} for bf16 and f16: the sm80 path (mma.sync) and the
# sm90 path (wgmma), each beside cublasGemmEx in one process on the same inputs (B stored K x N,
# f32 output). Prints TFLOP/s and the ratios as a Markdown table. About three minutes.
#
#   bash benchmarks/nvidia_gemm.sh [path/to/layoutctl]    # SIZES, DTYPES, REPS, EXTRA override
set -euo pipefail
ctl=${1:-build/explorer/cli/layoutctl}
sizes=${SIZES:-"1024 2048 4096 8192"}
dtypes=${DTYPES:-"bf16 f16"}
reps=${REPS:-20}
extra=${EXTRA:-}

field() { python3 -c "import json,sys; j=json.load(sys.stdin); print($1)"; }

if [[ -z ${SKIP_CHECKS:-} ]]; then
  echo "correctness (against the exact reference, every row):"
  for arch in sm80 sm90; do
    for args in "--m 1000 --n 1000 --k 1000 --element-type bf16" \
      "--m 1000 --n 1000 --k 1000 --element-type f16" \
      "--m 1003 --n 1000 --k 520 --element-type bf16" \
      "--m 1003 --n 997 --k 520 --element-type bf16 --transpose-b" \
      "--m 515 --n 1032 --k 1024 --element-type f16 --transpose-b" \
      "--m 1024 --n 1024 --k 1024 --element-type bf16 --inputs exact" \
      "--m 777 --n 264 --k 64 --element-type f16 --inputs exact --transpose-b"; do
      # shellcheck disable=SC2086
      out=$("$ctl" gemm --runner cuda --arch $arch $args $extra --no-cublas --repetitions 1 --format json)
      echo "  $arch $args: $(field "('PASSED' if j['verification']['passed'] else 'FAILED') + ', ' + str(j['verification']['checked']) + ' elements (' + j['verification']['rule'] + ')'" <<<"$out")"
    done
  done
fi

printf '\n| dtype | M = N = K | sm80 (TFLOP/s) | cuBLAS | sm80 / cuBLAS | sm90 (TFLOP/s) | cuBLAS | sm90 / cuBLAS | verified |\n'
printf '| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n'
for d in $dtypes; do
  for s in $sizes; do
    row="| $d | $s"
    ok=yes
    for arch in sm80 sm90; do
      # shellcheck disable=SC2086
      out=$("$ctl" gemm --runner cuda --arch $arch --m "$s" --n "$s" --k "$s" --element-type "$d" \
        --repetitions "$reps" $extra --format json)
      row="$row | $(field "'%.1f | %.1f | %.2f' % (j['timing']['kernel']['tflops'], j['timing']['cublas']['tflops'], j['timing']['ratio'])" <<<"$out")"
      [[ $(field "j['verification']['passed']" <<<"$out") == True ]] || ok=NO
      rows=$(field "j['verification']['rows']" <<<"$out")
    done
    echo "$row | $ok ($rows rows) |"
  done
done
device=$("$ctl" gemm --runner cuda --m 256 --n 256 --k 256 --no-cublas --repetitions 1 --format json | field "j['device']['name']")
echo
echo "device: $device; $(date -u +%Y-%m-%d)"
