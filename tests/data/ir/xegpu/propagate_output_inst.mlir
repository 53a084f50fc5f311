module {
  gpu.module @propagate {
    gpu.func @dpas_relu_8x16(%arg0: memref<64x256xf16>, %arg1: memref<256x64xf16>, %arg2: memref<64x64xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %c256 = arith.constant 256 : index
      %cst = arith.constant {layout_result_0 = #xegpu.layout<inst_data = [8, 16]>} dense<0.000000e+00> : vector<8x16xf32>
      %0 = xegpu.create_nd_tdesc %arg0 : memref<64x256xf16> -> !xegpu.tensor_desc<8x16xf16, #xegpu.layout<inst_data = [8, 16]>>
      %1 = xegpu.create_nd_tdesc %arg1 : memref<256x64xf16> -> !xegpu.tensor_desc<16x16xf16, #xegpu.layout<inst_data = [16, 16]>>
      %2 = scf.for %arg3 = %c0 to %c256 step %c16 iter_args(%arg4 = %cst) -> (vector<8x16xf32>) {
        %5 = arith.addi %arg3, %c16 : index
        xegpu.prefetch_nd %1[%5, %c0] <{layout = #xegpu.layout<inst_data = [16, 16]>}> : !xegpu.tensor_desc<16x16xf16, #xegpu.layout<inst_data = [16, 16]>>
        %6 = xegpu.load_nd %0[%c0, %arg3] <{layout = #xegpu.layout<inst_data = [8, 16]>}> : !xegpu.tensor_desc<8x16xf16, #xegpu.layout<inst_data = [8, 16]>> -> vector<8x16xf16>
        %7 = xegpu.load_nd %1[%arg3, %c0] <{layout = #xegpu.layout<inst_data = [16, 16]>}> : !xegpu.tensor_desc<16x16xf16, #xegpu.layout<inst_data = [16, 16]>> -> vector<16x16xf16>
        %8 = xegpu.dpas %6, %7, %arg4 {layout_a = #xegpu.layout<inst_data = [8, 16]>, layout_b = #xegpu.layout<inst_data = [16, 16]>, layout_cd = #xegpu.layout<inst_data = [8, 16]>} : vector<8x16xf16>, vector<16x16xf16>, vector<8x16xf32> -> vector<8x16xf32>
        scf.yield %8 : vector<8x16xf32>
      } {layout_result_0 = #xegpu.layout<inst_data = [8, 16]>}
      %3 = arith.maximumf %2, %cst {layout_result_0 = #xegpu.layout<inst_data = [8, 16]>} : vector<8x16xf32>
      %4 = xegpu.create_nd_tdesc %arg2 : memref<64x64xf32> -> !xegpu.tensor_desc<8x16xf32, #xegpu.layout<inst_data = [8, 16]>>
      xegpu.store_nd %3, %4[%c0, %c0] <{layout = #xegpu.layout<inst_data = [8, 16]>}> : vector<8x16xf32>, !xegpu.tensor_desc<8x16xf32, #xegpu.layout<inst_data = [8, 16]>>
      gpu.return
    }
  }
}

