#!/usr/bin/env python3
"""Times the same layouts and ops through gf2layout and through Triton's Python LinearLayout
(triton._C.libtriton.linear_layout) in one process, interleaved, and prints the ratio Triton
time / ours. The layouts are those of benchmarks/algebra_benchmark.cpp: the 64x64 DPAS accumulator
and "Blocked 20" (a blocked layout over 1024x1024). Run where Triton is installed:

    PYTHONPATH=build/python python3 benchmarks/python_vs_triton.py [--repeat 7]

NumPy apply (ours only) is reported in points per second on one core."""
import argparse
import statistics
import sys
import time

import numpy as np

from gf2layout import LinearLayout as Ours

try:
    from triton._C.libtriton.linear_layout import LinearLayout as Theirs
except ImportError:  # pragma: no cover
    print("triton is not importable")
    sys.exit(77)


def build(cls):
    i = cls.identity_1d
    dpas = (i(8, "register", "dim0") * i(16, "lane", "dim1")) * (
        i(8, "register", "dim0") * i(2, "register", "dim1")
    ) * i(2, "warp", "dim1")
    blocked = i(4, "register", "dim1") * i(8, "lane", "dim1") * i(4, "lane", "dim0")
    blocked = blocked * (i(8, "warp", "dim1") * i(4, "warp", "dim0"))
    blocked = blocked * (i(4, "register", "dim1") * i(64, "register", "dim0"))
    return {"DPAS acc 64x64": dpas, "Blocked 20": blocked}


def timed(fn, n):
    t0 = time.perf_counter()
    for _ in range(n):
        fn()
    return (time.perf_counter() - t0) / n


def bench(fn_ours, fn_theirs, repeat, n):
    ours, theirs = [], []
    for _ in range(repeat):  # interleaved, so drift hits both alike
        ours.append(timed(fn_ours, n))
        theirs.append(timed(fn_theirs, n))
    return statistics.median(ours), statistics.median(theirs)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--repeat", type=int, default=7)
    args = p.parse_args()
    ours_l, theirs_l = build(Ours), build(Theirs)
    print(f"{'layout':16s} {'op':22s} {'ours':>11s} {'Triton':>11s} {'ratio':>8s}")
    for name in ours_l:
        o, t = ours_l[name], theirs_l[name]
        assert str(o) == str(t), "the two libraries built different layouts"
        ins = {n: 1 for n in o.get_in_dim_names()}
        bases = [(n, [list(v) for v in vs]) for n, vs in o.bases]
        names = [n for n, _ in o.out_dims]
        sizes = [s for _, s in o.out_dims]
        pairs = {
            "apply": (lambda: o.apply(ins), lambda: t.apply(ins), 20000),
            "__str__": (lambda: str(o), lambda: str(t), 2000),
            "__eq__": (lambda: o == o, lambda: t == t, 50000),
            "from_bases": (
                lambda: Ours.from_bases(bases, names, sizes, False),
                lambda: Theirs.from_bases(bases, names, sizes, False),
                5000,
            ),
            "__mul__": (lambda: o * o, lambda: t * t, 5000),
            "pseudoinvert": (lambda: o.pseudoinvert(), lambda: t.pseudoinvert(), 2000),
            "invert_and_compose": (
                lambda: o.invert_and_compose(o),
                lambda: t.invert_and_compose(t),
                2000,
            ),
        }
        po, pt = o.pseudoinvert(), t.pseudoinvert()
        pairs["compose"] = (lambda: po.compose(o), lambda: pt.compose(t), 5000)
        for op, (fo, ft, n) in pairs.items():
            a, b = bench(fo, ft, args.repeat, n)
            print(f"{name:16s} {op:22s} {a * 1e9:9.0f}ns {b * 1e9:9.0f}ns {b / a:7.1f}x")
        points = 1 << 22
        arrays = {n: (np.arange(points, dtype=np.uint64) % s) for n, s in o.in_dims}
        secs = min(timed(lambda: o.apply_array(arrays), 1) for _ in range(args.repeat))
        print(f"{name:16s} {'apply_array (NumPy)':22s} {points / secs / 1e6:9.1f} M points/s")


if __name__ == "__main__":
    main()
