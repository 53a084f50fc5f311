#!/usr/bin/env python3
"""Pairs bank_probe's patterns with Nsight Compute's counts, one JSON line per launch.

  python3 gen_bank_measurements.py patterns.jsonl metrics.csv > ../data/nvidia_h100_bank_measurements.jsonl

Each record: {"launch", "kind" (ld.b32 / ld.b64 / ld.b128 / ldmatrix.x4 / st.b32 / st.b64 /
st.b128), "family", "addresses"
(byte address per lane), "wavefronts", "bankConflicts"} as the hardware counted them
(l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{ld,st}.sum and
l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{ld,st}.sum).
"""
import csv
import json
import sys

patterns = [json.loads(line) for line in open(sys.argv[1])]
metrics = {}
# ncu prints its ==PROF== lines into the same stream: the CSV starts at the header.
lines = [l for l in open(sys.argv[2]) if not l.startswith("==")]
for row in csv.DictReader(lines):
    value = row["Metric Value"].replace(",", "")
    if value in ("", "n/a"):
        continue
    metrics.setdefault(int(row["ID"]), {})[row["Metric Name"]] = int(float(value))
for p in patterns:
    m = metrics[p["launch"]]
    # On sm_90 the ldsm metrics read n/a: ldmatrix is counted with the other shared loads.
    op = "st" if p["kind"].startswith("st.") else "ld"
    p["wavefronts"] = m["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_" + op + ".sum"]
    p["bankConflicts"] = m["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_" + op + ".sum"]
    print(json.dumps(p))
