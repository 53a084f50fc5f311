8x16
#a = #xegpu.layout<inst_data = [8, 16], lane_layout = [1, 16cdna4.ds_read_b128], lane_data = [1, 1]>
#b = #xegpu.layout<inst_data = [16, 16], lane_layout = [1, 16], lane_data = [2, 1]>
#c = #xegpu.layout<sg_layout = [2, 2], sg_data = [8, 16], inst_data = [8, 16], lane_layout = [1, 16], lane_data = [1, 1]>
#t = #xegpu.layout<lane_layout = [2, 8], lane_data = [1, 1]>
gpu.module @m {
  gpu.func @k(%A: memref<64x64xf16>, %B: memref<64x64xf16>, %C: memref<64x64xf32>) kernel {
    %c0 = arith.constant 0 : index
    %ta = xegpu.create_nd_tdesc %A : memref<64x64xf16> -> !xegpu.tensor_desc<16x16xf16, #xegpu.block_tdesc_attr<array_length = 2>, #a>
    %tb = xegpu.create_nd_tdesc %B : memref<64x64xf16> -> !xegpu.tensor_desc<16x16xf16, #b>
    %tc = xegpu.create_nd_tdesc %C : memref<64x64xf32> -> !xegpu.tensor_desc<16x32xf32, #c>
    %a = xegpu.load_nd %ta[%c0, %c0] <{layout = #a}> : !xegpu.tensor_desc<16x16xf16, #xegpu.block_tdesc_attr<array_length = 2>, #a> -> vector<2x16x16xf16> loc("k.py":3:1)
    %b = xegpu.load_nd %tb[%c0, %c0] <{layout = #b, packed}> : !xegpu.tensor_desc<16x16xf16, #b> -> vector<16x16xf16> loc("k.py":4:1)
    %a0 = vector.extract %a[0] : vector<16x16xf16> from vector<2x16x16xf16>
    %d = xegpu.dpas %a0, %b {layout_a = #a, layo’’’’’’’’’’’’’’’’’’’’’’’ut_b = #b, layout_cd = #a} : vector<16x16xf16>, vector<16x16xf16> -> vector<16x16xf32> loc("k.py":5:1)
    %e = xegpu.convert_layout %d <{input_layout = #a, target_layout = #t}> : vector<16x16xf32> loc("k.py":6:1)
    xegpu.prefetch_nd %tc[%c0, %c0] <{layout = #c}> : !xegpu.tensor_desc<16x32xf32, #c>
    xegpu.store_nd %e, %tc[%c0, %c0] <{layout = #c}> : vector<16x16xf32>, !xegpu.tensor_desc<16x32xf32, #c> loc("k.py":7:1)
    gpu.return
  }
}
