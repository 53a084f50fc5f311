#!/usr/bin/env python3
# Makes the Triton corpus of this folder: compiles the ordinary kernels of corpus_kernels.py with
# Triton (no kernel is launched: compiling needs no GPU) for sm80, sm90 and, where Triton's AMD
# backend can, gfx942, and writes for every compiled kernel and target
#   <name>.<arch>.ttgir      compiled.asm["ttgir"]
#   <name>.<arch>.ptx        compiled.asm["ptx"]      (CUDA targets; left out when over PTX_MAX_BYTES)
#   <name>.<arch>.amdgcn     compiled.asm["amdgcn"]   (AMD targets; same limit)
#   <name>.<arch>.meta.json  shared-memory bytes, warps, stages, target, signature, the TTGIR op
#                            counts and, read from the PTX (or AMDGCN) by this script, per source
#                            line the counts of the shared-memory, shuffle, MMA and copy
#                            instructions (see count_instructions)
# plus corpus_index.json (Triton version, toolchain, one entry per kernel and target, errors).
#
# Command (from the repository root, with Triton 3.6 installed; it ran on the device machine):
#   python3 tests/data/ir/triton/make_corpus.py --out tests/data/ir/triton
#
# Paths. Triton writes the kernel's source file name into the TTGIR locs and the PTX `.file`
# table. So that no machine's absolute directory ends up in the corpus, the script changes to the
# repository root and loads corpus_kernels.py under its repository-relative name
# (tests/data/ir/triton/corpus_kernels.py); Triton's own library files (inlined reductions, cdiv)
# are written relative to site-packages (e.g. triton/language/standard.py): the saved TTGIR, PTX,
# AMDGCN and metadata have every occurrence of "<repository root>/" and "<site-packages>/" removed. The
# PTX DWARF sections spell file names as .b8 byte lists, which a text replacement cannot reach:
# when those bytes hold an absolute path, the saved PTX has its `.section .debug_*` blocks
# dropped (meta "debug_sections_stripped"), which leaves every instruction and `.loc` as compiled.
import argparse
import concurrent.futures as cf
import datetime
import hashlib
import inspect
import json
import multiprocessing
import os
import re
import subprocess
import sys
import tempfile
import time
import traceback
import types
from collections import Counter, defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[3]
KERNELS_REL = "tests/data/ir/triton/corpus_kernels.py"
PTX_MAX_BYTES = 400_000

TARGETS = {
    "sm80": ("cuda", 80, 32),
    "sm90": ("cuda", 90, 32),
    "gfx942": ("hip", "gfx942", 64),
}

# --------------------------------------------------------------------------------------------
# The corpus: kernels, the arguments they are specialised for, tiles, warps and stages.
# Ints are given as the value a real launch passes; specialize() turns them into what Triton's
# JIT would: 1 becomes a constexpr, multiples of 16 get tt.divisibility = 16; pointers are
# 16-byte aligned. Launch sizes: 4096-square matrices, 4096-wide rows, 16 heads of 64.


def _mm(dt_in, dt_out, b_transposed=False):
    M = N = K = 4096
    args = {"a_ptr": "*" + dt_in, "b_ptr": "*" + dt_in, "c_ptr": "*" + dt_out, "M": M, "N": N, "K": K,
            "stride_am": K, "stride_ak": 1}
    if b_transposed:
        args.update({"stride_bn": K, "stride_bk": 1})
    else:
        args.update({"stride_bk": N, "stride_bn": 1})
    args.update({"stride_cm": N, "stride_cn": 1})
    return args


def _tiles(m, n, k, **extra):
    return dict(BLOCK_M=m, BLOCK_N=n, BLOCK_K=k, **extra)


