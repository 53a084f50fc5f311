#!/usr/bin/env python3
"""Generate LinearLayout algebra test vectors with real Triton (independent oracle).

Every output line is one JSON object

    {"request": {"id": N, "op": "<op>", "inputs": [<layout JSON>...], "args": {...}},
     "expected": {"result": <value>}}

where the request follows `layoutctl batch` (docs/interchange.md section 2) and the layouts follow the
layout JSON of section 1.  The expected values are what Triton's C++ `LinearLayout` (through its Python
binding `triton._C.libtriton.linear_layout.LinearLayout`) computes.

The cases are drawn from seeded `random.Random` generators (no Triton needed for that, see --dry-run), so the
output is reproducible byte for byte for a given seed and Triton version.

Triton aborts the whole process on a failed C++ assertion, so the cases are evaluated in a child process; when
the child dies, the case it died on is logged (see --log) and left out, and a new child carries on after it.
The generator only draws cases whose preconditions hold, so normally nothing is left out.

Usage:
    python3 gen_algebra_vectors.py --out triton_algebra_vectors.jsonl [--log gen_log.txt] [--seed N]
    python3 gen_algebra_vectors.py --dry-run        # draw the cases and print counts, no Triton
    python3 gen_algebra_vectors.py --probe          # print what the Python binding returns
"""

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile

DEFAULT_SEED = 20260601

STD_IN = ["register", "lane", "warp", "block"]
STD_OUT = ["dim0", "dim1", "dim2"]
IN_POOL = STD_IN + ["offset", "iteration", "load", "row", "col", "vector", "bank", "segment", "reps",
                    "x", "in_a", "thread_id", "k2"]
OUT_POOL = STD_OUT + ["dim3", "offset", "m", "n", "k", "out_x", "col"]

MAX_OUT_BITS = 12   # per out-dim
MAX_DIM_BITS = 12   # per in-dim
MAX_IN_BITS = 24    # per layout

# Number of cases per op, in output order.
COUNTS = [
    ("identity1D", 150),
    ("strided1D", 150),
    ("zeros1D", 150),
    ("compose", 300),
    ("invertAndCompose", 400),
    ("invert", 200),
    ("pseudoinvert", 250),
    ("product", 300),
    ("apply", 300),
    ("equals", 300),
    ("toString", 200),
    ("isSurjective", 200),
    ("isInjective", 200),
    ("isInvertible", 200),
    ("getInDimNames", 150),
    ("getOutDimNames", 150),
]
# apply: this many cases at the end of the block pass input values >= the in-dim size.
APPLY_OUT_OF_RANGE = 20


# ----------------------------------------------------------------------------------------------------------
# Plain-Python layout helpers (layout JSON dicts)
# ----------------------------------------------------------------------------------------------------------

def log2(n):
    assert n >= 1 and n & (n - 1) == 0, n
    return n.bit_length() - 1


def mk(in_dims, out_dims):
    """in_dims: [(name, bases)], out_dims: [(name, size)]."""
    return {"inDims": [{"name": n, "bases": [list(b) for b in bs]} for n, bs in in_dims],
            "outDims": [{"name": n, "size": s} for n, s in out_dims]}


def out_names(L):
    return [d["name"] for d in L["outDims"]]


def in_names(L):
    return [d["name"] for d in L["inDims"]]


def out_bits(L):
    return [log2(d["size"]) for d in L["outDims"]]


def in_bits(L):
    return [len(d["bases"]) for d in L["inDims"]]


def flatten(b, obits):
    v, off = 0, 0
    for c, nb in zip(b, obits):
        v |= c << off
        off += nb
    return v


def unflatten(v, obits):
    comps = []
    for nb in obits:
        comps.append(v & ((1 << nb) - 1))
        v >>= nb
    return comps


def columns(L, obits=None):
    ob = out_bits(L) if obits is None else obits
    return [flatten(b, ob) for d in L["inDims"] for b in d["bases"]]


def echelon(vs):
    """Basis keyed by leading (highest) bit."""
    basis = {}
    for v in vs:
        while v:
            h = v.bit_length() - 1
            if h in basis:
                v ^= basis[h]
            else:
                basis[h] = v
                break
    return basis


def rank(vs):
    return len(echelon(vs))


def reduce_by(v, basis):
    while v:
        h = v.bit_length() - 1
        if h not in basis:
            return v
        v ^= basis[h]
    return 0


def is_surj(L):
    return rank(columns(L)) == sum(out_bits(L))


def is_inj(L):
    return rank(columns(L)) == sum(in_bits(L))


def from_cols(in_spec, out_spec, cols):
    """in_spec [(name, nbits)], out_spec [(name, nbits)], cols flattened in out_spec order."""
    obits = [b for _, b in out_spec]
    assert len(cols) == sum(b for _, b in in_spec)
    it = iter(cols)
    in_dims = [(n, [unflatten(next(it), obits) for _ in range(nb)]) for n, nb in in_spec]
    return mk(in_dims, [(n, 1 << b) for n, b in out_spec])


def transpose_outs(L, order):
    idx = [out_names(L).index(n) for n in order]
    return mk([(d["name"], [[b[i] for i in idx] for b in d["bases"]]) for d in L["inDims"]],
              [(L["outDims"][i]["name"], L["outDims"][i]["size"]) for i in idx])


def transpose_ins(L, order):
    by = {d["name"]: d["bases"] for d in L["inDims"]}
    return mk([(n, by[n]) for n in order], [(d["name"], d["size"]) for d in L["outDims"]])


def validate(L):
    ob = out_bits(L)
    names = in_names(L)
    assert len(set(names)) == len(names), names
    assert len(set(out_names(L))) == len(out_names(L))
    for d in L["inDims"]:
        for b in d["bases"]:
            assert len(b) == len(ob), (d, ob)
            for c, nb in zip(b, ob):
                assert 0 <= c < (1 << nb), (c, nb)
    assert sum(in_bits(L)) <= 64 and sum(ob) <= 64


# ----------------------------------------------------------------------------------------------------------
# Random layout generation
# ----------------------------------------------------------------------------------------------------------

def ordered_subset(rng, seq, k):
    idx = sorted(rng.sample(range(len(seq)), k))
    return [seq[i] for i in idx]


def pick_names(rng, pool, std, k):
    r = rng.random()
    if r < 0.45 and k <= len(std):
        names = list(std[:k]) if rng.random() < 0.6 else ordered_subset(rng, std, k)
        if rng.random() < 0.25:
            rng.shuffle(names)
        return names
    return rng.sample(pool, k)


def small_bits(rng, hi):
    return min(hi, rng.choice([0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 6, 7, 8, 10, 12]))


def split_bits(rng, total, k, maxper=MAX_DIM_BITS):
    assert 0 <= total <= k * maxper
    parts = [0] * k
    for _ in range(total):
        choices = [i for i in range(k) if parts[i] < maxper]
        parts[rng.choice(choices)] += 1
    return parts


