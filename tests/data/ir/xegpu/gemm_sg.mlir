// layoutctl report corpus: subgroup-level XeGPU IR, written by hand.
// @matmul_32x32: one subgroup (16 lanes) computes a 32x32 f32 block of C = A * B,
// walking K in steps of 32. A is fetched with one 2-block (array_length = 2) load and
// split into its two K halves; B is fetched as two 16x32 VNNI loads, one per K half.
// The final store_nd is blocked 16x16 on purpose: a 16-row 2D block store is not
// legal on PVC (stores are limited to 8 rows), so the report must flag it.
// @transposed_f32_tile: a 32-bit transposed block load (the memory tile is 16x8,
// the value is its 8x16 transpose), then a plain 8x16 store.
#a_arr = #xegpu.layout<lane_layout = [1, 16], lane_data = [1, 1]>
#a_op = #xegpu.layout<inst_data = [8, 16], lane_layout = [1, 16], lane_data = [1, 1]>
#b = #xegpu.layout<inst_data = [16, 16], lane_layout = [1, 16], lane_data = [2, 1]>
#c = #xegpu.layout<inst_data = [8, 16], lane_layout = [1, 16], lane_data = [1, 1]>
#c_st = #xegpu.layout<inst_data = [16, 16], lane_layout = [1, 16], lane_data = [1, 1]>
#pf = #xegpu.layout<lane_layout = [1, 16], lane_data = [1, 2]>
#t_mem = #xegpu.layout<lane_layout = [16, 1], lane_data = [1, 1]>
#t_val = #xegpu.layout<lane_layout = [1, 16], lane_data = [1, 1]>
gpu.module @gemm_sg {
  gpu.func @matmul_32x32(%A: memref<1024x1024xf16>, %B: memref<1024x1024xf16>, %C: memref<1024x1024xf32>) kernel {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %c1024 = arith.constant 1024 : index
    %bx = gpu.block_id x
    %by = gpu.block_id y
    %row = arith.muli %bx, %c32 : index
    %col = arith.muli %by, %c32 : index
    %tc = xegpu.create_nd_tdesc %C : memref<1024x1024xf32> -> !xegpu.tensor_desc<32x32xf32, #c> loc("gemm_sg.py":12:10)
    %c_init = xegpu.load_nd %tc[%row, %col] <{layout = #c}> : !xegpu.tensor_desc<32x32xf32, #c> -> vector<32x32xf32> loc("gemm_sg.py":13:14)
    %ta = xegpu.create_nd_tdesc %A : memref<1024x1024xf16> -> !xegpu.tensor_desc<32x16xf16, #xegpu.block_tdesc_attr<array_length = 2>, #a_arr> loc("gemm_sg.py":14:10)
    %tb = xegpu.create_nd_tdesc %B : memref<1024x1024xf16> -> !xegpu.tensor_desc<16x32xf16, #b> loc("gemm_sg.py":15:10)
    %tpa = xegpu.create_nd_tdesc %A : memref<1024x1024xf16> -> !xegpu.tensor_desc<32x32xf16, #pf> loc("gemm_sg.py":16:10)
    %tpb = xegpu.create_nd_tdesc %B : memref<1024x1024xf16> -> !xegpu.tensor_desc<32x32xf16, #pf> loc("gemm_sg.py":17:10)
    %acc_out = scf.for %k = %c0 to %c1024 step %c32 iter_args(%acc = %c_init) -> (vector<32x32xf32>) {
      %k_next = arith.addi %k, %c32 : index
      %k_hi = arith.addi %k, %c16 : index
      xegpu.prefetch_nd %tpa[%row, %k_next] <{l1_hint = #xegpu.cache_hint<cached>, layout = #pf}> : !xegpu.tensor_desc<32x32xf16, #pf> loc("gemm_sg.py":20:8)
      xegpu.prefetch_nd %tpb[%k_next, %col] <{l1_hint = #xegpu.cache_hint<cached>, layout = #pf}> : !xegpu.tensor_desc<32x32xf16, #pf> loc("gemm_sg.py":21:8)
      %a2 = xegpu.load_nd %ta[%row, %k] <{layout = #a_arr}> : !xegpu.tensor_desc<32x16xf16, #xegpu.block_tdesc_attr<array_length = 2>, #a_arr> -> vector<2x32x16xf16> loc("gemm_sg.py":22:13)
      %a_lo = vector.extract %a2[0] : vector<32x16xf16> from vector<2x32x16xf16> loc("gemm_sg.py":23:13)
      %a_hi = vector.extract %a2[1] : vector<32x16xf16> from vector<2x32x16xf16> loc("gemm_sg.py":24:13)
      %b_lo = xegpu.load_nd %tb[%k, %col] <{layout = #b}> : !xegpu.tensor_desc<16x32xf16, #b> -> vector<16x32xf16> loc("gemm_sg.py":25:13)
      %b_hi = xegpu.load_nd %tb[%k_hi, %col] <{layout = #b}> : !xegpu.tensor_desc<16x32xf16, #b> -> vector<16x32xf16> loc("gemm_sg.py":26:13)
      %d0 = xegpu.dpas %a_lo, %b_lo, %acc {layout_a = #a_op, layout_b = #b, layout_cd = #c} : vector<32x16xf16>, vector<16x32xf16>, vector<32x32xf32> -> vector<32x32xf32> loc("gemm_sg.py":27:15)
      %d1 = xegpu.dpas %a_hi, %b_hi, %d0 {layout_a = #a_op, layout_b = #b, layout_cd = #c} : vector<32x16xf16>, vector<16x32xf16>, vector<32x32xf32> -> vector<32x32xf32> loc("gemm_sg.py":28:15)
      scf.yield %d1 : vector<32x32xf32>
    } loc("gemm_sg.py":18:4)
    %tcs = xegpu.create_nd_tdesc %C : memref<1024x1024xf32> -> !xegpu.tensor_desc<32x32xf32, #c_st> loc("gemm_sg.py":30:10)
    xegpu.store_nd %acc_out, %tcs[%row, %col] <{layout = #c_st}> : vector<32x32xf32>, !xegpu.tensor_desc<32x32xf32, #c_st> loc("gemm_sg.py":31:4)
    gpu.return
  }

  gpu.func @transposed_f32_tile(%src: memref<256x256xf32>, %dst: memref<256x256xf32>) kernel {
    %c0 = arith.constant 0 : index
    %t = xegpu.create_nd_tdesc %src : memref<256x256xf32> -> !xegpu.tensor_desc<16x8xf32, #t_mem> loc("gemm_sg.py":40:8)
    %v = xegpu.load_nd %t[%c0, %c0] <{transpose = array<i64: 1, 0>, layout = #t_val}> : !xegpu.tensor_desc<16x8xf32, #t_mem> -> vector<8x16xf32> loc("gemm_sg.py":41:8)
    %o = xegpu.create_nd_tdesc %dst : memref<256x256xf32> -> !xegpu.tensor_desc<8x16xf32, #t_val> loc("gemm_sg.py":42:8)
    xegpu.store_nd %v, %o[%c0, %c0] <{layout = #t_val}> : vector<8x16xf32>, !xegpu.tensor_desc<8x16xf32, #t_val> loc("gemm_sg.py":43:4)
    gpu.return
  }
}