CUDA = ("sm80", "sm90")
CONFIGS = [
    dict(name="matmul_f16_128x128x64", kernel="matmul_kernel", args=_mm("fp16", "fp16"),
         constexprs=_tiles(128, 128, 64, GROUP_M=8), archs={a: (8, 3) for a in CUDA} | {"gfx942": (8, 2)}),
    dict(name="matmul_f16_64x64x32", kernel="matmul_kernel", args=_mm("fp16", "fp16"),
         constexprs=_tiles(64, 64, 32, GROUP_M=8), archs={a: (4, 3) for a in CUDA}),
    dict(name="matmul_bf16_128x128x64", kernel="matmul_kernel", args=_mm("bf16", "bf16"),
         constexprs=_tiles(128, 128, 64, GROUP_M=8), archs={a: (8, 3) for a in CUDA}),
    dict(name="matmul_bf16_64x64x32", kernel="matmul_kernel", args=_mm("bf16", "bf16"),
         constexprs=_tiles(64, 64, 32, GROUP_M=8), archs={a: (4, 3) for a in CUDA}),
    dict(name="matmul_bt_f16_128x128x64", kernel="matmul_bt_kernel", args=_mm("fp16", "fp16", True),
         constexprs=_tiles(128, 128, 64), archs={a: (8, 3) for a in CUDA}),
    # fp8 e4m3 ("fp8e4nv" in Triton): Hopper only.
    dict(name="matmul_fp8e4m3_bt_128x128x64", kernel="matmul_bt_kernel", args=_mm("fp8e4nv", "fp16", True),
         constexprs=_tiles(128, 128, 64), archs={"sm90": (8, 3)}),
    dict(name="matmul_fp8e4m3_128x128x64", kernel="matmul_kernel", args=_mm("fp8e4nv", "fp16"),
         constexprs=_tiles(128, 128, 64, GROUP_M=8), archs={"sm90": (8, 3)}),
    dict(name="matmul_tma_f16_128x128x64", kernel="matmul_tma_kernel",
         args={"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp16", "M": 4096, "N": 4096, "K": 4096},
         constexprs=_tiles(128, 128, 64), archs={a: (8, 3) for a in CUDA}),
    dict(name="matmul_persistent_f16_128x128x64", kernel="matmul_persistent_kernel", args=_mm("fp16", "fp16"),
         constexprs=_tiles(128, 128, 64, GROUP_M=8, NUM_SMS=132), archs={a: (8, 3) for a in CUDA}),
    dict(name="attn_fwd_f16_128x64_d64", kernel="attn_fwd_kernel",
         args={"q_ptr": "*fp16", "k_ptr": "*fp16", "v_ptr": "*fp16", "o_ptr": "*fp16", "sm_scale": "fp32",
               "N_CTX": 4096, "stride_h": 4096 * 64, "stride_qm": 64, "stride_kn": 64, "stride_vn": 64,
               "stride_om": 64},
         constexprs=dict(BLOCK_M=128, BLOCK_N=64, HEAD_DIM=64),
         archs={a: (4, 3) for a in CUDA} | {"gfx942": (4, 1)}),
    dict(name="softmax_f32_1024", kernel="softmax_kernel",
         args={"out_ptr": "*fp32", "in_ptr": "*fp32", "in_row_stride": 4096, "out_row_stride": 4096,
               "n_cols": 1000},
         constexprs=dict(BLOCK_SIZE=1024), archs={a: (4, 1) for a in CUDA + ("gfx942",)}),
    dict(name="layernorm_f16_4x1024", kernel="layernorm_kernel",
         args={"x_ptr": "*fp16", "y_ptr": "*fp16", "w_ptr": "*fp32", "b_ptr": "*fp32", "mean_ptr": "*fp32",
               "rstd_ptr": "*fp32", "stride": 1024, "M": 4096, "N": 1024, "eps": "fp32"},
         constexprs=dict(BLOCK_M=4, BLOCK_N=1024), archs={a: (4, 1) for a in CUDA}),
    dict(name="transpose_f16_64x64", kernel="transpose_kernel",
         args={"x_ptr": "*fp16", "y_ptr": "*fp16", "M": 4096, "N": 4096, "stride_xm": 4096, "stride_yn": 4096},
         constexprs=dict(BLOCK_M=64, BLOCK_N=64), archs={a: (4, 1) for a in CUDA + ("gfx942",)}),
    dict(name="transpose_f32_64x64", kernel="transpose_kernel",
         args={"x_ptr": "*fp32", "y_ptr": "*fp32", "M": 4096, "N": 4096, "stride_xm": 4096, "stride_yn": 4096},
         constexprs=dict(BLOCK_M=64, BLOCK_N=64), archs={a: (4, 1) for a in CUDA}),
    dict(name="reduce_f32_64x128", kernel="reduce_kernel",
         args={"x_ptr": "*fp32", "row_sum_ptr": "*fp32", "col_max_ptr": "*fp32", "M": 4096, "N": 128,
               "stride_xm": 128},
         constexprs=dict(BLOCK_M=64, BLOCK_N=128), archs={a: (4, 1) for a in CUDA}),
    dict(name="cumsum_f32_32x128", kernel="cumsum_kernel",
         args={"x_ptr": "*fp32", "row_scan_ptr": "*fp32", "col_scan_ptr": "*fp32", "M": 4096, "N": 128,
               "stride": 128},
         constexprs=dict(BLOCK_M=32, BLOCK_N=128), archs={a: (4, 1) for a in CUDA}),
    dict(name="join_split_f32_512", kernel="complex_square_kernel",
         args={"z_ptr": "*fp32", "out_ptr": "*fp32", "re_ptr": "*fp32", "im_ptr": "*fp32", "n": 1 << 20},
         constexprs=dict(BLOCK=512), archs={a: (4, 1) for a in CUDA}),
]


