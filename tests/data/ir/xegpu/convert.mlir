// layoutctl report corpus: xegpu.convert_layout between layouts, written by hand.
// Each function holds one conversion; the comment above it says which class the
// report should give it (none / registers / lanes / subgroups); expected.json has
// the derivations. Lanes are 16 per subgroup.
gpu.module @convert {
  // lanes: lane l owns column l before, row l after (a transpose of ownership).
  gpu.func @lanes_column_to_row(%v: vector<16x16xf32>) -> vector<16x16xf32> {
    %r = xegpu.convert_layout %v <{input_layout = #xegpu.layout<lane_layout = [1, 16], lane_data = [1, 1]>, target_layout = #xegpu.layout<lane_layout = [16, 1], lane_data = [1, 1]>}> : vector<16x16xf32> loc("convert.py":8:8)
    gpu.return %r : vector<16x16xf32>
  }

  // none: only inst_data changes; each lane keeps column l, rows 0..15 in row order.
  gpu.func @none_inst_data_only(%v: vector<16x16xf32>) -> vector<16x16xf32> {
    %r = xegpu.convert_layout %v <{input_layout = #xegpu.layout<inst_data = [8, 16], lane_layout = [1, 16], lane_data = [1, 1]>, target_layout = #xegpu.layout<inst_data = [16, 16], lane_layout = [1, 16], lane_data = [1, 1]>}> : vector<16x16xf32> loc("convert.py":14:8)
    gpu.return %r : vector<16x16xf32>
  }

  // none: lane_data [1, 1] -> [2, 1] (the VNNI-style B layout) on 16x16; lane l still
  // owns column l, rows 0..15, in the same order.
  gpu.func @none_vnni_lane_data(%v: vector<16x16xf16>) -> vector<16x16xf16> {
    %r = xegpu.convert_layout %v <{input_layout = #xegpu.layout<lane_layout = [1, 16], lane_data = [1, 1]>, target_layout = #xegpu.layout<lane_layout = [1, 16], lane_data = [2, 1]>}> : vector<16x16xf16> loc("convert.py":21:8)
    gpu.return %r : vector<16x16xf16>
  }

  // lanes: lane_data [1, 1] -> [1, 2] on 8x32; lane l owns columns {l, l+16} before,
  // {2l, 2l+1} after.
  gpu.func @lanes_pair_columns(%v: vector<8x32xf16>) -> vector<8x32xf16> {
    %r = xegpu.convert_layout %v <{input_layout = #xegpu.layout<lane_layout = [1, 16], lane_data = [1, 1]>, target_layout = #xegpu.layout<lane_layout = [1, 16], lane_data = [1, 2]>}> : vector<8x32xf16> loc("convert.py":28:8)
    gpu.return %r : vector<8x32xf16>
  }

  // registers: dropping inst_data = [8, 16] on 8x32; lane l keeps columns {l, l+16} of
  // all 8 rows, but the register order changes (tile-major -> row-major).
  gpu.func @registers_drop_inst_tiles(%v: vector<8x32xf32>) -> vector<8x32xf32> {
    %r = xegpu.convert_layout %v <{input_layout = #xegpu.layout<inst_data = [8, 16], lane_layout = [1, 16], lane_data = [1, 1]>, target_layout = #xegpu.layout<lane_layout = [1, 16], lane_data = [1, 1]>}> : vector<8x32xf32> loc("convert.py":35:8)
    gpu.return %r : vector<8x32xf32>
  }

  // lanes: same lane grid [2, 8], but order = [0, 1] numbers the lanes column-first.
  gpu.func @lanes_order_change(%v: vector<16x16xf32>) -> vector<16x16xf32> {
    %r = xegpu.convert_layout %v <{input_layout = #xegpu.layout<lane_layout = [2, 8], lane_data = [1, 1]>, target_layout = #xegpu.layout<lane_layout = [2, 8], lane_data = [1, 1], order = [0, 1]>}> : vector<16x16xf32> loc("convert.py":41:8)
    gpu.return %r : vector<16x16xf32>
  }

  // subgroups: workgroup level, 16 subgroups as [4, 4] x [32, 32] -> [8, 2] x [16, 64].
  gpu.func @subgroups_regrid(%v: vector<128x128xf32>) -> vector<128x128xf32> {
    %r = xegpu.convert_layout %v <{input_layout = #xegpu.layout<sg_layout = [4, 4], sg_data = [32, 32], inst_data = [8, 16], lane_layout = [1, 16], lane_data = [1, 1]>, target_layout = #xegpu.layout<sg_layout = [8, 2], sg_data = [16, 64], inst_data = [8, 16], lane_layout = [1, 16], lane_data = [1, 1]>}> : vector<128x128xf32> loc("convert.py":47:8)
    gpu.return %r : vector<128x128xf32>
  }

  // registers: workgroup level, same subgroup blocks and lanes; inst_data [8, 16] ->
  // [16, 16] regroups each lane's registers.
  gpu.func @registers_wg_inst_data(%v: vector<256x256xf32>) -> vector<256x256xf32> {
    %r = xegpu.convert_layout %v <{input_layout = #xegpu.layout<sg_layout = [8, 4], sg_data = [32, 64], inst_data = [8, 16], lane_layout = [1, 16], lane_data = [1, 1]>, target_layout = #xegpu.layout<sg_layout = [8, 4], sg_data = [32, 64], inst_data = [16, 16], lane_layout = [1, 16], lane_data = [1, 1]>}> : vector<256x256xf32> loc("convert.py":54:8)
    gpu.return %r : vector<256x256xf32>
  }
}
