32x32
#a = #xegpu.layout<sg_layout = [4, 2], sg_data = [8, 16], lane_layout = [1, 16], lane_data = [1, 1]>
!ta = !xegpu.tensor_desc<32x32xf16, #a>
gpu.module @kernels {
  gpu.func @gemm(%A: memref<256x256xf16>, %B: memref<256x256xf16>) kernel attributes {intel_reqd_sub_group_size = 16 : i32} {
    %c0 = arith.constant 0 : index
    %ta = xegpu.create_nd_tdesc %A[%c0, %c0] : memref<256x256xf16>
        -> !ta
    %tb = xegpu.create_nd_tdesc %B[%c0, %c0] : memref<256x256xf16> -> !xegpu.tensor_desc<32x32xf16, #xegpu.block_tdesc_attr<boundary_check = true>, #xegpu.layout<sg_layout = [2, 4], sg_data = [16, 8], lane_layout = [1, 16], lane_data = [2, 1]>>
    %va = xegpu.load_nd %ta {layout_result_0 = #a}
        : !ta -> vector<32x32xf16>
    %vb = xegpu.load_nd %tb : !xegpu.tensor_desc<32x32xf16, #xegpu.layout<sg_layout = [2, 4], sg_data = [16, 8], lane_layout = [1, 16], lane_data = [2, 1]>> -> vector<32x32xf16>
    %acc = arith.constant {layout_result_0 = #xegpu.layout<sg_layout = [4, 2], sg_data = [8, 16]>}
        dense<0.0> : vector<32x32xf32>
    %d = xegpu.dpas %va, %vb, %acc {layout_result_0 = #xegpu.layout<sg_layout = [4, 2], sg_data = [8, 16]>} : vector<32x32xf16>, vector<32x32xf16>, vector<32x32xf32> -> vector<32x32xf32>
    gpu.return
  }
}