def specialize(arg_names, args, constexprs):
    """Signature, constexprs and divisibility attributes as Triton's JIT derives them at launch."""
    signature, consts, attrs = {}, {}, {}
    for i, name in enumerate(arg_names):
        if name in constexprs:
            signature[name] = "constexpr"
            consts[name] = constexprs[name]
            continue
        v = args[name]
        if isinstance(v, str):
            signature[name] = v
            if v.startswith("*"):
                attrs[(i,)] = [["tt.divisibility", 16]]
        elif v == 1:
            signature[name] = "constexpr"
            consts[name] = 1
        else:
            signature[name] = "i32"
            if v % 16 == 0:
                attrs[(i,)] = [["tt.divisibility", 16]]
    return signature, consts, attrs


# --------------------------------------------------------------------------------------------
# Reading the compiler output.

PTX_CATEGORIES = ["ld.shared", "st.shared", "ldmatrix", "stmatrix", "cp.async", "cp.async.other",
                  "cp.async.bulk.tensor", "cp.async.bulk", "shfl.sync", "wgmma", "wgmma.other", "mma.sync",
                  "barrier", "mbarrier", "atom.shared", "ld.global", "st.global"]


def classify_ptx(opcode):
    """The category of a PTX opcode (None for those the corpus does not count)."""
    parts = opcode.split(".")
    head = parts[0]
    shared = any(p.startswith("shared") for p in parts[1:])
    if opcode.startswith("cp.async.bulk.tensor"):
        return "cp.async.bulk.tensor"
    if opcode.startswith("cp.async.bulk"):
        return "cp.async.bulk"
    if opcode.startswith("cp.async."):
        # cp.async.ca / cp.async.cg are the copies; commit_group, wait_group, mbarrier.arrive the rest.
        return "cp.async" if len(parts) > 2 and parts[2] in ("ca", "cg") else "cp.async.other"
    if head in ("ld", "st") and shared:
        return head + ".shared"
    if head in ("ld", "st") and "global" in parts[1:]:
        return head + ".global"
    if head in ("ldmatrix", "stmatrix"):
        return head
    if opcode.startswith("shfl.sync"):
        return "shfl.sync"
    if opcode.startswith("wgmma.mma_async"):
        return "wgmma"
    if head == "wgmma":
        return "wgmma.other"
    if opcode.startswith("mma.sync"):
        return "mma.sync"
    if head in ("bar", "barrier") and not opcode.startswith("bar.warp"):
        return "barrier"
    if head == "mbarrier":
        return "mbarrier"
    if head in ("atom", "red") and shared:
        return "atom.shared"
    return None


AMD_CATEGORIES = ["ds_read", "ds_write", "ds_permute", "v_mfma", "global_load", "global_store", "s_barrier"]


def classify_amdgcn(opcode):
    if opcode.startswith(("ds_read", "ds_load")):
        return "ds_read"
    if opcode.startswith(("ds_write", "ds_store")):
        return "ds_write"
    if opcode.startswith(("ds_bpermute", "ds_permute", "ds_swizzle")):
        return "ds_permute"
    if opcode.startswith("v_mfma"):
        return "v_mfma"
    if opcode.startswith(("global_load", "buffer_load")):
        return "global_load"
    if opcode.startswith(("global_store", "buffer_store")):
        return "global_store"
    if opcode.startswith("s_barrier"):
        return "s_barrier"
    return None


