#!/usr/bin/env python3
"""Generate TritonGPU encoding -> LinearLayout test vectors with real Triton (independent oracle).

Every output line is one JSON object

    {"id": N, "encoding": "<attribute text as Triton prints it>", "shape": [..],
     "layout": <layout JSON of Triton's toLinearLayout(shape, encoding)>,
     "tensorView": "<text>" | null, "hwView": "<text>" | null}

- `encoding` is the attribute as MLIR prints it inside a type (no aliases), e.g.
  `#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>`.
  Every record's text was parsed back by Triton inside a module (so the attribute and tensor-layout verifiers
  ran) and printed again identically; distributed ones were also converted again, to the same layout.
- `layout` follows docs/interchange.md section 1 (in-dims `register, lane, warp, block` for distributed
  encodings, `offset, block` for shared ones; out-dims `dim0..`, sizes = shape), with `"surjective"` from Triton.
- `tensorView` / `hwView` are what `triton-tensor-layout -t tensor<SHAPE x ..> -l ENC [-use-hw-view]` prints after
  its `Print layout attribute: ...` line (`getLayoutStr`), computed with the binding
  `LinearLayout.get_distributed_view(useHWView)` / `get_shared_view(useHWView)` on the converted layout.
  They are null when the shape has more than 4096 elements or the layout more than 4096 hardware slots
  (2^(total in-dim bits)), to keep the file small.
- padded_shared records carry `"layoutKind": "paddedLinearComponent"`: Triton 3.6's toLinearLayout aborts on
  padded_shared ("unknown layout"), so `layout` is the linear component that Triton parsed from the text, and both
  views are null.

How each layout is obtained:
- distributed encodings: Gluon layout class -> `_to_ir(builder)` -> `GluonOpBuilder.to_linear_layout(attr, shape)`
  (the C++ `toLinearLayout`, returned as a Gluon DistributedLinearLayout).
- shared encodings: `GluonOpBuilder.to_linear_layout` aborts for them in 3.6 (it wraps the result in a
  LinearEncodingAttr, whose verifier wants a `register` in-dim). Instead, a `ttg.memdesc_reshape` of the memdesc
  is built; Triton infers its result encoding as `#ttg.shared_linear` holding the row-major reshape of
  toLinearLayout(shape, enc); the bases are read back and the row-major reshape is undone (an exact relabelling of
  index bits). `#ttg.shared_linear` inputs come back unchanged through this path (checked for every record).
- amd_rotating_shared has no Gluon class in 3.6: its attribute is written as text, parsed, and must print back
  identically.
- The text is `str(type)` of a tensor / shared memdesc type carrying the encoding.

The cases are drawn from seeded `random.Random` generators (no Triton needed, see --dry-run), so the output is
reproducible byte for byte for a given seed and Triton version (--jobs does not change it). Each case is
evaluated in a forked child (a failed C++ assertion aborts only that case); cases Triton rejects are logged
(--log) and left out.

Usage:
    python3 gen_encoding_vectors.py --out triton_encoding_vectors.jsonl [--log gen_log.txt] [--seed N] [--jobs N]
    python3 gen_encoding_vectors.py --dry-run        # draw the cases and print counts, no Triton
    python3 gen_encoding_vectors.py --smoke          # run the first case of each family, print tracebacks
    python3 gen_encoding_vectors.py --probe DIR      # dump the binding API and the Triton Python sources into DIR
"""

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile

DEFAULT_SEED = 20260602
VIEW_MAX_ELEMS = 4096
VIEW_MAX_SLOTS = 4096


# ----------------------------------------------------------------------------------------------------------
# Case drawing (pure Python)
# ----------------------------------------------------------------------------------------------------------

def P2(k):
    return 1 << k


def L(cls, **args):
    return {"cls": cls, "args": args}


def split_pow2(rng, total_log2, n):
    """Random split of 2^total into n powers of two (list of ints)."""
    parts = [0] * n
    for _ in range(total_log2):
        parts[rng.randrange(n)] += 1
    return [P2(p) for p in parts]


def rand_perm(rng, n):
    p = list(range(n))
    rng.shuffle(p)
    return p


def rel_shape(rng, tile, lo=-3, hi=2, max_elems=4096):
    """A shape around `tile`: each dim tile_d * 2^k, k in [lo, hi]; total elements capped."""
    for _ in range(100):
        s = []
        for t in tile:
            k = rng.randint(lo, hi)
            v = t << k if k >= 0 else max(1, t >> -k)
            s.append(max(1, v))
        n = 1
        for v in s:
            n *= v
        if n <= max_elems:
            return s
    return [max(1, t >> 2) for t in tile]


def numel(shape):
    n = 1
    for v in shape:
        n *= v
    return n


def cga_split(ctas, split, order):
    return {"split": [ctas, split, order]}


