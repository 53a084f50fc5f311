"""The Python API beyond Triton's vectors: argument forms, errors, NumPy apply against scalar
apply, pickling and hashing, encodings and the batch ops against the C++ batch protocol (the
library's own tested path), and the shortcuts against values the reference notes work out."""
import json
import pickle
import random

import numpy as np
import pytest

import gf2layout
from gf2layout import LinearLayout

BLOCKED = (
    "#ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [4, 8], warpsPerCTA = [2, 1], "
    "order = [1, 0]}>"
)


def tile():
    # lane 1 -> (0, 2), lane 2 -> (0, 4), lane 4 -> (1, 0), ...: the layout of interchange §1.
    return LinearLayout.from_bases(
        [("register", [[0, 1], [8, 0]]), ("lane", [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]])],
        ["dim0", "dim1"],
    )


def random_layout(rng, in_bits=(3, 5, 2), out_bits=(4, 6)):
    names = ["register", "lane", "warp"]
    bases = []
    for name, n in zip(names, in_bits):
        bases.append((name, [[rng.randrange(1 << o) for o in out_bits] for _ in range(n)]))
    return LinearLayout.from_bases(bases, ["dim0", "dim1"], [1 << o for o in out_bits], False)


def test_constructors_and_dims():
    l = tile()
    assert l.out_dims == [("dim0", 16), ("dim1", 8)]  # the smallest sizes that hold the bases
    assert l.in_dims == [("register", 4), ("lane", 32)]
    assert l.get_in_dim_names() == ["register", "lane"]
    assert (l.num_in_dims, l.num_out_dims) == (2, 2)
    assert l.get_in_dim_size("lane") == 32 and l.get_out_dim_size("dim1") == 8
    assert l.apply({"register": 1, "lane": 4}) == {"dim0": 1, "dim1": 1}
    assert l.apply([("lane", 4), ("register", 1)]) == {"dim0": 1, "dim1": 1}
    assert LinearLayout.zeros_1d(4, "x", "y").out_dims == [("y", 1)]
    assert LinearLayout.strided_1d(4, 2, "x", "y").bases == [("x", [[2], [4]])]
    explicit = LinearLayout.from_bases([("x", [[1]])], ["y"], [4], require_surjective=False)
    assert explicit.out_dims == [("y", 4)] and not explicit.is_surjective()


def test_errors_are_value_errors_with_the_librarys_message():
    with pytest.raises(ValueError, match="out_dim_sizes must be provided"):
        LinearLayout.from_bases([("x", [[1]])], ["y"], None, False)
    with pytest.raises(ValueError, match="not surjective"):
        LinearLayout.from_bases([("x", [[2]])], ["y"])
    with pytest.raises(ValueError, match="same length"):
        LinearLayout.from_bases([("x", [[1]])], ["y"], [2, 4])
    with pytest.raises(ValueError, match="power of two"):
        LinearLayout.identity_1d(3, "x", "y")
    with pytest.raises(ValueError):
        tile().apply({"lane": 1})  # register missing
    with pytest.raises(ValueError):
        LinearLayout.zeros_1d(4, "x", "y").invert()  # not invertible
    with pytest.raises(ValueError, match="unknown layout attribute"):
        gf2layout.to_linear_layout("#foo.bar<{a = 1}>", [4])
    with pytest.raises(ValueError, match="expected sg_data and sg_layout to have the same rank"):
        gf2layout.verify("#xegpu.layout<sg_layout = [2, 2], sg_data = [32]>", [64, 64])


def test_numpy_apply_matches_scalar_apply():
    rng = random.Random(7)
    l = random_layout(rng)
    n = 5000
    ins = {
        "register": np.array([rng.randrange(8) for _ in range(n)], dtype=np.uint64),
        "lane": np.array([rng.randrange(32) for _ in range(n)], dtype=np.uint64),
        "warp": np.array([3], dtype=np.uint64),  # broadcast
    }
    outs = l.apply_array(ins)
    for i in range(n):
        want = l.apply({"register": int(ins["register"][i]), "lane": int(ins["lane"][i]), "warp": 3})
        assert int(outs["dim0"][i]) == want["dim0"] and int(outs["dim1"][i]) == want["dim1"]
    million = l.apply_array({"register": np.zeros(1 << 20, np.uint64), "lane": np.arange(1 << 20) % 32,
                             "warp": np.array([0], np.uint64)})
    assert million["dim0"].shape == (1 << 20,)
    with pytest.raises(ValueError, match="missing in-dim 'warp'"):
        l.apply_array({"register": ins["register"], "lane": ins["lane"]})


def test_pickling_hashing_and_json():
    rng = random.Random(3)
    layouts = [random_layout(rng) for _ in range(20)] + [tile(), LinearLayout()]
    for l in layouts:
        back = pickle.loads(pickle.dumps(l))
        assert back == l and hash(back) == hash(l)
        assert LinearLayout.from_json(l.to_json()) == l
    assert len({l: i for i, l in enumerate(layouts + [tile()])}) == len(layouts)
    assert tile() != LinearLayout() and tile() != "not a layout"


def test_matrix_and_masks():
    l = tile()
    m = l.matrix()
    assert m.shape == (7, 7) and m.tolist() == l.get_matrix_view()
    # Column 1 is register basis 1 = (8, 0): out bit 3 of dim0.
    assert [row[1] for row in l.get_matrix_view()] == [0, 0, 0, 1, 0, 0, 0]
    z = LinearLayout.from_bases([("x", [[1], [0], [2]])], ["y"], [4], False)
    assert z.get_free_variable_masks() == {"x": 0b010}
    assert LinearLayout.identity_1d(8, "x", "y").get_num_consecutive_in_out() == 8