_FILE_RE = re.compile(r'^\s*\.file\s+(\d+)\s+"([^"]*)"(?:\s*,?\s*"([^"]*)")?')
_LOC_RE = re.compile(r"^\s*\.loc\s+(\d+)\s+(\d+)\s+(\d+)(.*)$")
_INLINED_RE = re.compile(r"inlined_at\s+(\d+)\s+(\d+)\s+(\d+)")
_PTX_OPCODE_RE = re.compile(r"^[a-z][a-z0-9_]*(?:\.[A-Za-z0-9_:]+)*$")
_AMD_OPCODE_RE = re.compile(r"^[a-z][a-z0-9_]*$")


def count_instructions(text, isa, site_map=None):
    """Counts the instructions of the categories above per source line.

    Each instruction belongs to the last `.loc` before it (PTX and AMDGCN both use
    `.loc FILE LINE COL`, the file numbers resolved through the `.file` table).
    "by_line": keyed by that `.loc` position as written ("file:line"). Code that Triton inlined
    from its own library (the reduction in tl.sum, tl.max, tl.cumsum) carries the library's
    position there (e.g. triton/language/standard.py:293), not the kernel's.
    "by_site": keyed by the line of the kernel source itself: a `.loc` in the kernel file stays;
    one in another file goes to the kernel line that called it, taken from the `.loc`'s
    `inlined_at` where PTX has one, else from site_map (the TTGIR's callsite locations, see
    callsite_map) when that names exactly one kernel line; otherwise it keeps its own key and
    "site_candidates" lists the kernel lines it may belong to (a library line reached from
    several calls of the kernel, e.g. two tl.sum: PTX merges them).
    Instructions before any `.loc` go to "?". Inline-assembly blocks count like any other text:
    each statement (split at ';') whose first word, after a predicate guard and braces, is an
    opcode. Counts are static: an instruction inside a loop counts once."""
    if isa == "ptx":
        classify, comment, opcode_re = classify_ptx, "//", _PTX_OPCODE_RE
    else:
        classify, comment, opcode_re = classify_amdgcn, ";", _AMD_OPCODE_RE
    site_map = site_map or {}
    files, cur, inlined = {}, "?", None
    by_line = defaultdict(Counter)
    by_site = defaultdict(Counter)
    candidates = {}
    totals, opcodes = Counter(), Counter()
    for raw in text.splitlines():
        m = _FILE_RE.match(raw)
        if m:
            path = m.group(2) if m.group(3) is None else os.path.join(m.group(2), m.group(3))
            files[m.group(1)] = path
    for raw in text.splitlines():
        m = _LOC_RE.match(raw)
        if m:
            cur = f"{files.get(m.group(1), '#' + m.group(1))}:{m.group(2)}"
            im = _INLINED_RE.search(m.group(4))
            inlined = f"{files.get(im.group(1), '#' + im.group(1))}:{im.group(2)}" if im else None
            continue
        line = raw.split(comment, 1)[0]
        stmts = line.split(";") if isa == "ptx" else [line.split(";", 1)[0]]
        for stmt in stmts:
            s = stmt.strip().lstrip("{}").strip()
            while s.startswith("@"):
                s = s.split(None, 1)[1] if len(s.split(None, 1)) > 1 else ""
            if not s or s.startswith((".", "$", "%")) or s.endswith(":"):
                continue
            tok = s.split()[0].rstrip(",")
            if not opcode_re.match(tok):
                continue
            cat = classify(tok)
            if cat is None:
                continue
            site = cur
            if inlined is not None:
                site = inlined
            elif cur != "?" and not cur.startswith(KERNELS_REL + ":"):
                cands = site_map.get(cur, [])
                if len(cands) == 1:
                    site = cands[0]
                else:
                    candidates[cur] = cands
            for where, table in ((cur, by_line), (site, by_site)):
                table[where][cat] += 1
                table[where]["op:" + tok] += 1
            totals[cat] += 1
            opcodes[tok] += 1

    def shape(table):
        out = {}
        for where in sorted(table, key=_line_key):
            c = table[where]
            entry = {k: v for k, v in sorted(c.items()) if not k.startswith("op:")}
            entry["opcodes"] = {k[3:]: v for k, v in sorted(c.items()) if k.startswith("op:")}
            out[where] = entry
        return out

    return {
        "files": files,
        "totals": dict(sorted(totals.items())),
        "opcodes": dict(sorted(opcodes.items())),
        "by_line": shape(by_line),
        "by_site": shape(by_site),
        "site_candidates": dict(sorted(candidates.items())),
    }


