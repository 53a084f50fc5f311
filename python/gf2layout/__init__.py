"""gf2layout: GF(2) linear layouts with Triton's LinearLayout semantics, and the layout engine.

    >>> from gf2layout import LinearLayout
    >>> l = LinearLayout.identity_1d(4, "lane", "dim0") * LinearLayout.identity_1d(2, "register", "dim1")
    >>> l.apply({"lane": 3, "register": 1})
    {'dim0': 3, 'dim1': 1}

`LinearLayout` takes the names and argument forms of Triton's Python binding
(``triton._C.libtriton.linear_layout.LinearLayout``), so code written against it works after
changing the import. Beyond it: ``apply_array`` over NumPy arrays, ``matrix()``, layout JSON
(``to_json`` / ``from_json``), pickling and hashing, encodings of every dialect
(``to_linear_layout``, ``layout_str``), and every op of the batch protocol (``batch``), with
named shortcuts below, and DPAS GEMM kernels (``gemm_kernel`` builds one and returns its plan,
report and OpenCL C; ``gemm_simulate`` runs it in the Xe simulator and verifies it). Errors raise
``ValueError`` with the library's message.
"""

from ._core import (
    LinearLayout,
    batch,
    gemm_kernel,
    gemm_simulate,
    layout_str,
    to_linear_layout,
)

__all__ = [
    "LinearLayout",
    "batch",
    "gemm_kernel",
    "gemm_simulate",
    "layout_str",
    "to_linear_layout",
    "from_triton",
    "to_triton",
    "verify",
    "xegpu_propagate",
    "block_load_plan",
    "bank_report",
    "swizzle",
    "conversion_plan",
    "report",
]


def from_triton(obj):
    """A gf2layout LinearLayout equal to a Triton ``LinearLayout`` object (needs only its
    ``bases`` and ``out_dims``)."""
    out_dims = list(obj.out_dims)
    return LinearLayout.from_bases(
        [(name, [list(b) for b in bases]) for name, bases in obj.bases],
        [name for name, _ in out_dims],
        [size for _, size in out_dims],
        False,
    )


def to_triton(layout):
    """Triton's ``LinearLayout`` equal to ``layout`` (needs ``triton`` importable)."""
    from triton._C.libtriton.linear_layout import LinearLayout as TritonLinearLayout

    out_dims = layout.out_dims
    return TritonLinearLayout.from_bases(
        [(name, [list(b) for b in bases]) for name, bases in layout.bases],
        [name for name, _ in out_dims],
        [size for _, size in out_dims],
        False,
    )


def verify(attr, shape):
    """True, or ValueError with the verifier's message of the attribute's dialect."""
    return batch("verify", {"encoding": attr, "shape": list(shape)})["ok"]


def xegpu_propagate(op, **args):
    """Upstream XeGPU's layout propagation through one op (``layoutctl propagate``):
    ``xegpu_propagate("transpose", result="#xegpu.layout<...>", permutation=[1, 0])``."""
    return batch("xegpu.propagate", dict(args, op=op))


def block_load_plan(encoding, shape, elem_bits, **args):
    """The 2D block loads and shuffles of a DPAS operand (``layoutctl blockload``)."""
    return batch("blockLoad.plan", dict(args, encoding=encoding, shape=list(shape), elemBits=elem_bits))


def bank_report(access, shared, shape, elem_bits, **args):
    """Shared-memory bank conflicts of an access pattern (``layoutctl banks``)."""
    return batch(
        "banks.analyze",
        dict(args, access=access, shared=shared, shape=list(shape), elemBits=elem_bits),
    )


def swizzle(store, load, shape, elem_bits, **args):
    """A conflict-free XOR swizzle for a store and a load (``layoutctl swizzle``)."""
    return batch(
        "banks.swizzle",
        dict(args, store=store, load=load, shape=list(shape), elemBits=elem_bits),
    )


def conversion_plan(src, dst, shape, **args):
    """How to convert a tensor between two layouts (``layoutctl convert``)."""
    return batch("convert.plan", dict(args, src=src, dst=dst, shape=list(shape)))


def report(text_or_path, target=None, sarif=False):
    """Every layout of a TritonGPU IR file and what it costs (``layoutctl report``), as a dict.

    ``text_or_path``: the MLIR text, or a path (``str`` or ``os.PathLike``) of a file holding it.
    ``target``: ``"sm80"``, ``"sm90"``, ``"gfx942"``, ...; default the module's ``ttg.target``.
    ``sarif``: SARIF 2.1.0 findings instead of the report.
    """
    import os

    if isinstance(text_or_path, os.PathLike) or (
        isinstance(text_or_path, str) and "\n" not in text_or_path and os.path.isfile(text_or_path)
    ):
        with open(text_or_path, encoding="utf-8") as f:
            text_or_path = f.read()
    args = {"mlir": text_or_path}
    if target is not None:
        args["target"] = target
    if sarif:
        args["sarif"] = True
    return batch("report.kernel", args)