def gen_blocked(rng, n_cases):
    cases = []
    for i in range(n_cases):
        r = rng.random()
        rank = 1 if i % 7 == 0 else (3 if i % 5 == 0 else 2)
        lanes_log2 = 5
        if r < 0.08:
            lanes_log2 = 6
        elif r < 0.12:
            lanes_log2 = 4
        warps_log2 = rng.choice([0, 1, 2, 2, 2, 3])
        spt = [P2(rng.choice([0, 0, 1, 2, 3])) for _ in range(rank)]
        if numel(spt) > 16:
            spt = [min(v, 2) for v in spt]
        tpw = split_pow2(rng, lanes_log2, rank)
        wpc = split_pow2(rng, warps_log2, rank)
        order = rand_perm(rng, rank) if rng.random() < 0.5 else list(range(rank - 1, -1, -1))
        args = dict(size_per_thread=spt, threads_per_warp=tpw, warps_per_cta=wpc, order=order)
        ctas = [1] * rank
        if i % 4 == 3:
            # multi-CTA
            nctas_log2 = rng.choice([1, 1, 2, 2, 3])
            ctas = split_pow2(rng, nctas_log2, rank)
            if rng.random() < 0.3:
                # explicit CGA bases (possibly broadcast)
                bases = []
                for d in rand_perm(rng, rank):
                    for k in range(ctas[d].bit_length() - 1):
                        bases.append([P2(k) if e == d else 0 for e in range(rank)])
                if rng.random() < 0.5 and bases:
                    bases[rng.randrange(len(bases))] = [0] * rank
                args["cga_layout"] = bases
            else:
                split = [c if rng.random() < 0.7 else max(1, c // 2) for c in ctas]
                args["cga_layout"] = cga_split(ctas, split, rand_perm(rng, rank))
        tile = [spt[d] * tpw[d] * wpc[d] * ctas[d] for d in range(rank)]
        mode = i % 3  # smaller / equal / larger-ish
        if mode == 1:
            shape = list(tile) if numel(tile) <= 16384 else rel_shape(rng, tile, -2, 0)
        elif mode == 0:
            shape = rel_shape(rng, tile, -3, 0)
        else:
            shape = rel_shape(rng, tile, 0, 2)
        cases.append(("blocked", L("BlockedLayout", **args), shape))
    return cases


def mma_v2(warps, instr=None, cga=None):
    rank = len(warps)
    a = dict(version=[2, 0], warps_per_cta=warps, instr_shape=instr or ([16, 8] if rank == 2 else [1, 16, 8]))
    if cga:
        a["cga_layout"] = cga
    return L("NVMMADistributedLayout", **a)


def mma_v3(warps, n, k=16, cga=None):
    a = dict(version=[3, 0], warps_per_cta=warps, instr_shape=[16, n, k])
    if cga:
        a["cga_layout"] = cga
    return L("NVMMADistributedLayout", **a)


def mfma(version, instr, transposed, warps, bw=None, tpw=None, cga=None):
    a = dict(version=version, instr_shape=instr, transposed=transposed, warps_per_cta=warps)
    if bw is not None:
        a["element_bitwidth"] = bw
    if tpw is not None:
        a["tiles_per_warp"] = tpw
    if cga:
        a["cga_layout"] = cga
    return L("AMDMFMALayout", **a)


def wmma(version, transposed, warps, instr=None, tpw=None, cga=None):
    a = dict(version=version, transposed=transposed, warps_per_cta=warps)
    if instr is not None:
        a["instr_shape"] = instr
    if tpw is not None:
        a["tiles_per_warp"] = tpw
    if cga:
        a["cga_layout"] = cga
    return L("AMDWMMALayout", **a)


WARPS2 = [[1, 1], [2, 2], [4, 1], [1, 4], [2, 4], [4, 2], [8, 1], [1, 2]]


def gen_nvidia_mma(rng):
    cases = []
    for i in range(20):
        w = WARPS2[i % len(WARPS2)]
        tile = [16 * w[0], 8 * w[1]]
        shape = rel_shape(rng, tile, -2, 2)
        cases.append(("nvidia_mma", mma_v2(w), shape))
    for w, shape in [([2, 2, 1], [2, 32, 16]), ([1, 4, 1], [4, 64, 16]), ([2, 1, 2], [2, 16, 32]),
                     ([1, 2, 2], [1, 32, 16])]:
        cases.append(("nvidia_mma", mma_v2(w), shape))
    for i in range(22):
        w = [[4, 1], [4, 2], [8, 1], [4, 4], [16, 1]][i % 5]
        n = [8, 16, 32, 64, 128, 256, 24, 48][i % 8]
        if n & (n - 1):
            n = 32
        k = [16, 16, 32, 8][i % 4]
        tile = [16 * w[0], n * w[1]]
        shape = rel_shape(rng, tile, -1, 1, max_elems=8192)
        cases.append(("nvidia_mma", mma_v3(w, n, k), shape))
    # multi-CTA
    cases.append(("nvidia_mma", mma_v2([2, 2], cga=cga_split([2, 1], [2, 1], [1, 0])), [64, 32]))
    cases.append(("nvidia_mma", mma_v2([4, 1], cga=cga_split([2, 2], [2, 2], [0, 1])), [128, 32]))
    cases.append(("nvidia_mma", mma_v3([4, 1], 64, cga=cga_split([2, 1], [2, 1], [1, 0])), [128, 64]))
    cases.append(("nvidia_mma", mma_v3([4, 2], 32, cga=cga_split([1, 2], [1, 1], [1, 0])), [64, 64]))
    return cases


MFMA_INSTRS = [[32, 32, 8], [16, 16, 16], [32, 32, 16], [16, 16, 32], [16, 16, 4], [32, 32, 4], [64, 4, 4],
               [4, 64, 4], [16, 16, 8], [32, 32, 64], [16, 16, 128]]


def gen_amd_mfma(rng):
    cases = []
    for i in range(48):
        version = [3, 4, 2, 1][i % 4]
        instr = MFMA_INSTRS[i % len(MFMA_INSTRS)]
        transposed = bool((i // 3) % 2)
        w = [[1, 1], [2, 2], [4, 1], [1, 4], [2, 1], [1, 2], [2, 4], [8, 1]][i % 8]
        bw = None
        if i % 11 == 4 and version >= 3:
            bw = 64
        elif i % 9 == 2:
            bw = 32
        tpw = None
        if i % 5 == 1:
            tpw = [[2, 1], [1, 2], [2, 2], [4, 1]][(i // 5) % 4]
        tile = [instr[0] * w[0] * (tpw[0] if tpw else 1), instr[1] * w[1] * (tpw[1] if tpw else 1)]
        shape = rel_shape(rng, tile, -1, 1, max_elems=8192)
        cases.append(("amd_mfma", mfma(version, instr, transposed, w, bw, tpw), shape))
    # 64-bit element, explicitly
    cases.append(("amd_mfma", mfma(3, [16, 16, 4], False, [2, 2], bw=64), [32, 32]))
    cases.append(("amd_mfma", mfma(4, [16, 16, 4], True, [1, 4], bw=64), [16, 64]))
    # rank 3
    cases.append(("amd_mfma", mfma(3, [32, 32, 8], False, [2, 1, 2]), [2, 32, 64]))
    cases.append(("amd_mfma", mfma(4, [16, 16, 16], True, [1, 2, 2]), [4, 32, 32]))
    # multi-CTA
    cases.append(("amd_mfma", mfma(3, [32, 32, 8], False, [2, 2], cga=cga_split([2, 1], [2, 1], [1, 0])), [128, 64]))
    cases.append(("amd_mfma", mfma(4, [16, 16, 32], True, [2, 2], cga=[[0, 1]]), [32, 64]))
    return cases


def gen_amd_wmma(rng):
    cases = []
    # v3 needs an explicit instrShape: the default [16, 16, 16] and [32, 16, 32] fail its verifier in 3.6.
    instr_v3 = [[16, 16, 32], [16, 16, 64], [16, 16, 128], [16, 16, 4], [16, 16, 32], [16, 16, 8]]
    for i in range(40):
        version = [1, 2, 3][i % 3]
        transposed = bool((i // 3) % 2)
        w = [[1, 1], [2, 2], [4, 1], [1, 4], [2, 1], [1, 2], [2, 4], [4, 2]][i % 8]
        instr = None
        if version == 3:
            instr = instr_v3[(i // 3) % len(instr_v3)]
        elif i % 7 == 5:
            instr = [16, 16, 16]
        tpw = None
        if i % 4 == 2:
            tpw = [[2, 1], [1, 2], [2, 2]][(i // 4) % 3]
        im, inn = (instr or [16, 16, 16])[:2]
        tile = [im * w[0] * (tpw[0] if tpw else 1), inn * w[1] * (tpw[1] if tpw else 1)]
        shape = rel_shape(rng, tile, -1, 1)
        cases.append(("amd_wmma", wmma(version, transposed, w, instr, tpw), shape))
    cases.append(("amd_wmma", wmma(2, False, [2, 1, 2]), [2, 32, 32]))
    cases.append(("amd_wmma", wmma(1, True, [1, 2, 2]), [2, 16, 64]))
    cases.append(("amd_wmma", wmma(2, False, [2, 2], cga=cga_split([2, 1], [2, 1], [1, 0])), [64, 32]))
    return cases


def gen_slice(rng):
    cases = []
    for i in range(24):
        rank = 3 if i % 4 == 3 else 2
        spt = [P2(rng.choice([0, 1, 2])) for _ in range(rank)]
        tpw = split_pow2(rng, 5, rank)
        wpc = split_pow2(rng, rng.choice([0, 1, 2, 3]), rank)
        order = rand_perm(rng, rank)
        args = dict(size_per_thread=spt, threads_per_warp=tpw, warps_per_cta=wpc, order=order)
        if i % 6 == 5:
            args["cga_layout"] = cga_split([2] + [1] * (rank - 1), [2] + [1] * (rank - 1), list(range(rank)))
        dim = i % rank
        tile = [spt[d] * tpw[d] * wpc[d] for d in range(rank) if d != dim]
        shape = rel_shape(rng, tile, -2, 2, max_elems=4096)
        cases.append(("slice", L("SliceLayout", dim=dim, parent=L("BlockedLayout", **args)), shape))
    mma_parents = [
        (mma_v2([2, 2]), [32, 16]), (mma_v2([4, 1]), [64, 8]), (mma_v2([1, 4]), [16, 32]),
        (mma_v3([4, 1], 64), [64, 64]), (mma_v3([4, 2], 32), [64, 64]), (mma_v3([8, 1], 16), [128, 16]),
        (mfma(3, [32, 32, 8], False, [2, 2]), [64, 64]), (mfma(4, [16, 16, 32], True, [1, 4]), [16, 64]),
        (mfma(3, [16, 16, 16], False, [2, 1], tpw=[2, 2]), [64, 32]),
        (wmma(1, False, [2, 2]), [32, 32]), (wmma(2, True, [1, 2]), [16, 32]), (wmma(3, False, [2, 2], [16, 16, 32]), [32, 32]),
        (L("DistributedLinearLayout", reg_bases=[[0, 1], [4, 0]], lane_bases=[[0, 2], [0, 4], [1, 0], [2, 0], [0, 8]],
           warp_bases=[[8, 0], [0, 0]], block_bases=[], shape=[16, 16]), [16, 16]),
    ]
    for p, pshape in mma_parents:
        for dim in (0, 1):
            other = pshape[1 - dim]
            k = rng.choice([-1, 0, 0, 1])
            n = max(1, other << k if k >= 0 else other >> 1)
            cases.append(("slice", L("SliceLayout", dim=dim, parent=p), [n]))
    # slice of a slice, slice of a dot operand
    cases.append(("slice", L("SliceLayout", dim=0, parent=L("SliceLayout", dim=1, parent=L(
        "BlockedLayout", size_per_thread=[1, 1, 2], threads_per_warp=[2, 4, 4], warps_per_cta=[2, 1, 2],
        order=[2, 1, 0]))), [16]))
    cases.append(("slice", L("SliceLayout", dim=0, parent=L("DotOperandLayout", operand_index=0,
                                                            parent=mma_v2([2, 2]), k_width=2)), [32]))
    cases.append(("slice", L("SliceLayout", dim=1, parent=L("DotOperandLayout", operand_index=1,
                                                            parent=mma_v2([2, 2]), k_width=2)), [32]))
    return cases


def gen_dot_op(rng):
    cases = []

    def dot(op, parent, kw):
        return L("DotOperandLayout", operand_index=op, parent=parent, k_width=kw)

    # mma v2 parents
    for i in range(28):
        w = WARPS2[i % len(WARPS2)]
        op = i % 2
        kw = [1, 2, 4, 8][(i // 2) % 4]
        ktile = 4 * kw * 2  # elements along K of one instruction (kWidth * 8)
        if op == 0:
            tile = [16 * w[0], ktile]
        else:
            tile = [ktile, 8 * w[1]]
        shape = rel_shape(rng, tile, -1, 2, max_elems=8192)
        cases.append(("dot_op", dot(op, mma_v2(w), kw), shape))
    cases.append(("dot_op", dot(0, mma_v2([2, 2, 1]), 2), [2, 32, 32]))
    cases.append(("dot_op", dot(1, mma_v2([2, 1, 2]), 2), [2, 32, 32]))
    cases.append(("dot_op", dot(0, mma_v2([2, 2], cga=cga_split([2, 2], [2, 1], [1, 0])), 2), [64, 32]))
    cases.append(("dot_op", dot(1, mma_v2([2, 2], cga=cga_split([2, 2], [1, 2], [1, 0])), 2), [32, 64]))
    # mma v3 parents (opIdx 0 is the register operand of wgmma; opIdx 1 tried too)
    for i in range(16):
        w = [[4, 1], [4, 2], [8, 1], [4, 4]][i % 4]
        n = [16, 32, 64, 128, 256, 8][i % 6]
        kw = [1, 2, 4, 8][(i // 3) % 4]
        op = 1 if i % 8 == 7 else 0
        tile = [16 * w[0], 8 * kw] if op == 0 else [8 * kw, n * w[1]]
        shape = rel_shape(rng, tile, 0, 2, max_elems=8192)
        cases.append(("dot_op", dot(op, mma_v3(w, n, 16), kw), shape))
    # blocked parents (FMA)
    for i in range(10):
        rank = 3 if i % 5 == 4 else 2
        spt = [P2(rng.choice([0, 1, 2])) for _ in range(rank)]
        tpw = split_pow2(rng, 5, rank)
        wpc = split_pow2(rng, rng.choice([0, 1, 2]), rank)
        order = rand_perm(rng, rank)
        p = L("BlockedLayout", size_per_thread=spt, threads_per_warp=tpw, warps_per_cta=wpc, order=order)
        tile = [spt[d] * tpw[d] * wpc[d] for d in range(rank)]
        shape = rel_shape(rng, tile, -1, 1, max_elems=4096)
        cases.append(("dot_op", dot(i % 2, p, 0), shape))
    # amd_mfma parents
    mf = [[32, 32, 8], [16, 16, 16], [32, 32, 16], [16, 16, 32], [16, 16, 4], [64, 4, 4], [4, 64, 4],
          [16, 16, 128], [32, 32, 64]]
    for i in range(30):
        instr = mf[i % len(mf)]
        version = [3, 4, 2][i % 3]
        op = (i // 2) % 2
        kw = [4, 8, 16, 1, 2][i % 5]
        transposed = bool(i % 2)
        w = [[2, 2], [4, 1], [1, 4], [1, 1], [2, 1]][i % 5]
        tpw = [2, 1] if i % 7 == 3 else None
        bw = 64 if instr == [16, 16, 4] and i % 2 == 0 and version >= 3 else None
        nonk = instr[0] if op == 0 else instr[1]
        k = max(instr[2], kw * (64 // nonk))
        tile = [nonk * w[0], k] if op == 0 else [k, nonk * w[1]]
        shape = rel_shape(rng, tile, 0, 1, max_elems=8192)
        cases.append(("dot_op", dot(op, mfma(version, instr, transposed, w, bw, tpw), kw), shape))
    # amd_wmma parents
    for i in range(24):
        version = [1, 2, 3][i % 3]
        op = (i // 3) % 2
        # verifier: kWidth 8/16 for v1, 4/8/16 for v2, 2/8/16 for v3
        kw = {1: [16, 8], 2: [16, 8, 4], 3: [8, 16, 2]}[version][(i // 2) % (2 if version == 1 else 3)]
        transposed = bool((i // 6) % 2)
        w = [[2, 2], [4, 1], [1, 4], [1, 1]][i % 4]
        instr = ([16, 16, 32] if i % 2 else [16, 16, 64]) if version == 3 else None
        k = 16 if version != 3 else 32
        tile = [16 * w[0], k] if op == 0 else [k, 16 * w[1]]
        shape = rel_shape(rng, tile, 0, 2, max_elems=8192)
        cases.append(("dot_op", dot(op, wmma(version, transposed, w, instr), kw), shape))
    return cases


def unit_bits(shape):
    out = []
    for d, s in enumerate(shape):
        for k in range(s.bit_length() - 1):
            out.append([P2(k) if e == d else 0 for e in range(len(shape))])
    return out


def gen_linear(rng):
    cases = []
    for i in range(36):
        rank = [1, 2, 2, 2, 3][i % 5]
        lanes, warps = 5, rng.choice([0, 1, 2, 3])
        blocks = 1 if i % 6 == 5 else 0
        regs = rng.choice([0, 1, 2, 3])
        total = lanes + warps + blocks + regs
        nzero = rng.choice([0, 0, 1, 2])
        bits = total - nzero
        shape = split_pow2(rng, max(bits, 0), rank)
        ub = unit_bits(shape)
        rng.shuffle(ub)
        # keep the register bases low first sometimes (a common, blocked-like shape)
        if rng.random() < 0.4:
            ub.sort(key=lambda b: sum(b))
        z = [[0] * rank for _ in range(nzero)]
        slots = ["reg"] * regs + ["lane"] * lanes + ["warp"] * warps + ["block"] * blocks
        # zero bases go to lanes / warps / blocks (broadcast) or registers
        zero_pos = rng.sample(range(len(slots)), nzero)
        it = iter(ub)
        zt = iter(z)
        groups = {"reg": [], "lane": [], "warp": [], "block": []}
        for idx, s in enumerate(slots):
            groups[s].append(next(zt) if idx in zero_pos else next(it))
        lay = L("DistributedLinearLayout", reg_bases=groups["reg"], lane_bases=groups["lane"],
                warp_bases=groups["warp"], block_bases=groups["block"], shape=shape)
        mode = i % 3
        if mode == 0:
            q = list(shape)
        elif mode == 1:
            q = [max(1, s >> rng.choice([0, 1, 2])) for s in shape]
        else:
            q = [s << rng.choice([0, 1, 2]) for s in shape]
            if numel(q) > 16384:
                q = list(shape)
        cases.append(("linear", lay, q))
    return cases


def gen_swizzled(rng):
    cases = []
    for i in range(56):
        rank = [2, 2, 2, 1, 3][i % 5]
        vec = P2(rng.choice([0, 1, 2, 3]))
        per_phase = P2(rng.choice([0, 0, 1, 2]))
        max_phase = P2(rng.choice([0, 1, 2, 3]))
        order = rand_perm(rng, rank) if rng.random() < 0.5 else list(range(rank - 1, -1, -1))
        args = dict(vec=vec, per_phase=per_phase, max_phase=max_phase, order=order)
        ctas = [1] * rank
        if i % 8 == 7:
            ctas = split_pow2(rng, rng.choice([1, 2]), rank)
            split = [c if rng.random() < 0.7 else max(1, c // 2) for c in ctas]
            args["cga_layout"] = cga_split(ctas, split, rand_perm(rng, rank))
        shape = [P2(rng.choice([0, 1, 2, 3, 4, 5, 6])) for _ in range(rank)]
        shape = [s * c for s, c in zip(shape, ctas)]
        while numel(shape) > 8192:
            shape = [max(1, s // 2) for s in shape]
        cases.append(("swizzled_shared", L("SwizzledSharedLayout", **args), shape))
    return cases


def gen_nvmma_shared(rng):
    cases = []
    for i in range(56):
        swz = [0, 32, 64, 128][i % 4]
        bw = [16, 8, 32, 64][(i // 4) % 4]
        transposed = bool((i // 2) % 2)
        fp4 = bw == 8 and i % 3 == 0
        rank = 3 if i % 9 == 8 else 2
        contig = max(1, 8 * max(swz, 16) // bw) if not fp4 else max(1, 8 * max(swz, 16) // 4)
        k = rng.choice([0, 0, 1, 2])
        inner = contig << k if not (i % 13 == 12) else max(1, contig >> 1)
        outer = P2(rng.choice([3, 3, 4, 5, 6]))
        if i % 17 == 16:
            outer = 4
        shape = [outer, inner] if not transposed else [inner, outer]
        if rank == 3:
            shape = [2] + shape
        while numel(shape) > 16384:
            shape = [max(1, s // 2) if j != shape.index(max(shape)) else s // 2 for j, s in enumerate(shape)]
        args = dict(swizzle_byte_width=swz, element_bitwidth=bw, rank=rank, transposed=transposed, fp4_padded=fp4)
        if i % 10 == 9 and rank == 2:
            args["cga_layout"] = cga_split([2, 1], [2, 1], [1, 0]) if i % 20 == 9 else cga_split([1, 2], [1, 2],
                                                                                                   [1, 0])
            shape = [shape[0] * 2, shape[1] * 2]
        cases.append(("nvmma_shared", L("NVMMASharedLayout", **args), shape))
    return cases


def gen_padded(rng):
    cases = []
    pair_sets = [[[32, 4]], [[64, 8]], [[2, 2]], [[2, 1], [4, 2]], [[128, 4], [256, 8]], [[16, 1]], [[8, 1]],
                 [[512, 16]], [[32, 8], [1024, 16]]]
    for i in range(24):
        rank = [2, 2, 1, 3][i % 4]
        shape = [P2(rng.choice([1, 2, 3, 4, 5, 6])) for _ in range(rank)]
        while numel(shape) > 8192:
            shape = [max(1, s // 2) for s in shape]
        pairs = pair_sets[i % len(pair_sets)]
        ub = unit_bits(shape)
        mode = i % 3
        order = rand_perm(rng, rank)
        if mode == 0:
            # identity along `order` (PaddedSharedLayout.with_identity_for)
            offs = []
            for d in order:
                offs += [b for b in ub if b[d] != 0]
        else:
            offs = list(ub)
            rng.shuffle(offs)
        block = []
        if i % 6 == 5 and rank >= 1:
            # move the highest offset basis of dim0 into the block dim
            cand = [b for b in offs if b[0] != 0]
            if cand:
                hb = max(cand, key=lambda b: b[0])
                offs.remove(hb)
                block = [hb]
        cases.append(("padded_shared", L("PaddedSharedLayout", interval_padding_pairs=pairs, offset_bases=offs,
                                         block_bases=block, shape=shape), shape))
    return cases


def gen_rotating(rng):
    """amd_rotating_shared has no Gluon class in 3.6: the attribute is written as text."""
    cases = []
    for i in range(28):
        rank = [2, 2, 2, 1, 3, 2, 2][i % 7]
        vec = P2(rng.choice([0, 1, 2, 3]))
        per_phase = P2(rng.choice([0, 0, 1, 2]))
        max_phase = P2(rng.choice([0, 1, 2, 3]))
        order = rand_perm(rng, rank) if rng.random() < 0.5 else list(range(rank - 1, -1, -1))
        shape = [P2(rng.choice([1, 2, 3, 4, 5, 6])) for _ in range(rank)]
        while numel(shape) > 4096:
            shape = [max(1, v // 2) for v in shape]
        enc = "#ttg.amd_rotating_shared<{vec = %d, perPhase = %d, maxPhase = %d, order = [%s]" % (
            vec, per_phase, max_phase, ", ".join(map(str, order)))
        nctas = 1
        if i % 9 == 8 and rank >= 2:
            d = rng.randrange(rank)
            cga = [[1 if e == d else 0 for e in range(rank)]]
            enc += ", CGALayout = [%s]" % ", ".join("[" + ", ".join(map(str, b)) + "]" for b in cga)
            shape[d] *= 2
            nctas = 2
        enc += "}>"
        cases.append(("amd_rotating_shared", L("TEXT", encoding=enc, nctas=nctas), shape))
    return cases


def gen_shared_linear(rng):
    cases = []
    for i in range(12):
        rank = [2, 2, 1, 3][i % 4]
        shape = [P2(rng.choice([1, 2, 3, 4, 5])) for _ in range(rank)]
        offs = unit_bits(shape)
        rng.shuffle(offs)
        if rank >= 2 and i % 2 == 0 and len(offs) >= 3:
            # an XOR-swizzled basis: add a low bit of the other dim to a row basis
            j = rng.randrange(len(offs))
            b = list(offs[j])
            d = next(e for e in range(rank) if b[e])
            o = (d + 1) % rank
            if shape[o] > 1:
                b[o] = 1
                offs[j] = b
        block = []
        if i % 4 == 3:
            block = [[0] * rank]
        alignment = [16, 128, 1024][i % 3]
        cases.append(("shared_linear", L("SharedLinearLayout", offset_bases=offs, block_bases=block,
                                         alignment=alignment), shape))
    return cases


FAMILIES = [
    ("blocked", lambda rng: gen_blocked(rng, 120)),
    ("slice", gen_slice),
    ("dot_op", gen_dot_op),
    ("nvidia_mma", gen_nvidia_mma),
    ("amd_mfma", gen_amd_mfma),
    ("amd_wmma", gen_amd_wmma),
    ("linear", gen_linear),
    ("swizzled_shared", gen_swizzled),
    ("nvmma_shared", gen_nvmma_shared),
    ("amd_rotating_shared", gen_rotating),
    ("padded_shared", gen_padded),
    ("shared_linear", gen_shared_linear),
]

# Text-only probes, results only logged: encodings with no Gluon class in Triton 3.6, and syntax questions.
_BL = "sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]"
PROBE_ONLY_TEXT = [
    ("amd_rotating_shared", "!ttg.memdesc<32x32xf16, #ttg.amd_rotating_shared<{vec = 4, perPhase = 1, maxPhase = 4, "
                            "order = [1, 0]}>, #ttg.shared_memory, mutable>"),
    ("old CTA syntax", "tensor<32x32xf32, #ttg.blocked<{" + _BL +
     ", CTAsPerCGA = [1, 1], CTASplitNum = [1, 1], CTAOrder = [1, 0]}>>"),
    ("triton_gpu prefix", "tensor<32x32xf32, #triton_gpu.blocked<{" + _BL + "}>>"),
    ("empty CGALayout", "tensor<32x32xf32, #ttg.blocked<{" + _BL + ", CGALayout = []}>>"),
    ("dot_op without kWidth", "tensor<32x32xf32, #ttg.dot_op<{opIdx = 0, parent = #ttg.blocked<{" + _BL + "}>}>>"),
    ("mma without instrShape", "tensor<32x32xf32, #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, "
                               "warpsPerCTA = [2, 2]}>>"),
    ("swizzled_shared no CGA", "!ttg.memdesc<32x32xf16, #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, "
                               "order = [1, 0]}>, #ttg.shared_memory, mutable>"),
    ("linear empty block", "tensor<4x8xf32, #ttg.linear<{register = [], lane = [[0, 1], [0, 2], [0, 4], [1, 0], "
                           "[2, 0]], warp = [[0, 0], [0, 0]], block = []}>>"),
]


def thin_views(rng, shape):
    """Keep the file small: most shapes of 257..4096 elements (whose views are the bulk of the file) are
    moved below 257 elements or above 4096 (no views)."""
    n = numel(shape)
    if n <= 256 or n > VIEW_MAX_ELEMS:
        return shape
    r = rng.random()
    s = list(shape)
    if r < 0.45:
        while numel(s) > 256:
            j = s.index(max(s))
            s[j] //= 2
    elif r < 0.75:
        while numel(s) <= VIEW_MAX_ELEMS:
            j = s.index(min(v for v in s if v > 1) if any(v > 1 for v in s) else s[0])
            s[j] *= 2
    return s


def generate_cases(seed):
    cases = []
    for fam, fn in FAMILIES:
        rng = random.Random(f"{seed}:{fam}")
        srng = random.Random(f"{seed}:{fam}:size")
        for f, spec, shape in fn(rng):
            if f not in ("padded_shared",):
                shape = thin_views(srng, shape)
            if f == "amd_wmma":
                # toLinearLayout asserts that each of the last two dims is 1 or at least the instruction's
                shape = shape[:-2] + [max(v, 16) for v in shape[-2:]]
            cases.append((f, spec, shape))
    return cases


# ----------------------------------------------------------------------------------------------------------
# Triton side (runs in forked children)
# ----------------------------------------------------------------------------------------------------------

SHARED_CLASSES = {"SwizzledSharedLayout", "NVMMASharedLayout", "PaddedSharedLayout", "SharedLinearLayout"}


def build_layout(spec, gl, gluon_ir):
    cls = spec["cls"]
    args = dict(spec["args"])
    for k, v in list(args.items()):
        if isinstance(v, dict) and "cls" in v:
            args[k] = build_layout(v, gl, gluon_ir)
        elif k == "cga_layout" and isinstance(v, dict):
            ctas, split, order = v["split"]
            args[k] = [list(b) for b in gluon_ir.make_cga_layout(ctas, split, order)]
    if cls in ("AMDMFMALayout", "AMDWMMALayout"):
        import triton.experimental.gluon.language.amd as amd
        return getattr(amd, cls)(**args)
    return getattr(gl, cls)(**args)


def elem_type(b, spec):
    bw = spec["args"].get("element_bitwidth", 16) if spec["cls"] == "NVMMASharedLayout" else 16
    return {8: b.get_int8_ty, 16: b.get_half_ty, 32: b.get_float_ty, 64: b.get_double_ty}[bw]()


def extract_encoding(type_str):
    i = type_str.index(", #") + 2
    depth = 0
    for j in range(i, len(type_str)):
        c = type_str[j]
        if c in "<{[(":
            depth += 1
        elif c in ">}])":
            depth -= 1
            if depth == 0:
                return type_str[i:j + 1]
    raise ValueError(f"unbalanced type text {type_str!r}")


def pairs(x):
    return list(x.items()) if isinstance(x, dict) else [tuple(p) for p in x]


def ll_json(ll):
    res = {"inDims": [{"name": str(n), "bases": [[int(c) for c in b] for b in bs]} for n, bs in pairs(ll.bases)],
           "outDims": [{"name": str(n), "size": int(s)} for n, s in pairs(ll.out_dims)]}
    res["surjective"] = bool(ll.is_surjective())
    return res


def infer_size(vals):
    m = max(vals, default=0)
    s = 1
    while s <= m:
        s <<= 1
    return s


def gluon_to_ll(LL, obj, shape, shared):
    """Rebuild the C++ LinearLayout from the Gluon object that GluonOpBuilder.to_linear_layout returns."""
    rank = len(shape)
    outs = [f"dim{d}" for d in range(rank)]
    if not shared:
        if list(obj.shape) != list(shape):
            raise RuntimeError(f"to_linear_layout returned shape {obj.shape} for {shape}")
        bases = [("register", obj.reg_bases), ("lane", obj.lane_bases), ("warp", obj.warp_bases),
                 ("block", obj.block_bases)]
        sizes = list(shape)
    else:
        bases = [("offset", obj.offset_bases), ("block", obj.block_bases)]
        allb = list(obj.offset_bases) + list(obj.block_bases)
        sizes = [infer_size([b[d] for b in allb]) for d in range(rank)]
        if sizes != list(shape):
            raise RuntimeError(f"shared layout bases span {sizes}, not the shape {shape}")
    bases = [(n, [[int(c) for c in b] for b in bs]) for n, bs in bases]
    return LL.from_bases(bases, outs, sizes, False)


def module_text(type_str, nwarps, nthreads, nctas):
    return ('module attributes {"ttg.num-ctas" = %d : i32, "ttg.num-warps" = %d : i32, '
            '"ttg.threads-per-warp" = %d : i32} {\n  tt.func @f(%%arg0: %s) {\n    tt.return\n  }\n}\n'
            % (nctas, nwarps, nthreads, type_str))


def parse_arg(ir, ctx, text):
    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as f:
        f.write(text)
        path = f.name
    try:
        m = ir.parse_mlir_module(path, ctx)
    finally:
        os.unlink(path)
    found = []
    m.walk(lambda op: found.append(op.get_block()) if op.get_name() == "tt.return" else None)
    block = found[0]
    return m, block.arg(0), block


def reshape_bases(bases, src, dst):
    """Row-major reshape of out coordinates (exact for power-of-two sizes)."""
    out = []
    for v in bases:
        flat = 0
        for c, n in zip(v, src):
            flat = flat * n + int(c)
        comps = []
        for n in reversed(dst):
            comps.append(flat % n)
            flat //= n
        out.append(comps[::-1])
    return out


def shared_ll_via_reshape(b, LL, block, arg, shape):
    n = numel(shape)
    targets = []
    if len(shape) >= 2:
        targets.append([n])
    if n >= 2:
        targets += [[2, n // 2], [n // 2, 2]]
    tried = []
    for t in targets:
        if t == list(shape):
            continue
        b.set_insertion_point_to_start(block)
        v = b.create_memdesc_reshape(arg, t)
        lay = b.get_gluon_layout_from_memdesc(v)
        if type(lay).__name__ != "SharedLinearLayout":
            tried.append(f"{t}: {type(lay).__name__} {str(v.get_type())}")
            continue
        offs = reshape_bases(lay.offset_bases, t, shape)
        blocks = reshape_bases(lay.block_bases, t, shape)
        rank = len(shape)
        allb = offs + blocks
        sizes = [infer_size([x[d] for x in allb]) for d in range(rank)]
        if sizes != list(shape):
            raise RuntimeError(f"shared layout bases span {sizes}, not the shape {shape}")
        ll = LL.from_bases([("offset", offs), ("block", blocks)], [f"dim{d}" for d in range(rank)], sizes, False)
        return ll, "SharedLinearLayout", f"via memdesc_reshape to {t}: {str(v.get_type())}"
    raise RuntimeError(f"no memdesc_reshape gave a shared_linear layout: {tried}")


def evaluate_case(spec, shape):
    from triton._C.libtriton import ir, gluon_ir
    from triton._C.libtriton.linear_layout import LinearLayout as LL
    import triton.experimental.gluon.language as gl
    ctx = ir.context()
    ir.load_dialects(ctx)
    b = gluon_ir.GluonOpBuilder(ctx)
    shared = spec["cls"] in SHARED_CLASSES or spec["cls"] == "TEXT"
    if spec["cls"] == "TEXT":
        # No Gluon class (amd_rotating_shared): the type is written as text and must print back identically.
        lay = None
        type_str = "!ttg.memdesc<%sxf16, %s, #ttg.shared_memory, mutable>" % (
            "x".join(str(v) for v in shape), spec["args"]["encoding"])
    else:
        lay = build_layout(spec, gl, gluon_ir)
        attr = lay._to_ir(b)
        if shared:
            ty = b.get_shared_mem_desc_ty(elem_type(b, spec), list(shape), attr, list(shape))
        else:
            ty = b.get_distributed_ty(b.get_float_ty(), list(shape), attr)
        type_str = str(ty)
    sys.stderr.write(f"TYPE {type_str}\n")
    sys.stderr.flush()
    enc = extract_encoding(type_str)
    notes = []
    if not shared:
        obj = b.to_linear_layout(attr, list(shape))
        objtype = type(obj).__name__
        ll = gluon_to_ll(LL, obj, shape, shared)
        lj = ll_json(ll)
        nb = {d["name"]: len(d["bases"]) for d in lj["inDims"]}
        mt = module_text(type_str, 1 << nb["warp"], 1 << nb["lane"], 1 << nb["block"])
    elif lay is None:
        mt = module_text(type_str, 4, 32, spec["args"]["nctas"])
    else:
        cga = getattr(lay, "cga_layout", None) or getattr(lay, "block_bases", None) or []
        mt = module_text(type_str, 4, 32, 1 << len(cga))
    # Round trip: parse the printed text inside a module (runs the verifiers), print it again, convert again.
    try:
        _m, arg, block = parse_arg(ir, ctx, mt)
    except Exception as e:
        raise RuntimeError(f"printed text does not parse back: {e}; type {type_str}")
    type2 = str(arg.get_type())
    if type2 != type_str:
        raise RuntimeError(f"reprint differs: {type_str!r} -> {type2!r}")
    layout_kind = None
    if spec["cls"] == "PaddedSharedLayout":
        # toLinearLayout aborts for padded_shared in 3.6 ("unknown layout"), and so would triton-tensor-layout.
        # Record the linear component that Triton parsed from the text (the short form {order, shape} is
        # expanded by Triton), marked with "layoutKind", and no views.
        lay2 = b.get_gluon_layout_from_memdesc(arg)
        rank = len(shape)
        offs = [[int(c) for c in v] for v in lay2.offset_bases]
        blocks = [[int(c) for c in v] for v in lay2.block_bases]
        sizes = [infer_size([x[d] for x in offs + blocks]) for d in range(rank)]
        if sizes != list(shape) or list(lay2.shape) != list(shape):
            raise RuntimeError(f"padded linear component spans {sizes}, shape {lay2.shape}, not {shape}")
        ll = LL.from_bases([("offset", offs), ("block", blocks)], [f"dim{d}" for d in range(rank)], sizes, False)
        return {"encoding": enc, "shape": list(shape), "layout": ll_json(ll), "tensorView": None, "hwView": None,
                "notes": [], "objType": type(lay2).__name__, "layoutKind": "paddedLinearComponent"}
    if shared:
        # GluonOpBuilder.to_linear_layout aborts for shared encodings in 3.6 (it wraps every result in a
        # LinearEncodingAttr, whose verifier rejects offset/block in-dims). memdesc_reshape infers its result
        # encoding as #ttg.shared_linear holding reshapeLayout(toLinearLayout(shape, enc), newShape) (row-major):
        # reshape, read the shared_linear bases and undo the row-major reshape (an exact relabelling of bits).
        ll, objtype, how = shared_ll_via_reshape(b, LL, block, arg, shape)
        notes.append(how)
        lj = ll_json(ll)
        nb = {d["name"]: len(d["bases"]) for d in lj["inDims"]}
        if spec["cls"] == "SharedLinearLayout":
            want = [[int(c) for c in v] for v in spec["args"]["offset_bases"]]
            if lj["inDims"][0]["bases"] != want:
                raise RuntimeError(f"reshape pipeline check failed: {lj['inDims'][0]['bases']} != {want}")
        lj2 = lj
    else:
        lj2 = None
    if not shared:
        try:
            lay2 = b.get_gluon_layout_from_tensor(arg)
            lj2 = ll_json(gluon_to_ll(LL, b.to_linear_layout(lay2._to_ir(b), list(shape)), shape, shared))
        except Exception as e:
            notes.append(f"reparse->layout check skipped: {type(e).__name__}: {e}")
    if lj2 is not None and lj2 != lj:
        raise RuntimeError(f"reparsed layout differs: {lj2} vs {lj}")
    tv = hv = None
    slots = 1 << sum(nb.values())
    if numel(shape) <= VIEW_MAX_ELEMS and slots <= VIEW_MAX_SLOTS:
        if shared:
            tv, hv = ll.get_shared_view(False), ll.get_shared_view(True)
        else:
            tv, hv = ll.get_distributed_view(False), ll.get_distributed_view(True)
    return {"encoding": enc, "shape": list(shape), "layout": lj, "tensorView": tv, "hwView": hv, "notes": notes,
            "objType": objtype, "layoutKind": layout_kind}


def probe_text_case(type_str):
    """For encodings with no Gluon class: does the text parse, and can Gluon convert it?"""
    from triton._C.libtriton import ir, gluon_ir
    ctx = ir.context()
    ir.load_dialects(ctx)
    b = gluon_ir.GluonOpBuilder(ctx)
    out = {}
    _m, arg, _blk = parse_arg(ir, ctx, module_text(type_str, 4, 32, 1))
    out["reprinted"] = str(arg.get_type())
    try:
        if type_str.startswith("tensor"):
            lay = b.get_gluon_layout_from_tensor(arg)
        else:
            lay = b.get_gluon_layout_from_memdesc(arg)
        out["gluon"] = repr(lay)
        shape = [int(x) for x in type_str.split("<", 1)[1].split(",", 1)[0].split("x")[:-1]]
        out["ll"] = repr(b.to_linear_layout(lay._to_ir(b), shape))
    except Exception as e:
        out["gluon_error"] = f"{type(e).__name__}: {e}"
    return out


def run_forked(fn, *args):
    sys.stdout.flush()
    sys.stderr.flush()
    r, w = os.pipe()
    errf = tempfile.TemporaryFile()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(r)
            os.dup2(errf.fileno(), 2)
            try:
                res = ("R", fn(*args))
            except Exception as e:
                res = ("E", f"{type(e).__name__}: {e}")
            data = json.dumps(res).encode()
            with os.fdopen(w, "wb") as f:
                f.write(data)
        finally:
            os._exit(0)
    os.close(w)
    with os.fdopen(r, "rb") as f:
        data = f.read()
    _, status = os.waitpid(pid, 0)
    errf.seek(0)
    err = errf.read().decode(errors="replace").strip()
    errf.close()
    if data:
        kind, val = json.loads(data)
        if kind == "E" and err:
            val += " | stderr: " + (err if len(err) < 1200 else err[:500] + " ... " + err[-600:])
        return kind, val
    return "C", f"child died (wait status {status}): " + (err if len(err) < 1400 else err[:500] + " ... " + err[-800:])


def family_of(enc):
    try:
        return enc.split("<", 1)[0].split(".", 1)[1]
    except Exception:
        return enc[:20]


def count_key(enc):
    key = family_of(enc)
    if key in ("dot_op", "slice") and "parent = " in enc:
        key += "(" + family_of(enc.split("parent = ", 1)[1]) + ")"
    return key


def _pool_eval(case):
    fam, spec, shape = case
    return run_forked(evaluate_case, spec, shape)


def run_all(seed, out_path, log_path, jobs):
    import triton
    cases = generate_cases(seed)
    log = open(log_path, "w") if log_path else sys.stderr
    log.write(f"triton {triton.__version__}\npython {sys.version.split()[0]}\nseed {seed}\ncases {len(cases)}\n")
    import triton.experimental.gluon.language  # noqa: F401  (import once before forking)
    import triton.experimental.gluon.language.amd  # noqa: F401
    import multiprocessing
    with multiprocessing.get_context("fork").Pool(jobs) as pool:
        results = pool.map(_pool_eval, cases, chunksize=4)
    counts = {}
    skipped = []
    noted = []
    objtypes = {}
    next_id = 1
    total_bytes = 0
    with open(out_path, "w") as f:
        for idx, (fam, spec, shape) in enumerate(cases):
            kind, val = results[idx]
            if kind != "R":
                skipped.append({"case": idx, "family": fam, "kind": kind, "message": val, "layout": spec,
                                "shape": shape})
                continue
            objtypes.setdefault(fam, set()).add(val["objType"])
            if val["notes"]:
                noted.append({"case": idx, "id": next_id, "notes": val["notes"]})
            rec = {"id": next_id, "encoding": val["encoding"], "shape": val["shape"], "layout": val["layout"],
                   "tensorView": val["tensorView"], "hwView": val["hwView"]}
            if val.get("layoutKind"):
                rec["layoutKind"] = val["layoutKind"]
            line = json.dumps(rec, separators=(",", ":")) + "\n"
            total_bytes += len(line)
            f.write(line)
            key = count_key(val["encoding"])
            counts[key] = counts.get(key, 0) + 1
            next_id += 1
    log.write(f"written {next_id - 1} records, {total_bytes} bytes\n")
    for k in sorted(counts):
        log.write(f"  {k}: {counts[k]}\n")
    log.write("to_linear_layout returned: " + json.dumps({k: sorted(v) for k, v in objtypes.items()}) + "\n")
    log.write(f"notes {len(noted)}\n")
    for n in noted:
        log.write(json.dumps(n) + "\n")
    log.write(f"skipped {len(skipped)}\n")
    for s in skipped:
        log.write(json.dumps(s) + "\n")
    log.write("probe-only encodings (no Gluon class in this Triton):\n")
    for name, ts in PROBE_ONLY_TEXT:
        kind, val = run_forked(probe_text_case, ts)
        log.write(json.dumps({"encoding": name, "type": ts, "kind": kind, "result": val}) + "\n")
    log.flush()


# ----------------------------------------------------------------------------------------------------------
# Probe: the binding API (used once to learn the API)
# ----------------------------------------------------------------------------------------------------------

def probe(outdir):
    import inspect
    import triton
    import triton._C.libtriton as lt
    os.makedirs(outdir, exist_ok=True)
    print("triton", triton.__version__, triton.__file__, sys.version)
    seen = set()
    with open(os.path.join(outdir, "api.txt"), "w") as out:
        def walk(obj, name, depth):
            if id(obj) in seen or depth > 3:
                return
            seen.add(id(obj))
            for n in sorted(dir(obj)):
                if n.startswith("__") and n not in ("__init__", "__str__", "__repr__"):
                    continue
                try:
                    o = getattr(obj, n)
                except Exception:
                    continue
                out.write(f"{name}.{n}: {(getattr(o, '__doc__', None) or '').strip()[:1500]}\n")
                if inspect.ismodule(o) or (inspect.isclass(o) and getattr(o, "__module__", "").startswith("triton")):
                    walk(o, f"{name}.{n}", depth + 1)
        walk(lt, "libtriton", 0)
    tdir = os.path.dirname(triton.__file__)
    subprocess.run(["tar", "czf", os.path.join(outdir, "triton_py.tgz"), "--exclude=*.so", "--exclude=*.so.*",
                    "--exclude=*.bc", "--exclude=include", "--exclude=bin", "--exclude=__pycache__",
                    "--exclude=lib", "-C", os.path.dirname(tdir), "triton"])


def smoke(seed):
    import traceback
    seen = set()
    for fam, spec, shape in generate_cases(seed):
        if fam in seen:
            continue
        seen.add(fam)
        sys.stdout.flush()
        pid = os.fork()
        if pid == 0:
            try:
                r = evaluate_case(spec, shape)
                print(f"== {fam} OK {r['encoding']} {shape} obj={r['objType']} notes={r['notes']}")
                print(json.dumps(r["layout"])[:600])
                print((r["tensorView"] or "")[:300])
                print((r["hwView"] or "")[:300])
            except Exception:
                print(f"== {fam} FAILED {spec} {shape}")
                traceback.print_exc(file=sys.stdout)
            sys.stdout.flush()
            os._exit(0)
        _, status = os.waitpid(pid, 0)
        if status:
            print(f"== {fam} child died, wait status {status}")


def dry_run(seed):
    cases = generate_cases(seed)
    counts = {}
    est = 0
    for fam, spec, shape in cases:
        counts[fam] = counts.get(fam, 0) + 1
        n = numel(shape)
        if n <= VIEW_MAX_ELEMS:
            est += 36 * max(n, 32)
    for fam, _ in FAMILIES:
        print(f"{fam}: {counts.get(fam, 0)}")
    print("total", len(cases), "rough view bytes", est)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED)
    ap.add_argument("--out", default="triton_encoding_vectors.jsonl")
    ap.add_argument("--log", default=None)
    ap.add_argument("--dry-run", action="store_true")
    ap.add_argument("--probe", default=None, metavar="DIR")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="parallel workers (output unaffected)")
    ap.add_argument("--smoke", action="store_true", help="evaluate the first case of each family in-process")
    a = ap.parse_args()
    if a.dry_run:
        dry_run(a.seed)
    elif a.smoke:
        smoke(a.seed)
    elif a.probe:
        probe(a.probe)
    else:
        run_all(a.seed, a.out, a.log, a.jobs)


if __name__ == "__main__":
    main()