_LOC_DEF_RE = re.compile(r"^(#loc\d*)\s*=\s*loc\((.*)\)\s*$")


def _parse_loc(s, i=0):
    """One MLIR location at s[i:] -> (node, next index). Nodes: ("file", "path:line"),
    ("ref", "#locN"), ("name", node), ("callsite", callee, caller), ("fused", [nodes]), ("unknown",)."""
    while s[i] == " ":
        i += 1
    if s.startswith("#loc", i):
        m = re.compile(r"#loc\d*").match(s, i)
        return ("ref", m.group(0)), m.end()
    if s[i] == '"':
        j = s.index('"', i + 1)
        text = s[i + 1:j]
        if s.startswith("(", j + 1):
            child, k = _parse_loc(s, j + 2)
            return ("name", child), s.index(")", k) + 1
        m = re.compile(r":(\d+):(\d+)").match(s, j + 1)
        return ("file", f"{text}:{m.group(1)}"), m.end()
    if s.startswith("callsite(", i):
        callee, k = _parse_loc(s, i + len("callsite("))
        k = s.index(" at ", k) + len(" at ")
        caller, k = _parse_loc(s, k)
        return ("callsite", callee, caller), s.index(")", k) + 1
    if s.startswith("fused", i):
        k = s.index("[", i) + 1
        items = []
        while s[k] != "]":
            node, k = _parse_loc(s, k)
            items.append(node)
            while s[k] in ", ":
                k += 1
        return ("fused", items), k + 1
    if s.startswith("unknown", i):
        return ("unknown",), i + len("unknown")
    raise ValueError(f"unreadable location at {s[i:i + 40]!r}")


def callsite_map(ttgir):
    """For each position of another file that the TTGIR's `callsite(A at B)` locations inline
    into the kernel: the kernel lines ("file:line") of the outermost callers B."""
    defs = {}
    for raw in ttgir.splitlines():
        m = _LOC_DEF_RE.match(raw)
        if m:
            try:
                defs[m.group(1)] = _parse_loc(m.group(2))[0]
            except (ValueError, IndexError, AttributeError):
                pass

    memo = {}

    def resolve(node, depth=0):
        """(innermost, outermost) position of a location."""
        if depth > 200:
            return None, None
        kind = node[0]
        if kind == "file":
            return node[1], node[1]
        if kind == "ref":
            if node[1] not in memo:
                memo[node[1]] = (None, None)
                if node[1] in defs:
                    memo[node[1]] = resolve(defs[node[1]], depth + 1)
            return memo[node[1]]
        if kind == "name":
            return resolve(node[1], depth + 1)
        if kind == "callsite":
            return resolve(node[1], depth + 1)[0], resolve(node[2], depth + 1)[1]
        if kind == "fused":
            for item in node[1]:
                r = resolve(item, depth + 1)
                if r[0] is not None:
                    return r
        return None, None

    out = defaultdict(set)
    for name, node in defs.items():
        if node[0] == "callsite":
            inner, outer = resolve(node)
            if inner and outer and inner != outer and outer.startswith(KERNELS_REL + ":"):
                out[inner].add(outer)
    return {k: sorted(v, key=_line_key) for k, v in sorted(out.items())}


def _line_key(where):
    path, _, line = where.rpartition(":")
    return (path, int(line) if line.isdigit() else -1)


_TTGIR_RESULT_RE = re.compile(r"^%[^=]*=\s*")
_TTGIR_OP_RE = re.compile(r'^"?([a-z_][a-z0-9_]*\.[a-z0-9_.]+)"?')


def count_ttgir_ops(text):
    """Op names of the TTGIR, counted by the first word of each op line (results stripped)."""
    ops = Counter()
    for raw in text.splitlines():
        s = raw.strip()
        if not s or s.startswith(("#", "}", "^", "//", "loc(")):
            continue
        s = _TTGIR_RESULT_RE.sub("", s)
        m = _TTGIR_OP_RE.match(s)
        if m:
            ops[m.group(1)] += 1
    return dict(sorted(ops.items()))