def rand_out_spec(rng, k=None, maxbits=MAX_OUT_BITS, names=None, total_max=None):
    if k is None:
        k = len(names) if names is not None else rng.choice([1, 1, 2, 2, 2, 3, 3])
    if names is None:
        names = pick_names(rng, OUT_POOL, STD_OUT, k)
    bits = [small_bits(rng, maxbits) for _ in range(k)]
    if total_max is not None:
        while sum(bits) > total_max:
            i = max(range(k), key=lambda j: bits[j])
            bits[i] -= 1
    return list(zip(names, bits))


def rand_in_spec(rng, k=None, total_max=MAX_IN_BITS, names=None):
    if k is None:
        k = len(names) if names is not None else rng.choice([1, 1, 2, 2, 3, 3, 4])
    if names is None:
        names = pick_names(rng, IN_POOL, STD_IN, k)
    bits = [small_bits(rng, MAX_DIM_BITS) for _ in range(k)]
    while sum(bits) > total_max:
        i = max(range(k), key=lambda j: bits[j])
        bits[i] -= 1
    return list(zip(names, bits))


def random_invertible_ops(rng, vecs, nbits, nops):
    """Apply random invertible row operations (on the out-bit space) to a list of vectors."""
    if nbits < 2:
        return vecs
    vecs = list(vecs)
    for _ in range(nops):
        p, q = rng.sample(range(nbits), 2)
        vecs = [v ^ (1 << p) if (v >> q) & 1 else v for v in vecs]
    return vecs


def gen_cols(rng, n_in, n_out, mode, fill=None):
    """Flattened columns for a layout with n_in in-bits and n_out out-bits.

    modes: zero, random, unit, perm (rank min(n_in,n_out), unit vectors), full (same rank, dense),
    lowrank (rank below min(n_in, n_out) when possible).
    """
    if mode == "zero":
        return [0] * n_in
    if mode == "random":
        pz = rng.choice([0.0, 0.0, 0.15, 0.4])
        return [0 if rng.random() < pz else rng.getrandbits(n_out) if n_out else 0 for _ in range(n_in)]
    if mode == "unit":
        pz = rng.choice([0.0, 0.1, 0.3])
        return [0 if (n_out == 0 or rng.random() < pz) else 1 << rng.randrange(n_out) for _ in range(n_in)]
    mx = min(n_in, n_out)
    if mode == "lowrank":
        r = rng.randrange(0, mx) if mx > 0 else 0
        dense = rng.random() < 0.6
    else:
        r = mx
        dense = mode == "full"
    bits = rng.sample(range(n_out), r)
    indep = [1 << b for b in bits]
    if dense:
        indep = random_invertible_ops(rng, indep, n_out, rng.randrange(1, 3 * n_out + 2))
        for _ in range(rng.randrange(0, 2 * r + 1)):
            if r >= 2:
                i, j = rng.sample(range(r), 2)
                indep[i] ^= indep[j]
    positions = rng.sample(range(n_in), r)
    cols = [None] * n_in
    for p, v in zip(positions, indep):
        cols[p] = v
    fill = fill or rng.choice(["zero", "dup", "combo", "mix"])
    for i in range(n_in):
        if cols[i] is not None:
            continue
        f = rng.choice(["zero", "dup", "combo"]) if fill == "mix" else fill
        if f == "zero" or not indep:
            cols[i] = 0
        elif f == "dup":
            cols[i] = rng.choice(indep)
        else:
            v = 0
            for x in indep:
                if rng.random() < 0.5:
                    v ^= x
            cols[i] = v
    return cols


def rand_layout(rng, in_spec=None, out_spec=None, mode=None):
    if out_spec is None:
        out_spec = rand_out_spec(rng)
    if in_spec is None:
        in_spec = rand_in_spec(rng)
    if mode is None:
        mode = rng.choice(["random", "random", "unit", "perm", "perm", "full", "lowrank", "zero"])
    n_in = sum(b for _, b in in_spec)
    n_out = sum(b for _, b in out_spec)
    L = from_cols(in_spec, out_spec, gen_cols(rng, n_in, n_out, mode))
    validate(L)
    return L


