32x64
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// -----
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func @rowmax(%x: tensor<32x64xf32, #blocked>) -> tensor<32xf32, #ttg.slice<{dim = 1, parent = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 32], warpsPerCTA = [4, 1], order = [1, 0]}>}>> {
    %r = "tt.reduce"(%x) <{axis = 1 : i32}> ({
    ^bb0(%a: f32 loc("r.py":3:1), %b: f32 loc("r.py":3:1)):
      %m = arith.maxnumf %a, %b : f32 loc("r.py":4:9)
      tt.reduce.return %m : f32 loc("r.py":4:2)
    }) : (tensor<32x64xf32, #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 32], warpsPerCTA = [4, 1], order = [1, 0]}>>) -> tensor<32xf32, #ttg.slice<{dim = 1, parent = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 32], warpsPerCTA = [4, 1], order = [1, 0]}>}>> loc(#l)
    %c = scf.if %t -> (f32) {
      scf.yield %s : f32
    } else {
      %n = "my.neg"(%s) {note = "x } \" y"} : (f32) -> f32
      scf.yield %n : f32
    }
    tt.return %r : tensor<32xf32, #ttg.slice<{dim = 1, parent = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 32], warpsPerCTA = [4, 1], order = [1, 0]}>}>>
  }
}
#l = loc("r\"q.py"(callsite("r.py":5:7 at "main.py":9:1)))
