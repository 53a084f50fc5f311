// layoutctl report corpus: subgroup-level XeGPU kernel with no layouts, written by hand.
// propagate_output.mlir is what upstream's `mlir-opt-22 -xegpu-propagate-layout`
// prints for this file (see README.md). One subgroup computes an 8x16 f32 tile of
// relu(A * B), walking K in steps of 16 (one DPAS per step).
gpu.module @propagate {
  gpu.func @dpas_relu_8x16(%A: memref<64x256xf16>, %B: memref<256x64xf16>, %C: memref<64x64xf32>) kernel {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %c256 = arith.constant 256 : index
    %zero = arith.constant dense<0.000000e+00> : vector<8x16xf32>
    %ta = xegpu.create_nd_tdesc %A : memref<64x256xf16> -> !xegpu.tensor_desc<8x16xf16> loc("propagate.py":10:9)
    %tb = xegpu.create_nd_tdesc %B : memref<256x64xf16> -> !xegpu.tensor_desc<16x16xf16> loc("propagate.py":11:9)
    %acc_out = scf.for %k = %c0 to %c256 step %c16 iter_args(%acc = %zero) -> (vector<8x16xf32>) {
      %k_next = arith.addi %k, %c16 : index
      xegpu.prefetch_nd %tb[%k_next, %c0] : !xegpu.tensor_desc<16x16xf16> loc("propagate.py":14:8)
      %a = xegpu.load_nd %ta[%c0, %k] : !xegpu.tensor_desc<8x16xf16> -> vector<8x16xf16> loc("propagate.py":15:12)
      %b = xegpu.load_nd %tb[%k, %c0] : !xegpu.tensor_desc<16x16xf16> -> vector<16x16xf16> loc("propagate.py":16:12)
      %d = xegpu.dpas %a, %b, %acc : vector<8x16xf16>, vector<16x16xf16>, vector<8x16xf32> -> vector<8x16xf32> loc("propagate.py":17:14)
      scf.yield %d : vector<8x16xf32>
    } loc("propagate.py":12:4)
    %relu = arith.maximumf %acc_out, %zero : vector<8x16xf32> loc("propagate.py":19:11)
    %tc = xegpu.create_nd_tdesc %C : memref<64x64xf32> -> !xegpu.tensor_desc<8x16xf32> loc("propagate.py":20:9)
    xegpu.store_nd %relu, %tc[%c0, %c0] : vector<8x16xf32>, !xegpu.tensor_desc<8x16xf32> loc("propagate.py":21:4)
    gpu.return
  }
}
