64x32
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
#loc = loc("mm.py":10:0)
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @mm(%p: !tt.ptr<f16> {tt.divisibility = 16 : i32} loc("mm.py":10:0), %n: i32 loc("mm.py":10:0)) attributes {noinline = false} {
    %c0 = arith.constant 0 : i32 loc(#loc1)
    %c1 = arith.constant 1 : i32 loc(#loc1)
    %acc = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma> loc(#loc1)
    %ptrs = tt.splat %p : !tt.ptr<f16> -> tensor<64x32x!tt.ptr<f16>, #blocked> loc(#loc2)
    %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %acc, %q = %ptrs) -> (tensor<64x64xf32, #mma>, tensor<64x32x!tt.ptr<f16>, #blocked>)  : i32 {
      %x = tt.load %q : tensor<64x32x!tt.ptr<f16>, #blocked> loc(#loc3)
      %s = ttg.local_alloc %x : (tensor<64x32xf16, #blocked>) -> !ttg.memdesc<64x32xf16, #shared, #smem> loc(#loc3)
      %y = ttg.local_load %s : !ttg.memdesc<64x32xf16, #shared, #smem> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> loc(#loc4)
      %z = ttg.convert_layout %x : tensor<64x32xf16, #blocked> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> loc(#loc5)
      %d = tt.dot %y, %z, %a : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<64x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x64xf32, #mma> loc(#loc6)
      scf.yield %d, %q : tensor<64x64xf32, #mma>, tensor<64x32x!tt.ptr<f16>, #blocked> loc(#loc6)
    } loc(#loc2)
    tt.return loc(#loc)
  } loc(#loc)
} loc(#loc)
#loc1 = loc(unknown)
#loc2 = loc("mm.py":14:9)
#loc3 = loc("mm.py":15:13)
#loc4 = loc(callsite(#loc7 at #loc3))
#loc5 = loc("b"(#loc3))
#loc6 = loc(fused[#loc1, #loc2])
#loc7 = loc("lib.py":3:4 to :9)