def _debug_section_bytes(ptx):
    """The .b8 bytes of the PTX `.section .debug_*` blocks."""
    data, inside = bytearray(), False
    for raw in ptx.splitlines():
        s = raw.strip()
        if s.startswith(".section") and ".debug_" in s:
            inside = not ("{" in s and "}" in s)
            continue
        if inside:
            if s == "}":
                inside = False
            elif s.startswith(".b8"):
                for v in re.findall(r"\d+", s[3:].split("//")[0]):
                    data.append(int(v) & 0xFF)
    return bytes(data)


def _strip_debug_sections(ptx):
    out, inside = [], False
    for raw in ptx.splitlines(keepends=True):
        s = raw.strip()
        if not inside and s.startswith(".section") and ".debug_" in s:
            inside = not ("{" in s and "}" in s)
            continue
        if inside:
            if s == "}":
                inside = False
            continue
        out.append(raw)
    return "".join(out)


def _abs_roots():
    """The repository root and Triton's site-packages, as given and resolved, longest first."""
    import triton

    tfile = Path(triton.__file__)
    roots = {str(REPO), os.getcwd(), str(tfile.parent.parent), str(tfile.resolve().parent.parent)}
    return sorted(roots, key=len, reverse=True)


def sanitize(text):
    for root in _abs_roots():
        text = text.replace(root + "/", "")
    return text


_ABS_QUOTED_RE = re.compile(r'"(/(?:root|home|tmp|opt|usr|work|scratch|mnt|workspace)/[^"]*)"')


def remaining_abs_paths(text):
    return sorted(set(_ABS_QUOTED_RE.findall(text)))[:10]


# --------------------------------------------------------------------------------------------
# Compiling (in worker processes).

_KERNELS = None


def load_kernels():
    """corpus_kernels.py under its repository-relative file name (see the header)."""
    global _KERNELS
    if _KERNELS is None:
        os.chdir(REPO)
        src = Path(KERNELS_REL).read_text()
        mod = types.ModuleType("corpus_kernels")
        mod.__file__ = KERNELS_REL
        sys.modules["corpus_kernels"] = mod
        exec(compile(src, KERNELS_REL, "exec"), mod.__dict__)
        _KERNELS = mod
    return _KERNELS


def _def_line(kernel_name):
    for i, line in enumerate((REPO / KERNELS_REL).read_text().splitlines(), 1):
        if line.startswith(f"def {kernel_name}("):
            return i
    return None


def _jsonable(v):
    if isinstance(v, (str, int, float, bool)) or v is None:
        return v
    if hasattr(v, "_asdict"):  # before the tuple case: a namedtuple is a tuple
        return _jsonable(v._asdict())
    if isinstance(v, (list, tuple)):
        return [_jsonable(x) for x in v]
    if isinstance(v, dict):
        return {str(k): _jsonable(x) for k, x in v.items()}
    if hasattr(v, "__dataclass_fields__"):
        return {k: _jsonable(getattr(v, k)) for k in v.__dataclass_fields__}
    return repr(v)