def test_reshape_transpose_flatten_sublayout():
    l = tile()
    flat = l.flatten_ins()
    assert flat.in_dims == [("register", 128)]
    assert flat.reshape_ins([("register", 4), ("lane", 32)]) == l
    t = l.transpose_outs(["dim1", "dim0"])
    assert t.out_dims == [("dim1", 8), ("dim0", 16)]
    assert t.transpose_ins(["lane", "register"]).in_dims == [("lane", 32), ("register", 4)]
    assert l.flatten_outs().out_dims == [("dim0", 128)]
    assert l.reshape_outs([("dim0", 128)]) == l.flatten_outs()
    assert l.sublayout(["lane"], ["dim1"]).bases == [("lane", [[2], [4], [0], [0], [0]])]


def test_encodings_and_views_match_the_batch_protocol():
    shape = [16, 16]
    l = gf2layout.to_linear_layout(BLOCKED, shape)
    assert json.loads(l.to_json()) == gf2layout.batch("toLinearLayout", {"encoding": BLOCKED, "shape": shape})
    for hw in (False, True):
        text = gf2layout.layout_str(BLOCKED, shape, hw)
        assert text == gf2layout.batch(
            "layoutStr", {"encoding": BLOCKED, "shape": shape, "view": "hw" if hw else "tensor"}
        )
        assert l.get_distributed_view(hw) == text
    assert gf2layout.verify(BLOCKED, shape) is True


def test_shortcuts():
    # The transpose example of layout/xegpu/propagation.h.
    out = gf2layout.xegpu_propagate(
        "transpose",
        result="#xegpu.layout<sg_layout = [4, 8], sg_data = [32, 64], order = [1, 0]>",
        permutation=[1, 0],
    )
    assert out == {"source": "#xegpu.layout<sg_layout = [8, 4], sg_data = [64, 32], order = [0, 1]>"}
    dot = (
        "#ttg.dot_op<{opIdx = 0, parent = #ttig.dpas<{repeatCount = 8, systolicDepth = 8, "
        "executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [8, 4], "
        "repCluster = [4, 2]}>, kWidth = 1}>"
    )
    plan = gf2layout.block_load_plan(dot, [256, 32], 16)
    assert [l["shape"] if "shape" in l else l for l in plan["loads"]][0] is not None
    with pytest.raises(ValueError):
        gf2layout.batch("noSuchOp", {})


class FakeTritonLayout:
    """What from_triton reads of a Triton LinearLayout: bases and out_dims."""

    bases = [("lane", [[1, 0], [0, 1]])]
    out_dims = [("dim0", 2), ("dim1", 4)]


def test_from_triton_reads_bases_and_out_dims():
    l = gf2layout.from_triton(FakeTritonLayout())
    assert l.bases == FakeTritonLayout.bases and l.out_dims == FakeTritonLayout.out_dims
    assert not l.is_surjective()


def test_to_triton_round_trip_where_triton_is_installed():
    pytest.importorskip("triton")
    l = tile()
    assert gf2layout.from_triton(gf2layout.to_triton(l)) == l


SMALL_GEMM = {"m": 100, "n": 72, "k": 40, "sg_layout": [2, 2], "sg_data": [32, 32]}


def test_gemm_kernel_matches_layoutctl():
    import os
    import subprocess

    k = gf2layout.gemm_kernel(SMALL_GEMM)
    assert k["name"] == "gemm_bf16_2x2_32x32_k32"
    assert "kernel void " + k["name"] + "(" in k["source"]
    assert "intel_sub_group_2d_block_read_16b_32r16x2c(" in k["source"]
    assert k["report"].startswith("kernel " + k["name"])
    layoutctl = os.environ.get("GF2LAYOUT_LAYOUTCTL")
    if not layoutctl:
        pytest.skip("layoutctl not given (run through ctest)")
    out = subprocess.run(
        [layoutctl, "gemm", "--m", "100", "--n", "72", "--k", "40", "--sg-layout", "2x2",
         "--sg-data", "32x32", "--format", "json"],
        check=True, capture_output=True, text=True,
    ).stdout
    assert k["plan"] == json.loads(out)["plan"]


def test_gemm_simulate_verifies_against_the_reference():
    exact = gf2layout.gemm_simulate(dict(SMALL_GEMM, dtype="int8"), inputs="exact")
    assert exact["verification"]["passed"] and exact["verification"]["rule"] == "exact int32"
    assert exact["simulation"]["workgroups"] == 4  # 2 x 2 tiles of 64 x 64 cover 100 x 72
    rnd = gf2layout.gemm_simulate(SMALL_GEMM, seed=5)
    assert rnd["verification"]["passed"] and rnd["verification"]["checked"] == 100 * 72
    with pytest.raises(ValueError, match="sg_data\\[1\\] = 40"):
        gf2layout.gemm_kernel({"sg_data": [32, 40]})
    with pytest.raises(ValueError, match="inputs"):
        gf2layout.gemm_simulate(SMALL_GEMM, inputs="huge")
    with pytest.raises(ValueError, match="8 GiB"):
        gf2layout.gemm_simulate({"m": 65536, "n": 65536, "k": 65536})
