// layoutctl report corpus: a workgroup-level XeGPU GEMM tile, written by hand.
// One workgroup computes a 256x256 f32 tile of C = A * B (A, B f16, row-major),
// walking K in steps of 32. 32 subgroups in an 8x4 grid; each owns a 32x64 block
// of C, a 32x32 block of A (shared along the 4 subgroups of a row) and a 32x64
// block of B (shared along the 8 subgroups of a column).
#a = #xegpu.layout<sg_layout = [8, 4], sg_data = [32, 32], inst_data = [8, 16], lane_layout = [1, 16], lane_data = [1, 1]>
#b = #xegpu.layout<sg_layout = [8, 4], sg_data = [32, 64], inst_data = [16, 16], lane_layout = [1, 16], lane_data = [2, 1]>
#c = #xegpu.layout<sg_layout = [8, 4], sg_data = [32, 64], inst_data = [8, 16], lane_layout = [1, 16], lane_data = [1, 1]>
// Prefetch layouts: every subgroup prefetches one distinct 8x32 slice of the next K step.
#pa = #xegpu.layout<sg_layout = [32, 1], sg_data = [8, 32], inst_data = [8, 32], lane_layout = [1, 16], lane_data = [1, 2]>
#pb = #xegpu.layout<sg_layout = [4, 8], sg_data = [8, 32], inst_data = [8, 32], lane_layout = [1, 16], lane_data = [1, 2]>
gpu.module @gemm_wg {
  gpu.func @matmul_256x256x32(%A: memref<4096x4096xf16>, %B: memref<4096x4096xf16>, %C: memref<4096x4096xf32>) kernel {
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %c256 = arith.constant 256 : index
    %c4096 = arith.constant 4096 : index
    %bx = gpu.block_id x
    %by = gpu.block_id y
    %m = arith.muli %bx, %c256 : index
    %n = arith.muli %by, %c256 : index
    %tc = xegpu.create_nd_tdesc %C : memref<4096x4096xf32> -> !xegpu.tensor_desc<256x256xf32, #c> loc("gemm_wg.py":21:12)
    %c_init = xegpu.load_nd %tc[%m, %n] <{layout = #c}> : !xegpu.tensor_desc<256x256xf32, #c> -> vector<256x256xf32> loc("gemm_wg.py":22:16)
    %ta = xegpu.create_nd_tdesc %A : memref<4096x4096xf16> -> !xegpu.tensor_desc<256x32xf16, #a> loc("gemm_wg.py":23:12)
    %tb = xegpu.create_nd_tdesc %B : memref<4096x4096xf16> -> !xegpu.tensor_desc<32x256xf16, #b> loc("gemm_wg.py":24:12)
    %tpa = xegpu.create_nd_tdesc %A : memref<4096x4096xf16> -> !xegpu.tensor_desc<256x32xf16, #pa> loc("gemm_wg.py":25:12)
    %tpb = xegpu.create_nd_tdesc %B : memref<4096x4096xf16> -> !xegpu.tensor_desc<32x256xf16, #pb> loc("gemm_wg.py":26:12)
    xegpu.prefetch_nd %tpa[%m, %c0] <{l1_hint = #xegpu.cache_hint<cached>, l2_hint = #xegpu.cache_hint<cached>, layout = #pa}> : !xegpu.tensor_desc<256x32xf16, #pa> loc("gemm_wg.py":27:8)
    xegpu.prefetch_nd %tpb[%c0, %n] <{l1_hint = #xegpu.cache_hint<cached>, l2_hint = #xegpu.cache_hint<cached>, layout = #pb}> : !xegpu.tensor_desc<32x256xf16, #pb> loc("gemm_wg.py":28:8)
    %acc_out = scf.for %k = %c0 to %c4096 step %c32 iter_args(%acc = %c_init) -> (vector<256x256xf32>) {
      %k_next = arith.addi %k, %c32 : index
      xegpu.prefetch_nd %tpa[%m, %k_next] <{l1_hint = #xegpu.cache_hint<cached>, l2_hint = #xegpu.cache_hint<cached>, layout = #pa}> : !xegpu.tensor_desc<256x32xf16, #pa> loc("gemm_wg.py":31:12)
      xegpu.prefetch_nd %tpb[%k_next, %n] <{l1_hint = #xegpu.cache_hint<cached>, l2_hint = #xegpu.cache_hint<cached>, layout = #pb}> : !xegpu.tensor_desc<32x256xf16, #pb> loc("gemm_wg.py":32:12)
      %a = xegpu.load_nd %ta[%m, %k] <{layout = #a}> : !xegpu.tensor_desc<256x32xf16, #a> -> vector<256x32xf16> loc("gemm_wg.py":33:16)
      %b = xegpu.load_nd %tb[%k, %n] <{layout = #b}> : !xegpu.tensor_desc<32x256xf16, #b> -> vector<32x256xf16> loc("gemm_wg.py":34:16)
      %d = xegpu.dpas %a, %b, %acc {layout_a = #a, layout_b = #b, layout_cd = #c} : vector<256x32xf16>, vector<32x256xf16>, vector<256x256xf32> -> vector<256x256xf32> loc("gemm_wg.py":35:18)
      scf.yield %d : vector<256x256xf32>
    } loc("gemm_wg.py":29:4)
    xegpu.store_nd %acc_out, %tc[%m, %n] <{layout = #c}> : vector<256x256xf32>, !xegpu.tensor_desc<256x256xf32, #c> loc("gemm_wg.py":37:4)
    gpu.return
  }
}