def invertible_layout(rng, out_spec=None, k_in=None, in_names_=None, mode=None, total_max=MAX_IN_BITS):
    if out_spec is None:
        out_spec = rand_out_spec(rng, total_max=total_max)
    n = sum(b for _, b in out_spec)
    if in_names_ is None:
        kmin = max(1, -(-n // MAX_DIM_BITS))
        k = max(kmin, k_in if k_in is not None else rng.choice([1, 1, 2, 2, 3, 4]))
        in_names_ = pick_names(rng, IN_POOL, STD_IN, k)
    bits = split_bits(rng, n, len(in_names_))
    in_spec = list(zip(in_names_, bits))
    L = from_cols(in_spec, out_spec, gen_cols(rng, n, n, mode or rng.choice(["perm", "full", "full"])))
    assert is_surj(L) and is_inj(L)
    validate(L)
    return L


def surjective_layout(rng, out_spec=None, extra=None, in_names_=None, mode=None, fill=None):
    if out_spec is None:
        out_spec = rand_out_spec(rng, total_max=MAX_IN_BITS - 2)
    n = sum(b for _, b in out_spec)
    if extra is None:
        extra = rng.choice([0, 1, 1, 2, 3, 4, 6])
    total = min(MAX_IN_BITS, n + extra)
    if in_names_ is None:
        kmin = max(1, -(-total // MAX_DIM_BITS))
        k = max(kmin, rng.choice([1, 2, 2, 3, 3, 4]))
        in_names_ = pick_names(rng, IN_POOL, STD_IN, k)
    bits = split_bits(rng, total, len(in_names_))
    in_spec = list(zip(in_names_, bits))
    L = from_cols(in_spec, out_spec, gen_cols(rng, total, n, mode or rng.choice(["perm", "full"]), fill))
    assert is_surj(L)
    validate(L)
    return L


def layout_in_image(rng, B, out_order, a_bits, in_spec, pzero=0.25):
    """A layout with out-dims `out_order` (bits a_bits, each <= B's) whose image lies in Im(B)."""
    Bt = transpose_outs(B, out_order)
    bb = out_bits(Bt)
    box = 0
    off = 0
    for ab, nb in zip(a_bits, bb):
        assert ab <= nb
        box |= ((1 << ab) - 1) << off
        off += nb
    big = sum(bb)
    # echelon with non-box bits ranked above box bits: the basis vectors without non-box bits span
    # Im(B) intersected with the box.
    keyed = [((c & ~box) << big) | (c & box) for c in columns(Bt)]
    ech = echelon(keyed)
    inter = [v for v in ech.values() if v < (1 << big)]
    n_in = sum(b for _, b in in_spec)
    cols = []
    for _ in range(n_in):
        v = 0
        if inter and rng.random() >= pzero:
            style = rng.random()
            if style < 0.4:
                v = rng.choice(inter)
            else:
                for x in inter:
                    if rng.random() < 0.5:
                        v ^= x
        comps = unflatten(v, bb)
        cols.append(flatten(comps, a_bits))
    A = from_cols(in_spec, list(zip(out_order, a_bits)), cols)
    validate(A)
    return A


def iac_ok(A, B):
    """Preconditions of A.invertAndCompose(B) (A = receiver)."""
    oa, ob = out_names(A), out_names(B)
    if sorted(oa) != sorted(ob):
        return False
    Bt = transpose_outs(B, oa)
    ab, bb = out_bits(A), out_bits(Bt)
    if any(x > y for x, y in zip(ab, bb)):
        return False
    if sum(in_bits(B)) > 30 or sum(in_bits(A)) + sum(in_bits(B)) > 60 or sum(bb) > 60:
        return False
    # Im(A) must lie in Im(B), also after Triton's identity-dim heuristic has taken out the in-dims whose
    # single-dim sublayouts are equal in A and B (compared with out sizes in Triton 3.6, ignoring them since
    # triton-lang/triton#10116; both are checked): the remaining dims of A must map into the span of the remaining
    # dims of B, otherwise Triton's lstsq aborts even though a solution exists.
    bdims = {d["name"]: d["bases"] for d in Bt["inDims"]}
    for strict in (None, False, True):
        ident = set()
        if strict is not None:
            for d in A["inDims"]:
                if d["name"] in bdims and d["bases"] == bdims[d["name"]] and (not strict or ab == bb):
                    ident.add(d["name"])
        if strict is not None:
            # Triton asserts that A has dims left after the heuristic exactly when B has.
            a_left = any(n not in ident for n in in_names(A))
            b_left = any(n not in ident for n in in_names(Bt))
            if a_left != b_left:
                return False
        ech = echelon([flatten(b, bb) for d in Bt["inDims"] if d["name"] not in ident for b in d["bases"]])
        for d in A["inDims"]:
            if d["name"] in ident:
                continue
            for b in d["bases"]:
                if reduce_by(flatten(b, bb), ech):
                    return False
    return True


def identity_over_outs(L):
    """The layout that Triton's pseudoinvert() inverts-and-composes: prod of identity1D(outSize(d), d, d)."""
    ob = out_bits(L)
    dims = []
    for j, d in enumerate(L["outDims"]):
        dims.append((d["name"], [[(1 << i) if k == j else 0 for k in range(len(ob))] for i in range(ob[j])]))
    return mk(dims, [(d["name"], d["size"]) for d in L["outDims"]])


def pinv_ok(L):
    return iac_ok(identity_over_outs(L), L)


def without_in_dims(L, names):
    return mk([(d["name"], d["bases"]) for d in L["inDims"] if d["name"] not in names],
              [(d["name"], d["size"]) for d in L["outDims"]])


def copy_dim_into(Bdim_bases, B_out_order, A_out_order, a_bits):
    """B's bases of one in-dim, with components reordered to A's out order; None if they do not fit."""
    idx = [B_out_order.index(n) for n in A_out_order]
    res = []
    for b in Bdim_bases:
        c = [b[i] for i in idx]
        if any(x >= (1 << ab) for x, ab in zip(c, a_bits)):
            return None
        res.append(c)
    return res


# ----------------------------------------------------------------------------------------------------------
# Case generators: each returns (inputs, args)
# ----------------------------------------------------------------------------------------------------------

def any_in_name(rng):
    return rng.choice(IN_POOL + STD_IN)


def any_out_name(rng):
    return rng.choice(OUT_POOL + STD_OUT)


def gen_identity1D(rng, i):
    size = 1 << rng.choice(range(0, 13))
    ind = any_in_name(rng)
    outd = ind if rng.random() < 0.1 else any_out_name(rng)
    return [], {"size": size, "inDim": ind, "outDim": outd}


def gen_strided1D(rng, i):
    sb = rng.choice(range(0, 13))
    stb = rng.choice(range(0, 13 - sb)) if rng.random() < 0.9 else 0
    ind = any_in_name(rng)
    outd = ind if rng.random() < 0.1 else any_out_name(rng)
    return [], {"size": 1 << sb, "stride": 1 << stb, "inDim": ind, "outDim": outd}


def gen_zeros1D(rng, i):
    args = {"size": 1 << rng.choice(range(0, 13)), "inDim": any_in_name(rng), "outDim": any_out_name(rng)}
    if rng.random() < 0.1:
        args["outDim"] = args["inDim"]
    if rng.random() < 0.8:
        args["outDimSize"] = 1 << rng.choice(range(0, 13))
    return [], args


def gen_compose(rng, i):
    A = rand_layout(rng)
    O = out_names(A)
    abits = out_bits(A)
    # B: in-dims = A's out-dims (any order), sizes >= A's.
    order = list(range(len(O)))
    if rng.random() < 0.5:
        rng.shuffle(order)
    bin_spec = []
    for j in order:
        b = abits[j] if rng.random() < 0.6 else min(MAX_DIM_BITS, abits[j] + rng.choice([1, 1, 2, 3]))
        bin_spec.append((O[j], b))
    r = rng.random()
    if r < 0.2:
        # B's out-dims named like its in-dims (a swizzle-like map dim0,dim1 -> dim0,dim1)
        names = [n for n, _ in bin_spec]
        rng.shuffle(names)
        bout = rand_out_spec(rng, names=names)
    else:
        bout = rand_out_spec(rng)
    mode = rng.choice(["random", "unit", "perm", "full", "lowrank", "perm", "full"])
    B = rand_layout(rng, bin_spec, bout, mode)
    return [A, B], {}


def gen_invertAndCompose(rng, i):
    sc = rng.choice(["B_invertible", "B_invertible", "B_surj_broadcast", "B_surj_broadcast",
                     "B_nonsurj", "B_nonsurj", "shared_dims", "shared_dims", "shared_dims",
                     "bigger_B_shared", "bigger_B_shared", "bigger_B_shared",
                     "distributed", "distributed", "distributed",
                     "A_zero", "renamed", "same", "A_subset_dims"])
    # B's out spec, in B's order
    kout = rng.choice([1, 1, 2, 2, 2, 3])
    onames = pick_names(rng, OUT_POOL, STD_OUT, kout)
    a_order = list(onames)
    if rng.random() < 0.35:
        rng.shuffle(a_order)

    def a_bits_for(B, smaller_prob=0.35):
        bb = dict(zip(out_names(B), out_bits(B)))
        res = []
        for n in a_order:
            if rng.random() < smaller_prob:
                res.append(rng.randrange(0, bb[n] + 1))
            else:
                res.append(bb[n])
        return res

    if sc == "B_invertible":
        B = invertible_layout(rng, rand_out_spec(rng, names=onames, total_max=20))
        ab = a_bits_for(B)
        A = layout_in_image(rng, B, a_order, ab, rand_in_spec(rng, total_max=20), pzero=rng.choice([0, 0.2, 0.5]))
    elif sc == "B_surj_broadcast":
        B = surjective_layout(rng, rand_out_spec(rng, names=onames, total_max=18),
                              extra=rng.choice([1, 2, 3, 4, 6]))
        ab = a_bits_for(B)
        A = layout_in_image(rng, B, a_order, ab, rand_in_spec(rng, total_max=20), pzero=rng.choice([0, 0.2, 0.5]))
    elif sc == "B_nonsurj":
        B = rand_layout(rng, rand_in_spec(rng, total_max=20), rand_out_spec(rng, names=onames),
                        rng.choice(["lowrank", "lowrank", "unit", "random", "perm"]))
        ab = a_bits_for(B, 0.25)
        A = layout_in_image(rng, B, a_order, ab, rand_in_spec(rng, total_max=20), pzero=rng.choice([0, 0.2, 0.5]))
    elif sc in ("shared_dims", "A_subset_dims", "renamed", "same"):
        names = pick_names(rng, IN_POOL, STD_IN, rng.choice([2, 3, 3, 4]))
        if rng.random() < 0.7:
            B = surjective_layout(rng, rand_out_spec(rng, names=onames, total_max=16), in_names_=names,
                                  mode=rng.choice(["perm", "perm", "full"]))
        else:
            B = rand_layout(rng, rand_in_spec(rng, names=names, total_max=20), rand_out_spec(rng, names=onames),
                            rng.choice(["lowrank", "unit", "perm"]))
        ab = a_bits_for(B, 0.15 if sc != "same" else 0.0)
        bnames = in_names(B)
        if sc == "same":
            A = transpose_outs(B, a_order)
            if rng.random() < 0.5:
                A = transpose_ins(A, rng.sample(in_names(A), len(in_names(A))))
        elif sc == "renamed":
            other = [n for n in IN_POOL if n not in bnames]
            newn = rng.sample(other, len(bnames))
            Bt = transpose_outs(B, a_order)
            A = mk([(nn, d["bases"]) for nn, d in zip(newn, Bt["inDims"])],
                   [(d["name"], d["size"]) for d in Bt["outDims"]])
        else:
            if sc == "A_subset_dims":
                keep = ordered_subset(rng, bnames, rng.randrange(1, len(bnames)))
            else:
                keep = list(bnames)
                if rng.random() < 0.3:
                    keep.append(rng.choice([n for n in IN_POOL if n not in bnames]))
            if rng.random() < 0.4:
                rng.shuffle(keep)
            bdims = {d["name"]: d["bases"] for d in B["inDims"]}
            copies = {}
            for n in keep:
                if n in bdims and rng.random() < 0.6:
                    c = copy_dim_into(bdims[n], out_names(B), a_order, ab)
                    if c is not None:
                        copies[n] = c
            # the other dims of A map into the image of B's dims that A does not copy
            rest = without_in_dims(B, copies)
            dims = []
            for n in keep:
                if n in copies:
                    dims.append((n, copies[n]))
                else:
                    sub = layout_in_image(rng, rest, a_order, ab, [(n, small_bits(rng, 8))], pzero=0.25)
                    dims.append((n, sub["inDims"][0]["bases"]))
            A = mk(dims, list(zip(a_order, [1 << b for b in ab])))
    elif sc == "bigger_B_shared":
        # B's low out bits (A's box) are covered by its first in-dims, its high bits by the later ones; A copies
        # some of B's low dims exactly, so the dims are equal up to out sizes.
        bspec = rand_out_spec(rng, names=onames, total_max=16)
        bbits = dict(bspec)
        ab = [rng.randrange(0, bbits[n] + 1) for n in a_order]
        # flattened bit positions in A order with B's sizes
        offs, o = {}, 0
        for n in a_order:
            offs[n] = o
            o += bbits[n]
        boxbits = [offs[n] + j for n, k in zip(a_order, ab) for j in range(k)]
        hibits = [offs[n] + j for n, k in zip(a_order, ab) for j in range(k, bbits[n])]
        rng.shuffle(boxbits)
        rng.shuffle(hibits)
        cols = []
        for grp in (boxbits, hibits):
            for bit in grp:
                cols.append(1 << bit)
                if rng.random() < 0.15:
                    cols.append(0)
        cols = cols[:MAX_IN_BITS]
        names = pick_names(rng, IN_POOL, STD_IN, rng.choice([2, 3, 4]))
        # split: first dims get the low part
        k = len(names)
        bits = split_bits(rng, len(cols), k) if len(cols) <= k * MAX_DIM_BITS else None
        if bits is None:
            return gen_invertAndCompose(rng, i)
        bt_spec = [(n, bbits[n]) for n in a_order]
        B_a = from_cols(list(zip(names, bits)), bt_spec, cols)
        B = transpose_outs(B_a, onames)
        bdims = {d["name"]: d["bases"] for d in B["inDims"]}
        keep = list(names)
        if rng.random() < 0.4:
            rng.shuffle(keep)
        copies = {}
        for n in keep:
            c = copy_dim_into(bdims[n], out_names(B), a_order, ab)
            if c is not None and rng.random() < 0.85:
                copies[n] = c
        rest = without_in_dims(B, copies)
        dims = []
        for n in keep:
            if n in copies:
                dims.append((n, copies[n]))
            else:
                sub = layout_in_image(rng, rest, a_order, ab, [(n, small_bits(rng, 6))], pzero=0.25)
                dims.append((n, sub["inDims"][0]["bases"]))
        A = mk(dims, list(zip(a_order, [1 << b for b in ab])))
    elif sc == "distributed":
        # Two register/lane/warp(/block) layouts onto the same tensor, both surjective (layout conversions).
        spec = rand_out_spec(rng, names=onames, total_max=12)
        n = sum(b for _, b in spec)

        def dist(out_spec):
            lane = min(5, n) if rng.random() < 0.8 else rng.randrange(0, min(5, n) + 1)
            warp = rng.choice([0, 1, 2, 2, 3])
            block = rng.choice([0, 0, 0, 1])
            reg = min(MAX_DIM_BITS, max(0, n - lane - warp - block) + rng.choice([0, 0, 1, 2]))
            names = ["register", "lane", "warp"] + (["block"] if block or rng.random() < 0.3 else [])
            bits = [reg, lane, warp] + ([block] if len(names) == 4 else [])
            total = sum(bits)
            if total < n:
                bits[0] += n - total
                total = n
            L = from_cols(list(zip(names, bits)), out_spec,
                          gen_cols(rng, total, n, rng.choice(["perm", "perm", "perm", "full"]),
                                   fill=rng.choice(["zero", "zero", "dup"])))
            assert is_surj(L)
            return L
        B = dist(spec)
        A = transpose_outs(dist(spec), a_order)
        if rng.random() < 0.3:
            # make one dim identical (e.g. warps broadcast the same way)
            d = rng.choice(["lane", "warp"])
            bb = copy_dim_into(dict((x["name"], x["bases"]) for x in B["inDims"])[d], out_names(B), a_order,
                               out_bits(A))
            A = mk([(x["name"], bb if x["name"] == d else x["bases"]) for x in A["inDims"]],
                   [(x["name"], x["size"]) for x in A["outDims"]])
        if rng.random() < 0.3:
            A = transpose_ins(A, rng.sample(in_names(A), len(in_names(A))))
    elif sc == "A_zero":
        B = rand_layout(rng, rand_in_spec(rng, total_max=20), rand_out_spec(rng, names=onames))
        ab = a_bits_for(B)
        spec = rand_in_spec(rng, total_max=20)
        A = from_cols(spec, list(zip(a_order, ab)), [0] * sum(b for _, b in spec))
    else:
        raise AssertionError(sc)
    validate(A)
    validate(B)
    if not iac_ok(A, B):
        return gen_invertAndCompose(rng, i)
    return [A, B], {}


def partial_identity_invertible(rng):
    """Invertible layout whose in-dims are named like its out-dims, some of them mapped identically."""
    spec = rand_out_spec(rng, k=rng.choice([1, 2, 2, 3]), total_max=20)
    names = [n for n, _ in spec]
    bits = dict(spec)
    ident = [n for n in names if rng.random() < 0.5]
    offs, o = {}, 0
    for n, b in spec:
        offs[n] = o
        o += b
    n_tot = o
    rest_bits = [offs[n] + j for n in names if n not in ident for j in range(bits[n])]
    rest_cols = gen_cols(rng, len(rest_bits), len(rest_bits), rng.choice(["perm", "full"]))
    # embed the rest part into its bit positions, add noise in identity-dim bits
    ident_bits = [offs[n] + j for n in ident for j in range(bits[n])]
    emb = []
    for c in rest_cols:
        v = 0
        for j, pos in enumerate(rest_bits):
            if (c >> j) & 1:
                v |= 1 << pos
        emb.append(v)
    it = iter(emb)
    in_order = list(names)
    if rng.random() < 0.4:
        rng.shuffle(in_order)
    dims = []
    obits = [b for _, b in spec]
    for n in in_order:
        if n in ident:
            dims.append((n, [unflatten(1 << (offs[n] + j), obits) for j in range(bits[n])]))
    # non-identity dims get the rest columns, bits redistributed among them (sizes may differ from out sizes)
    non = [n for n in in_order if n not in ident]
    split = split_bits(rng, len(rest_bits), len(non)) if non else []
    nondims = {n: [unflatten(next(it), obits) for _ in range(k)] for n, k in zip(non, split)}
    dims = [(n, nondims[n]) if n in nondims else (n, dict(dims)[n]) for n in in_order]
    L = mk(dims, [(n, 1 << b) for n, b in spec])
    validate(L)
    assert is_surj(L) and is_inj(L), L
    return L


def gen_invert(rng, i):
    while True:
        inputs, args = gen_invert1(rng, i)
        if pinv_ok(inputs[0]):
            return inputs, args


def gen_invert1(rng, i):
    r = rng.random()
    if r < 0.3:
        return [partial_identity_invertible(rng)], {}
    if r < 0.35:
        # size-1 dims only / tiny
        spec = [(n, 0) for n in pick_names(rng, OUT_POOL, STD_OUT, rng.choice([1, 2]))]
        names = pick_names(rng, IN_POOL, STD_IN, rng.choice([1, 2]))
        return [mk([(n, []) for n in names], [(n, 1) for n, _ in spec])], {}
    return [invertible_layout(rng)], {}


def gen_pseudoinvert(rng, i):
    while True:
        inputs, args = gen_pseudoinvert1(rng, i)
        if pinv_ok(inputs[0]):
            return inputs, args


def gen_pseudoinvert1(rng, i):
    r = rng.random()
    if r < 0.2:
        L = partial_identity_invertible(rng)
        if rng.random() < 0.6:
            # add a broadcast dim (zeros or duplicates)
            extra = rng.choice([n for n in IN_POOL if n not in in_names(L)])
            nb = rng.randrange(1, 4)
            cols = columns(L)
            bases = [unflatten(rng.choice(cols + [0]), out_bits(L)) for _ in range(nb)]
            dims = [(d["name"], d["bases"]) for d in L["inDims"]]
            dims.insert(rng.randrange(len(dims) + 1), (extra, bases))
            if sum(len(b) for _, b in dims) <= MAX_IN_BITS:
                L = mk(dims, [(d["name"], d["size"]) for d in L["outDims"]])
        assert is_surj(L)
        return [L], {}
    if r < 0.45:
        return [invertible_layout(rng)], {}
    return [surjective_layout(rng)], {}


def gen_product(rng, i):
    sc = rng.random()
    if sc < 0.35:
        in_order = list(STD_IN)
        out_order = list(STD_OUT)
        if rng.random() < 0.3:
            rng.shuffle(out_order)
    else:
        in_order = rng.sample(IN_POOL, rng.randint(1, 6))
        out_order = rng.sample(OUT_POOL, rng.randint(1, 4))

    def side(maxin):
        kin = rng.choice([0, 1, 1, 2, 2, 3, 4]) if rng.random() < 0.95 else 0
        kin = min(kin, len(in_order))
        kout = min(rng.choice([0, 1, 1, 2, 2, 3]), len(out_order))
        if kin == 0 and kout == 0 and rng.random() < 0.5:
            kin, kout = 1, 1
            kin = min(kin, len(in_order))
        ins = ordered_subset(rng, in_order, kin)
        outs = ordered_subset(rng, out_order, kout)
        ispec = rand_in_spec(rng, names=ins, total_max=maxin) if ins else []
        ospec = rand_out_spec(rng, names=outs, maxbits=10) if outs else []
        mode = rng.choice(["unit", "perm", "perm", "full", "random", "zero", "lowrank"])
        if not ospec:
            mode = "zero"
        return rand_layout(rng, ispec, ospec, mode)
    A = side(20)
    B = side(20)
    return [A, B], {}


def gen_apply(rng, i):
    L = rand_layout(rng)
    n = COUNTS_D["apply"]
    oor = i >= n - APPLY_OUT_OF_RANGE
    ins = []
    for d in L["inDims"]:
        nb = len(d["bases"])
        if oor:
            v = rng.randrange(0, 1 << min(30, nb + rng.randrange(1, 6)))
            if rng.random() < 0.5:
                v |= 1 << min(30, nb + rng.randrange(0, 4))
        else:
            v = rng.randrange(0, 1 << nb)
        ins.append([d["name"], v])
    if rng.random() < 0.3:
        rng.shuffle(ins)
    return [L], {"ins": ins}


def gen_equals(rng, i):
    A = rand_layout(rng)
    v = rng.choice(["same", "same", "out_size", "out_size", "in_order", "out_order", "one_basis", "one_basis",
                    "in_name", "out_name", "extra_in", "extra_out", "drop_basis", "other", "both_empty"])
    ins = [(d["name"], [list(b) for b in d["bases"]]) for d in A["inDims"]]
    outs = [(d["name"], d["size"]) for d in A["outDims"]]
    B = None
    if v == "same":
        B = mk(ins, outs)
    elif v == "out_size":
        j = rng.randrange(len(outs))
        n, s = outs[j]
        fits_half = s > 1 and all(b[j] < s // 2 for _, bs in ins for b in bs)
        outs2 = list(outs)
        outs2[j] = (n, s // 2 if fits_half and rng.random() < 0.5 else s * 2)
        B = mk(ins, outs2)
    elif v == "in_order" and len(ins) >= 2:
        i1, i2 = rng.sample(range(len(ins)), 2)
        ins2 = list(ins)
        ins2[i1], ins2[i2] = ins2[i2], ins2[i1]
        B = mk(ins2, outs)
    elif v == "out_order" and len(outs) >= 2:
        order = list(out_names(A))
        while order == out_names(A):
            rng.shuffle(order)
        B = transpose_outs(A, order)
    elif v == "one_basis":
        cand = [(a, b, j) for a, (_, bs) in enumerate(ins) for b in range(len(bs)) for j in range(len(outs))
                if outs[j][1] > 1]
        if cand:
            a, b, j = rng.choice(cand)
            ins2 = [(n, [list(x) for x in bs]) for n, bs in ins]
            ins2[a][1][b][j] ^= 1 << rng.randrange(log2(outs[j][1]))
            B = mk(ins2, outs)
    elif v == "in_name":
        a = rng.randrange(len(ins))
        new = rng.choice([n for n in IN_POOL if n not in in_names(A)])
        ins2 = list(ins)
        ins2[a] = (new, ins2[a][1])
        B = mk(ins2, outs)
    elif v == "out_name":
        j = rng.randrange(len(outs))
        new = rng.choice([n for n in OUT_POOL if n not in out_names(A)])
        outs2 = list(outs)
        outs2[j] = (new, outs2[j][1])
        B = mk(ins, outs2)
    elif v == "extra_in":
        new = rng.choice([n for n in IN_POOL if n not in in_names(A)])
        ins2 = list(ins)
        ins2.insert(rng.randrange(len(ins2) + 1), (new, []))
        B = mk(ins2, outs)
    elif v == "extra_out":
        new = rng.choice([n for n in OUT_POOL if n not in out_names(A)])
        j = rng.randrange(len(outs) + 1)
        outs2 = list(outs)
        outs2.insert(j, (new, 1))
        ins2 = [(n, [list(b[:j]) + [0] + list(b[j:]) for b in bs]) for n, bs in ins]
        B = mk(ins2, outs2)
    elif v == "drop_basis":
        cand = [a for a, (_, bs) in enumerate(ins) if bs]
        if cand:
            a = rng.choice(cand)
            ins2 = list(ins)
            ins2[a] = (ins2[a][0], ins2[a][1][:-1])
            B = mk(ins2, outs)
    elif v == "other":
        B = rand_layout(rng)
    elif v == "both_empty":
        A = mk([], [])
        B = mk([], []) if rng.random() < 0.5 else mk([], [("dim0", 1)])
    if B is None:
        B = mk(ins, outs)
    validate(B)
    if rng.random() < 0.5:
        A, B = B, A
    return [A, B], {}


def special_layouts(rng):
    return [
        mk([], []),
        mk([], [("dim0", 4), ("dim1", 8)]),
        mk([], [("dim0", 1)]),
        mk([("register", [])], [("dim0", 1)]),
        mk([("register", []), ("lane", []), ("warp", []), ("block", [])], [("dim0", 1), ("dim1", 1)]),
        mk([("register", [[], []]), ("lane", [[]])], []),
        mk([("register", [])], []),
        mk([("offset", [[1], [2], [4]]), ("block", [])], [("dim0", 8)]),
        mk([("register", [[0, 1], [8, 0]]), ("lane", [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]]), ("warp", [])],
           [("dim0", 16), ("dim1", 16)]),
        mk([("register", [[0, 0], [0, 0]]), ("lane", [[1, 0]])], [("dim0", 2), ("dim1", 1)]),
    ]


def gen_unary_layout(rng, i, specials=True):
    sp = special_layouts(rng)
    if specials and i < len(sp):
        return [sp[i]], {}
    r = rng.random()
    if r < 0.2:
        return [invertible_layout(rng)], {}
    if r < 0.35:
        return [surjective_layout(rng)], {}
    if r < 0.45:
        # injective, not surjective
        ospec = rand_out_spec(rng)
        n = sum(b for _, b in ospec)
        ispec = rand_in_spec(rng, total_max=max(0, n - 1)) if n else rand_in_spec(rng, total_max=0)
        return [rand_layout(rng, ispec, ospec, "full")], {}
    if r < 0.55:
        # size-1 dims sprinkled in
        ispec = rand_in_spec(rng)
        extra = rng.choice([n for n in IN_POOL if n not in [x for x, _ in ispec]])
        ispec.insert(rng.randrange(len(ispec) + 1), (extra, 0))
        return [rand_layout(rng, ispec)], {}
    return [rand_layout(rng)], {}


def gen_toString(rng, i):
    return gen_unary_layout(rng, i)


GENERATORS = {
    "identity1D": gen_identity1D,
    "strided1D": gen_strided1D,
    "zeros1D": gen_zeros1D,
    "compose": gen_compose,
    "invertAndCompose": gen_invertAndCompose,
    "invert": gen_invert,
    "pseudoinvert": gen_pseudoinvert,
    "product": gen_product,
    "apply": gen_apply,
    "equals": gen_equals,
    "toString": gen_toString,
    "isSurjective": gen_unary_layout,
    "isInjective": gen_unary_layout,
    "isInvertible": gen_unary_layout,
    "getInDimNames": gen_unary_layout,
    "getOutDimNames": gen_unary_layout,
}
COUNTS_D = dict(COUNTS)


def generate_cases(seed):
    cases = []
    for op, n in COUNTS:
        rng = random.Random(f"{seed}:{op}")
        for i in range(n):
            inputs, args = GENERATORS[op](rng, i)
            for L in inputs:
                validate(L)
            cases.append((op, inputs, args))
    return cases


# ----------------------------------------------------------------------------------------------------------
# Triton side (child process)
# ----------------------------------------------------------------------------------------------------------

def triton_env():
    from triton._C.libtriton.linear_layout import LinearLayout as LL
    return LL


def to_tt(LL, L):
    bases = [(d["name"], [list(b) for b in d["bases"]]) for d in L["inDims"]]
    return LL.from_bases(bases, [d["name"] for d in L["outDims"]], [d["size"] for d in L["outDims"]], False)


def pairs(x):
    return list(x.items()) if isinstance(x, dict) else [tuple(p) for p in x]


def from_tt(ll):
    res = {"inDims": [{"name": str(n), "bases": [[int(c) for c in b] for b in bs]} for n, bs in pairs(ll.bases)],
           "outDims": [{"name": str(n), "size": int(s)} for n, s in pairs(ll.out_dims)]}
    res["surjective"] = bool(ll.is_surjective())
    return res


def strip(L):
    return {"inDims": L["inDims"], "outDims": L["outDims"]}


def evaluate(LL, op, inputs, args):
    lls = [to_tt(LL, L) for L in inputs]
    for L, ll in zip(inputs, lls):
        back = strip(from_tt(ll))
        if back != strip(L):
            raise RuntimeError(f"round trip mismatch: {L} -> {back}")
    if op == "identity1D":
        return from_tt(LL.identity_1d(args["size"], args["inDim"], args["outDim"]))
    if op == "strided1D":
        return from_tt(LL.strided_1d(args["size"], args["stride"], args["inDim"], args["outDim"]))
    if op == "zeros1D":
        if "outDimSize" in args:
            return from_tt(LL.zeros_1d(args["size"], args["inDim"], args["outDim"], args["outDimSize"]))
        return from_tt(LL.zeros_1d(args["size"], args["inDim"], args["outDim"]))
    if op == "compose":
        return from_tt(lls[0].compose(lls[1]))
    if op == "invertAndCompose":
        return from_tt(lls[0].invert_and_compose(lls[1]))
    if op == "invert":
        return from_tt(lls[0].invert())
    if op == "pseudoinvert":
        return from_tt(lls[0].pseudoinvert())
    if op == "product":
        return from_tt(lls[0] * lls[1])
    if op == "apply":
        res = lls[0].apply({n: v for n, v in args["ins"]})
        got = [[str(n), int(v)] for n, v in pairs(res)]
        names = [d["name"] for d in inputs[0]["outDims"]]
        if [n for n, _ in got] != names:
            raise RuntimeError(f"apply returned out-dims {[n for n, _ in got]}, expected order {names}")
        return got
    if op == "equals":
        return bool(lls[0] == lls[1])
    if op == "toString":
        return str(lls[0])
    if op == "isSurjective":
        return bool(lls[0].is_surjective())
    if op == "isInjective":
        return bool(lls[0].is_injective())
    if op == "isInvertible":
        return bool(lls[0].is_invertible())
    if op == "getInDimNames":
        return [str(n) for n in lls[0].get_in_dim_names()]
    if op == "getOutDimNames":
        return [str(n) for n in lls[0].get_out_dim_names()]
    raise ValueError(op)


# Ops whose C++ preconditions are intricate: evaluated in a forked child, so that an abort loses one case only.
ISOLATED_OPS = {"compose", "invertAndCompose", "invert", "pseudoinvert", "product"}


def eval_guarded(LL, op, inputs, args):
    try:
        return ("R", evaluate(LL, op, inputs, args))
    except Exception as e:  # a Python-level error (binding or round trip), not an abort
        return ("E", f"{type(e).__name__}: {e}".replace("\n", " "))


def eval_forked(LL, op, inputs, args):
    sys.stdout.flush()
    sys.stderr.flush()
    r, w = os.pipe()
    errf = tempfile.TemporaryFile()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(r)
            os.dup2(errf.fileno(), 2)
            data = json.dumps(eval_guarded(LL, op, inputs, args)).encode()
            with os.fdopen(w, "wb") as f:
                f.write(data)
        finally:
            os._exit(0)
    os.close(w)
    with os.fdopen(r, "rb") as f:
        data = f.read()
    _, status = os.waitpid(pid, 0)
    if data:
        errf.close()
        return tuple(json.loads(data))
    errf.seek(0)
    err = errf.read().decode(errors="replace").strip()[-800:]
    errf.close()
    return ("C", f"child died (wait status {status}): {err}".replace("\n", " | "))


def worker(case_file, start):
    LL = triton_env()
    with open(case_file) as f:
        cases = json.load(f)
    out = sys.stdout
    for idx in range(start, len(cases)):
        op, inputs, args = cases[idx]
        out.write(f"S\t{idx}\n")
        out.flush()
        if op in ISOLATED_OPS:
            kind, val = eval_forked(LL, op, inputs, args)
        else:
            kind, val = eval_guarded(LL, op, inputs, args)
        out.write(f"{kind}\t{idx}\t{json.dumps(val) if kind == 'R' else val}\n")
        out.flush()
    out.write("DONE\n")
    out.flush()


def run_all(seed, out_path, log_path):
    cases = generate_cases(seed)
    log = open(log_path, "w") if log_path else sys.stderr
    import triton
    log.write(f"triton {triton.__version__}\nseed {seed}\ncases {len(cases)}\n")
    with tempfile.TemporaryDirectory() as td:
        cf = os.path.join(td, "cases.json")
        with open(cf, "w") as f:
            json.dump(cases, f)
        results = {}
        start = 0
        crashes = 0
        while start < len(cases):
            p = subprocess.run([sys.executable, os.path.abspath(__file__), "--worker", cf, "--start", str(start)],
                               capture_output=True, text=True)
            last_started = None
            done = False
            for line in p.stdout.splitlines():
                parts = line.split("\t", 2)
                if parts[0] == "S":
                    last_started = int(parts[1])
                elif parts[0] == "R":
                    results[int(parts[1])] = ("ok", json.loads(parts[2]))
                elif parts[0] == "E":
                    results[int(parts[1])] = ("error", parts[2])
                elif parts[0] == "C":
                    results[int(parts[1])] = ("crash", parts[2])
                elif parts[0] == "DONE":
                    done = True
            if done:
                break
            crashes += 1
            if last_started is None:
                log.write(f"worker failed to start (rc {p.returncode}):\n{p.stderr[-3000:]}\n")
                raise SystemExit(1)
            results[last_started] = ("crash", f"rc {p.returncode}: {p.stderr.strip()[-600:]}")
            if crashes > 60:
                log.write("too many crashes, giving up\n")
                raise SystemExit(1)
            start = last_started + 1
    counts = {}
    skipped = []
    next_id = 1
    with open(out_path, "w") as f:
        for idx, (op, inputs, args) in enumerate(cases):
            kind, val = results.get(idx, ("missing", None))
            if kind != "ok":
                skipped.append((idx, op, kind, val, inputs, args))
                continue
            rec = {"request": {"id": next_id, "op": op, "inputs": inputs, "args": args},
                   "expected": {"result": val}}
            f.write(json.dumps(rec, separators=(",", ":")) + "\n")
            counts[op] = counts.get(op, 0) + 1
            next_id += 1
    log.write(f"written {next_id - 1}\n")
    for op, _ in COUNTS:
        log.write(f"  {op}: {counts.get(op, 0)}\n")
    log.write(f"skipped {len(skipped)}\n")
    for idx, op, kind, val, inputs, args in skipped:
        log.write(json.dumps({"case": idx, "op": op, "kind": kind, "message": val, "inputs": inputs,
                              "args": args}) + "\n")
    log.flush()


# ----------------------------------------------------------------------------------------------------------
# Probe: what the binding returns (risky calls run in a subprocess)
# ----------------------------------------------------------------------------------------------------------

PROBE_L0 = ("L=LL.from_bases([('register',[[0,1],[8,0]]),('lane',[[0,2],[1,0]]),('warp',[])],"
            "['dim0','dim1'],[16,4],False)\n")
PROBE_SNIPPETS = [
    ("bases/out_dims/apply types",
     PROBE_L0 + "print(repr(L.bases)); print(repr(L.out_dims))\n"
     "print(repr(L.apply({'register':3,'lane':1,'warp':0})))"),
    ("names", PROBE_L0 + "print(repr(L.get_in_dim_names()), repr(L.get_out_dim_names()))"),
    ("num dims", PROBE_L0 + "print(L.num_in_dims, L.num_out_dims)"),
    ("str/repr", PROBE_L0 + "print(repr(str(L))); print(repr(L.__repr__()))"),
    ("predicates", PROBE_L0 + "print(L.is_surjective(), L.is_injective(), L.is_invertible())"),
    ("matrix view", PROBE_L0 + "print(repr(L.get_matrix_view()))"),
    ("apply out-of-range values",
     "L=LL.identity_1d(8,'x','y'); print(L.apply({'x':9}), L.apply({'x':8}), L.apply({'x':1<<20}))"),
    ("apply negative value", "L=LL.identity_1d(8,'x','y'); print(L.apply({'x':-1}))"),
    ("apply missing dim", "L=LL.identity_1d(8,'x','y')*LL.identity_1d(2,'z','y'); print(L.apply({'x':1}))"),
    ("apply extra dim", "L=LL.identity_1d(8,'x','y'); print(L.apply({'x':1,'q':0}))"),
    ("str(empty)", "print(repr(str(LL.from_bases([],[],None,False))))"),
    ("LL() default", "print(repr(str(LL())))"),
    ("str(no in-dims, out-dims)", "print(repr(str(LL.from_bases([],['dim0','dim1'],[4,8],False))))"),
    ("str(size-1 dims)",
     "print(repr(str(LL.from_bases([('register',[]),('lane',[[1]])],['dim0'],[2],False))))"),
    ("str(in-dims, no out-dims)", "print(repr(str(LL.from_bases([('register',[[],[]])],[],[],False))))"),
    ("identity_1d(0)", "print(repr(str(LL.identity_1d(0,'x','y'))))"),
    ("strided non-pow2 stride", "print(repr(str(LL.strided_1d(4,3,'x','y'))))"),
    ("from_bases inferred sizes", "L=LL.from_bases([('x',[[16],[1]])],['y']); print(L.out_dims)"),
    ("from_bases non-surjective, require True", "L=LL.from_bases([('x',[[2]])],['y'],[4],True); print(L)"),
    ("product inconsistent order",
     "A=LL.identity_1d(2,'a','o')*LL.identity_1d(2,'b','o'); B=LL.identity_1d(2,'b','o')*LL.identity_1d(2,'a','o')\n"
     "print(A.get_in_dim_names(), B.get_in_dim_names()); print(A*B)"),
    ("product order [c,a] x [b,c]",
     "A=LL.identity_1d(2,'c','o')*LL.identity_1d(2,'a','o'); B=LL.identity_1d(2,'b','o')*LL.identity_1d(2,'c','o')\n"
     "print((A*B).get_in_dim_names())"),
    ("invertAndCompose not in image",
     "A=LL.identity_1d(4,'x','y'); B=LL.zeros_1d(4,'z','y',4); print(A.invert_and_compose(B))"),
    ("invertAndCompose A==B",
     "A=LL.identity_1d(4,'x','y')*LL.identity_1d(4,'w','y'); print(A.invert_and_compose(A))"),
    ("invertAndCompose identity dims ignoring out sizes",
     "A=LL.from_bases([('r',[[1],[2]]),('l',[[0]])],['y'],[4],False)\n"
     "B=LL.from_bases([('r',[[1],[2]]),('l',[[4]])],['y'],[8],False)\n"
     "print(A.invert_and_compose(B))"),
    ("compose size mismatch",
     "A=LL.identity_1d(8,'x','y'); B=LL.identity_1d(4,'y','z'); print(A.compose(B))"),
    ("invert of an invertible layout whose identity-dim heuristic breaks lstsq",
     "print(LL.from_bases([('dim0',[[1,0]]),('dim1',[[1,1]])],['dim0','dim1'],[2,2],False).invert())"),
    ("invertAndCompose, all dims identity, extra B dim",
     "A=LL.identity_1d(4,'x','y'); B=LL.identity_1d(4,'x','y')*LL.zeros_1d(2,'w','y'); print(A.invert_and_compose(B))"),
    ("invert non-invertible", "print(LL.zeros_1d(4,'x','y').invert())"),
    ("pseudoinvert non-surjective", "print(LL.zeros_1d(4,'x','y',4).pseudoinvert())"),
    ("equality with different out size",
     "print(LL.from_bases([('x',[[1]])],['y'],[2],False)==LL.from_bases([('x',[[1]])],['y'],[4],False))"),
    ("help", "help(LL)"),
]


def probe():
    import triton
    print("triton", triton.__version__, triton.__file__)
    for title, code in PROBE_SNIPPETS:
        prog = "from triton._C.libtriton.linear_layout import LinearLayout as LL\n" + code
        p = subprocess.run([sys.executable, "-c", prog], capture_output=True, text=True, timeout=60)
        print(f"===== {title} (rc {p.returncode})")
        print(p.stdout[:8000])
        if p.stderr.strip():
            print("stderr:", p.stderr.strip()[-1500:])


def dry_run(seed):
    cases = generate_cases(seed)
    counts = {}
    size = 0
    for op, inputs, args in cases:
        counts[op] = counts.get(op, 0) + 1
        size += len(json.dumps({"request": {"id": 1, "op": op, "inputs": inputs, "args": args}},
                               separators=(",", ":")))
    for op, _ in COUNTS:
        print(f"{op}: {counts[op]}")
    print("total", len(cases), "request bytes", size)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED)
    ap.add_argument("--out", default="triton_algebra_vectors.jsonl")
    ap.add_argument("--log", default=None)
    ap.add_argument("--dry-run", action="store_true")
    ap.add_argument("--probe", action="store_true")
    ap.add_argument("--worker", default=None, help=argparse.SUPPRESS)
    ap.add_argument("--start", type=int, default=0, help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.worker:
        worker(a.worker, a.start)
    elif a.dry_run:
        dry_run(a.seed)
    elif a.probe:
        probe()
    else:
        run_all(a.seed, a.out, a.log)


if __name__ == "__main__":
    main()
