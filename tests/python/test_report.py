# gf2layout.report (layoutctl report, issue 33) on a file of the Triton 3.6 corpus: the fields of
# the JSON contract and the compiler's own choice at the conversion's source line.
import os
import pathlib
import re

import pytest

import gf2layout
from conftest import DATA

MATMUL = os.path.join(DATA, "ir", "triton", "matmul_f16_128x128x64.sm80.ttgir")


def test_report_path_and_text_agree():
    by_path = gf2layout.report(pathlib.Path(MATMUL))
    with open(MATMUL, encoding="utf-8") as f:
        text = f.read()
    assert gf2layout.report(text) == by_path
    assert gf2layout.report(MATMUL) == by_path
    want = len(re.findall(r"^\s*(?:%\S+ = )?ttg\.local_load\s", text, re.M))
    loads = [o for o in by_path["ops"] if o["op"] == "ttg.local_load"]
    assert len(loads) == want == 2
    # Triton's PTX: ldmatrix.x4 for A (line 32), ldmatrix.x4.trans for B (line 33).
    assert {(o["loc"]["line"], o["banks"]["instruction"]) for o in loads} == {
        (32, "nvidia.ldmatrix.x4"),
        (33, "nvidia.ldmatrix.x4.trans"),
    }
    (cvt,) = [o for o in by_path["ops"] if o["op"] == "ttg.convert_layout"]
    assert cvt["plan"]["kind"] == "shared" and cvt["loc"]["line"] == 42


def test_report_target_and_sarif():
    assert gf2layout.report(MATMUL, target="gfx942")["bankModel"] == "cdna3"
    sarif = gf2layout.report(MATMUL, sarif=True)
    assert sarif["version"] == "2.1.0"
    assert sarif["runs"][0]["tool"]["driver"]["name"] == "layoutctl"
    with pytest.raises(ValueError, match="unknown target"):
        gf2layout.report(MATMUL, target="tpu")
    with pytest.raises(ValueError, match="line"):
        gf2layout.report("module {\n  %0 = ttg.convert_layout")


def test_report_xegpu_block_loads():
    # gemm_sg.mlir (checked with mlir-opt-22): A's 32x16 descriptor with array_length = 2 is one
    # 16b_32r16x2c load; the 16-row f32 store breaks PVC's 8-row limit for 2D block stores.
    rep = gf2layout.report(os.path.join(DATA, "ir", "xegpu", "gemm_sg.mlir"))
    assert rep["target"] == "pvc" and rep["lanes"] == 16
    by_line = {o["line"]: o for o in rep["ops"]}
    assert by_line[38]["blockIo"]["instruction"] == "16b_32r16x2c"
    assert by_line[38]["blockIo"]["instructions"] == 1
    assert by_line[48]["blockIo"]["legal"] is False
