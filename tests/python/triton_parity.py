#!/usr/bin/env python3
"""Compares gf2layout's LinearLayout with Triton's own Python LinearLayout
(triton._C.libtriton.linear_layout) on random layouts, op by op, in one process. Run it where
Triton is installed:

    PYTHONPATH=build/python python3 tests/python/triton_parity.py [--count 2000] [--seed 1]

Prints one line per op with the number of cases compared and the mismatches, and exits 1 on any
mismatch. Ops where Triton raises (an assert compiled into an exception, or a C++ abort caught as
RuntimeError) must raise ValueError here too; ops Triton aborts the process on are not fed inputs
it rejects (both sides are checked for invertibility / coverage first)."""
import argparse
import random
import sys
from collections import Counter

import gf2layout
from gf2layout import LinearLayout as Ours

try:
    from triton._C.libtriton.linear_layout import LinearLayout as Theirs
except ImportError:  # pragma: no cover - only where Triton is absent
    print("triton is not importable: nothing to compare")
    sys.exit(77)

IN_NAMES = ["register", "lane", "warp", "block"]
OUT_NAMES = ["dim0", "dim1", "dim2"]


def random_spec(rng, surjective=False, prefix=""):
    n_out = rng.randint(1, 3)
    outs = [(OUT_NAMES[i], 1 << rng.randint(0, 5)) for i in range(n_out)]
    n_in = rng.randint(1, 4)
    bases = []
    for name in [prefix + n for n in IN_NAMES[:n_in]]:
        vectors = []
        for _ in range(rng.randint(0, 4)):
            vectors.append([rng.randrange(size) if rng.random() < 0.8 else 0 for _, size in outs])
        bases.append((name, vectors))
    if surjective:
        # Add unit vectors so every out bit is reached.
        extra = []
        for o, (_, size) in enumerate(outs):
            b = 1
            while b < size:
                extra.append([b if i == o else 0 for i in range(len(outs))])
                b *= 2
        if n_in < 4:
            bases.append((prefix + IN_NAMES[n_in], extra))
        else:
            bases[-1][1].extend(extra)
    return bases, outs


def solves(a, b, c):
    """a(x) == b(c(x)) on every input basis vector (all three maps are linear)."""
    for name, size in a.in_dims:
        bit = 1
        while bit < size:
            x = {n: (bit if n == name else 0) for n, _ in a.in_dims}
            if a.apply(x) != b.apply(c.apply(x)):
                return False
            bit *= 2
    return True


def both(bases, outs):
    names, sizes = [n for n, _ in outs], [s for _, s in outs]
    return (
        Ours.from_bases(bases, names, sizes, False),
        Theirs.from_bases(bases, names, sizes, False),
    )


def same(a, b):
    """Our layout equals Triton's: bases and out dims, by value."""
    return [(n, [list(v) for v in vs]) for n, vs in a.bases] == [
        (n, [list(v) for v in vs]) for n, vs in b.bases
    ] and list(a.out_dims) == [(n, s) for n, s in b.out_dims]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--count", type=int, default=2000)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    rng = random.Random(args.seed)
    checked, mismatched = Counter(), Counter()

    def record(op, ok, detail=""):
        checked[op] += 1
        if not ok:
            mismatched[op] += 1
            if mismatched[op] <= 3:
                print(f"MISMATCH {op}: {detail}")

    for _ in range(args.count):
        bases, outs = random_spec(rng)
        o, t = both(bases, outs)
        record("from_bases", same(o, t))
        record("str", str(o) == str(t), repr(str(o)) + " vs " + repr(str(t)))
        record("is_surjective", o.is_surjective() == t.is_surjective())
        record("is_injective", o.is_injective() == t.is_injective())
        record("is_invertible", o.is_invertible() == t.is_invertible())
        record("get_matrix_view", o.get_matrix_view() == [list(r) for r in t.get_matrix_view()])
        ins = {n: rng.randrange(1 << len(v)) if v else 0 for n, v in bases}
        record("apply", o.apply(ins) == dict(t.apply(ins)), str(ins))
        # product with a second random layout
        b2, outs2 = random_spec(rng)
        o2, t2 = both(b2, outs2)
        try:
            prod_t = t * t2
        except Exception:
            prod_t = None
        if prod_t is not None:
            record("__mul__", same(o * o2, prod_t))
        record("__eq__", (o == o2) == (t == t2) and (o == o) == (t == t))
        # compose with an outer layout whose in-dims are our out-dims
        outer_bases = [(n, [[rng.randrange(16)] for _ in range(s.bit_length() - 1)]) for n, s in outs]
        oo, to = both(outer_bases, [("x", 16)])
        record("compose", same(o.compose(oo), t.compose(to)))
        # invert / pseudoinvert / invert_and_compose on surjective layouts
        # Its in-dims are named apart from o's: Triton asserts (aborting the process) when exactly
        # one side is left without non-identity in-dims, so no in-dim may be an identity dim.
        sb, souts = random_spec(rng, surjective=True, prefix="s_")
        so, st = both(sb, souts)
        if st.is_surjective():
            record("pseudoinvert", same(so.pseudoinvert(), st.pseudoinvert()))
            if st.is_invertible():
                record("invert", same(so.invert(), st.invert()))
            if o.num_in_dims > 0 and set(n for n, _ in outs) == set(n for n, _ in souts) and all(
                dict(souts)[n] >= s for n, s in outs
            ):
                ours = o.invert_and_compose(so)
                # Byte-equal, or (where Triton 3.6's identity-dim rule differs from main's, which
                # the library follows) a solution all the same.
                record("invert_and_compose", same(ours, t.invert_and_compose(st)) or solves(o, so, ours))
    bad = 0
    for op in sorted(checked):
        print(f"{op:20s} {checked[op]:6d} compared, {mismatched[op]} mismatches")
        bad += mismatched[op]
    print("gf2layout", gf2layout.__file__)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