def compile_job(job, out_dir):
    import triton
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource

    kernels = load_kernels()
    fn = getattr(kernels, job["kernel"])
    name, arch = job["name"], job["arch"]
    signature, consts, attrs = specialize(fn.arg_names, job["args"], job["constexprs"])
    target = GPUTarget(*TARGETS[arch])
    options = {"num_warps": job["num_warps"], "num_stages": job["num_stages"]}
    cache = tempfile.mkdtemp(prefix=f"triton_cache_{name}_{arch}_")
    os.environ["TRITON_CACHE_DIR"] = cache
    os.environ.pop("TRITON_DISABLE_LINE_INFO", None)
    result = {"name": name, "arch": arch, "kernel": job["kernel"], "num_warps": job["num_warps"],
              "num_stages": job["num_stages"], "errors": []}
    t0 = time.time()
    compiled = None
    # Triton 3.3+ wants constexpr parameters in the signature as "constexpr"; older spellings
    # left them out. Try the 3.6 form first and record every failure.
    for sig in (signature, {k: v for k, v in signature.items() if v != "constexpr"}):
        try:
            compiled = triton.compile(ASTSource(fn=fn, signature=sig, constexprs=consts, attrs=attrs),
                                      target=target, options=options)
            break
        except Exception as e:  # a kernel that does not compile is reported, not fatal
            result["errors"].append(f"{type(e).__name__}: {str(e)[:3000]}")
    result["compile_seconds"] = round(time.time() - t0, 2)

    asm = {}
    if compiled is not None:
        asm = {k: v for k, v in compiled.asm.items() if k in ("ttgir", "ptx", "amdgcn")}
        result["status"] = "ok"
    else:
        # A later stage may fail after the TTGIR was written to the cache: keep that TTGIR.
        found = sorted(Path(cache).rglob("*.ttgir"))
        if found:
            asm["ttgir"] = found[0].read_text()
            result["status"] = "ttgir_only"
        else:
            result["status"] = "failed"
            return result

    base = f"{name}.{arch}"
    files = {}
    meta = {
        "name": name,
        "arch": arch,
        "kernel": job["kernel"],
        "source": KERNELS_REL,
        "def_line": _def_line(job["kernel"]),
        "target": {"backend": target.backend, "arch": target.arch, "warp_size": target.warp_size},
        "num_warps": job["num_warps"],
        "num_stages": job["num_stages"],
        "signature": signature,
        "constexprs": consts,
        "divisibility_16": [n for i, n in enumerate(fn.arg_names) if (i,) in attrs],
        "triton_version": triton.__version__,
        "status": result["status"],
    }
    if compiled is not None:
        md = json.loads(sanitize(json.dumps(_jsonable(compiled.metadata))))  # extern_libs holds paths
        meta["shared"] = md.get("shared")
        meta["num_ctas"] = md.get("num_ctas")
        meta["triton_metadata"] = {k: v for k, v in sorted(md.items()) if k not in ("hash",)}
    else:
        meta["shared"] = None
        meta["errors"] = result["errors"]

    ttgir = sanitize(asm["ttgir"])
    (out_dir / f"{base}.ttgir").write_text(ttgir)
    files["ttgir"] = f"{base}.ttgir"
    meta["ttgir_ops"] = count_ttgir_ops(ttgir)
    leftover = remaining_abs_paths(ttgir)

    for isa in ("ptx", "amdgcn"):
        if isa not in asm:
            continue
        text = asm[isa]
        info = {"compiled_bytes": len(text.encode()),
                "compiled_sha256": hashlib.sha256(text.encode()).hexdigest()}
        if isa == "ptx":
            dbg = _debug_section_bytes(text)
            roots = [r.encode() for r in _abs_roots()] + [b"/root/", b"/home/", b"/tmp/", b"/opt/", b"/usr/"]
            info["debug_sections_stripped"] = any(r in dbg for r in roots)
            if info["debug_sections_stripped"]:
                text = _strip_debug_sections(text)
        text = sanitize(text)
        info["saved"] = len(text.encode()) <= PTX_MAX_BYTES
        info.update(count_instructions(text, isa, callsite_map(ttgir)))
        if info["saved"]:
            (out_dir / f"{base}.{isa}").write_text(text)
            files[isa] = f"{base}.{isa}"
        leftover += remaining_abs_paths(text)
        meta[isa] = info
    meta["absolute_paths_left"] = sorted(set(leftover))
    meta["files"] = files
    (out_dir / f"{base}.meta.json").write_text(json.dumps(meta, indent=1, sort_keys=False) + "\n")
    files["meta"] = f"{base}.meta.json"
    result["files"] = files
    result["shared"] = meta["shared"]
    if "ptx" in meta:
        result["ptx_totals"] = meta["ptx"]["totals"]
    if "amdgcn" in meta:
        result["amdgcn_totals"] = meta["amdgcn"]["totals"]
    return result


def _worker_init():
    load_kernels()


def _run(job_and_out):
    job, out = job_and_out
    try:
        return compile_job(job, Path(out))
    except Exception as e:  # keep the other kernels going; the error goes into the index
        return {"name": job["name"], "arch": job["arch"], "status": "failed",
                "errors": [f"{type(e).__name__}: {str(e)[:3000]}", traceback.format_exc()[-3000:]]}


# --------------------------------------------------------------------------------------------


