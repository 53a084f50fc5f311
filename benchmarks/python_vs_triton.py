#!/usr/bin/env python3
"""Times the same layouts and ops through gf2layout and through Triton's Python LinearLayout
(triton._C.libtriton.linear_layout) in one process, interleaved, and prints the ratio Triton
time / ours (the median of paired repeats). The layouts are those of
benchmarks/algebra_benchmark.cpp: the 64x64 DPAS accumulator and "Blocked 20" (a blocked layout
over 1024x1024). Run where Triton is installed:

    PYTHONPATH=build/python python3 benchmarks/python_vs_triton.py [--repeat 15]

NumPy apply (ours only) is reported in points per second on one core."""
import argparse
import statistics
import sys
import time
import timeit

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


def bench(statement, ours, theirs, repeat, n):
    """Per library the median seconds per execution of `statement` (`l` bound to its layout), and
    the median of the per-repeat ratios. timeit compiles the statement into its loop, so no Python
    function call is added to the op's own. Each repeat times ours, then Triton's, back to back:
    the machine's drift (a shared VM can change speed within seconds) hits both halves of a pair
    alike, so the ratio of a pair is steadier than the ratio of two medians."""
    timers = [timeit.Timer(statement, globals=g) for g in (ours, theirs)]
    times = ([], [])
    for _ in range(repeat):
        for timer, t in zip(timers, times):
            t.append(timer.timeit(n) / n)
    ratios = [b / a for a, b in zip(*times)]
    return statistics.median(times[0]), statistics.median(times[1]), statistics.median(ratios)


# (op, statement, executions per repeat); `l` is the layout, `L` its class.
OPS = [
    ("apply", "l.apply(ins)", 20000),
    ("__str__", "str(l)", 2000),
    ("__eq__", "l == l2", 50000),
    ("from_bases", "L.from_bases(bases, names, sizes, False)", 5000),
    ("__mul__", "l * l", 5000),
    ("compose", "p.compose(l)", 5000),
    ("invert", "l.invert()", 2000),
    ("pseudoinvert", "l.pseudoinvert()", 2000),
    ("invert_and_compose", "l.invert_and_compose(l)", 2000),
    ("is_surjective", "l.is_surjective()", 50000),
    ("num_in_dims", "l.num_in_dims", 50000),
    ("out_dims", "l.out_dims", 20000),
    ("get_in_dim_names", "l.get_in_dim_names()", 20000),
    ("bases", "l.bases", 5000),
]


# What the interpreter itself spends on the cheapest calls of built-in C types, for reading the
# ratios of the ops that do almost no work: no binding can be faster than these.
FLOOR = [
    ("tuple == tuple (C slot)", "t == t2"),
    ("complex.real (C property)", "c.real"),
    ("tuple.count(x) (C method)", "t.count(1)"),
    ("dict of 2 ints (literal)", "{'dim0': a, 'dim1': b}"),
]


def floor(repeat):
    g = {"t": (1, 2, 3), "t2": (1, 2, 3), "c": 1.5 + 2j, "a": 1, "b": 2}
    for label, statement in FLOOR:
        timer = timeit.Timer(statement, globals=g)
        best = min(timer.timeit(50000) / 50000 for _ in range(repeat))
        print(f"{'CPython floor':16s} {label:28s} {best * 1e9:5.0f}ns")


def namespace(cls, layout):
    """The names the statements use, built through the library under test."""
    copy = cls.from_bases(
        [(n, [list(v) for v in vs]) for n, vs in layout.bases],
        [n for n, _ in layout.out_dims],
        [s for _, s in layout.out_dims],
        False,
    )
    return {
        "L": cls,
        "l": layout,
        "l2": copy,  # equal, not the same object
        "p": layout.pseudoinvert(),
        "ins": {n: 1 for n in layout.get_in_dim_names()},
        "bases": [(n, [list(v) for v in vs]) for n, vs in layout.bases],
        "names": [n for n, _ in layout.out_dims],
        "sizes": [s for _, s in layout.out_dims],
    }


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--repeat", type=int, default=15)
    args = p.parse_args()
    ours_l, theirs_l = build(Ours), build(Theirs)
    print(f"{'layout':16s} {'op':22s} {'ours':>11s} {'Triton':>11s} {'ratio':>8s}")
    for name in ours_l:
        o, t = ours_l[name], theirs_l[name]
        assert str(o) == str(t), "the two libraries built different layouts"
        assert o.is_invertible() and t.is_invertible()
        ours, theirs = namespace(Ours, o), namespace(Theirs, t)
        for op, statement, n in OPS:
            a, b, ratio = bench(statement, ours, theirs, args.repeat, n)
            print(f"{name:16s} {op:22s} {a * 1e9:9.0f}ns {b * 1e9:9.0f}ns {ratio:7.1f}x")
        points = 1 << 22
        arrays = {n: (np.arange(points, dtype=np.uint64) % s) for n, s in o.in_dims}
        secs = min(timed(lambda: o.apply_array(arrays), 1) for _ in range(args.repeat))
        print(f"{name:16s} {'apply_array (NumPy)':22s} {points / secs / 1e6:9.1f} M points/s")
    floor(args.repeat)


if __name__ == "__main__":
    main()
