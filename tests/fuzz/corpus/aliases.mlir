#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#dot = #ttg.dot_op<{opIdx = 0, parent = #blocked, kWidth = 2}>
#p = #ttg.padded_shared<[2:+1, 4:+2] {offset = [[1, 0], [0, 1]], block = []}>
#x = #xegpu.slice<#xegpu.layout<sg_layout = [8, 4], sg_data = [32, 32], lane_layout = [1, 16]>, dims = [1]>