def environment():
    import triton

    env = {"triton_version": triton.__version__, "python": sys.version.split()[0]}
    try:
        from triton.compiler import ASTSource
        env["ASTSource.__init__"] = str(inspect.signature(ASTSource.__init__))
    except Exception as e:
        env["ASTSource.__init__"] = repr(e)
    try:
        from triton.backends import backends
        env["backends"] = sorted(backends)
    except Exception as e:
        env["backends"] = repr(e)
    tdir = Path(triton.__file__).resolve().parent
    for ptxas in sorted(tdir.glob("backends/nvidia/bin/ptxas*")):
        try:
            v = subprocess.run([str(ptxas), "--version"], capture_output=True, text=True, timeout=30).stdout
            env["ptxas"] = v.strip().splitlines()[-1]
            break
        except Exception as e:
            env["ptxas"] = repr(e)
    try:
        q = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"],
                           capture_output=True, text=True, timeout=30).stdout.strip()
        env["gpu"] = q
    except Exception as e:
        env["gpu"] = repr(e)
    return env


def reanalyse(folder):
    """Recomputes the parts of every <name>.<arch>.meta.json in folder that are read from the
    saved TTGIR, PTX and AMDGCN (op counts, instruction counts per line), without Triton."""
    for meta_path in sorted(Path(folder).glob("*.meta.json")):
        meta = json.loads(meta_path.read_text())
        ttgir = (meta_path.parent / meta["files"]["ttgir"]).read_text()
        meta["ttgir_ops"] = count_ttgir_ops(ttgir)
        for isa in ("ptx", "amdgcn"):
            if isa in meta and isa in meta["files"]:
                text = (meta_path.parent / meta["files"][isa]).read_text()
                keep = {k: meta[isa][k] for k in ("compiled_bytes", "compiled_sha256", "debug_sections_stripped",
                                                 "saved") if k in meta[isa]}
                meta[isa] = keep | count_instructions(text, isa, callsite_map(ttgir))
        meta_path.write_text(json.dumps(meta, indent=1, sort_keys=False) + "\n")
        print(f"reanalysed {meta_path.name}")


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", default=str(HERE), help="output folder (default: this folder)")
    ap.add_argument("--jobs", type=int, default=min(8, os.cpu_count() or 1))
    ap.add_argument("--only", default="", help="regex on <name>.<arch> to compile a subset")
    ap.add_argument("--deadline", type=float, default=300.0, help="seconds before unfinished jobs are dropped")
    ap.add_argument("--reanalyse", metavar="DIR",
                    help="only recompute the meta.json counts from the files saved in DIR (no Triton)")
    a = ap.parse_args()
    if a.reanalyse:
        reanalyse(a.reanalyse)
        return
    out = Path(a.out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    os.chdir(REPO)

    env = environment()
    print(json.dumps(env, indent=1), flush=True)
    jobs = []
    for c in CONFIGS:
        for arch, (warps, stages) in c["archs"].items():
            if a.only and not re.search(a.only, f"{c['name']}.{arch}"):
                continue
            jobs.append(dict(c, arch=arch, num_warps=warps, num_stages=stages, archs=None))
    t0 = time.time()
    results = []
    ctx = multiprocessing.get_context("spawn")
    ex = cf.ProcessPoolExecutor(max_workers=a.jobs, mp_context=ctx, initializer=_worker_init)
    futs = {ex.submit(_run, (j, str(out))): j for j in jobs}
    try:
        for f in cf.as_completed(futs, timeout=a.deadline):
            r = f.result()
            results.append(r)
            print(f"{r['name']}.{r['arch']}: {r['status']} shared={r.get('shared')} "
                  f"{r.get('compile_seconds', '')}s {r.get('ptx_totals', r.get('amdgcn_totals', ''))} "
                  f"{(r.get('errors') or [''])[0][:300] if r['status'] != 'ok' else ''}", flush=True)
    except cf.TimeoutError:
        for f, j in futs.items():
            if not f.done():
                results.append({"name": j["name"], "arch": j["arch"], "status": "failed",
                                "errors": [f"not finished within {a.deadline} s"]})
        for p in list(getattr(ex, "_processes", {}).values()):
            p.kill()
    ex.shutdown(wait=False, cancel_futures=True)
    results.sort(key=lambda r: (r["name"], r["arch"]))
    index = {
        "generated": datetime.date.today().isoformat(),
        "command": "python3 tests/data/ir/triton/make_corpus.py --out tests/data/ir/triton",
        "environment": env,
        "seconds": round(time.time() - t0, 1),
        "results": results,
    }
    (out / "corpus_index.json").write_text(json.dumps(index, indent=1) + "\n")
    ok = sum(r["status"] == "ok" for r in results)
    print(f"{ok}/{len(results)} compiled in {index['seconds']} s; output in {out}", flush=True)


if __name__ == "__main__":
    main()
