#!/usr/bin/env python3
"""(work in progress) probe only."""
import argparse
import inspect
import os
import subprocess
import sys

PROBE_PRELUDE = r'''
import sys, traceback, inspect
from triton._C.libtriton import ir
try:
    from triton._C.libtriton import gluon_ir
except Exception as e:
    print("no gluon_ir", e); gluon_ir = None
ctx = ir.context(); ir.load_dialects(ctx)
for m in (gluon_ir,):
    if m is not None and hasattr(m, "load_dialects"):
        try: m.load_dialects(ctx)
        except Exception as e: print("load_dialects", e)
b = gluon_ir.GluonOpBuilder(ctx)
import triton.experimental.gluon.language as ttgl
def show(x):
    print(type(x).__module__, type(x).__name__, repr(x)[:3000])
'''

PROBE_SNIPPETS = [
    ("blocked attr + str + to_linear_layout",
     "L = ttgl.BlockedLayout([1,4],[8,4],[4,1],[1,0]); print(repr(L))\n"
     "a = L._to_ir(b); show(a); print('STR', str(a))\n"
     "r = b.to_linear_layout(a, [32,32]); show(r); print(dir(r))"),
    ("semantic to_linear_layout source",
     "from triton.experimental.gluon.language import _semantic as S\n"
     "print(inspect.getsource(S.GluonSemantic.to_linear_layout))"),
    ("ll object from attr?",
     "from triton._C.libtriton.linear_layout import LinearLayout as LL\n"
     "print([n for n in dir(LL) if not n.startswith('__')])\n"
     "L = LL.from_bases([('register',[[0,1],[8,0]]),('lane',[[0,2],[1,0]]),('warp',[])],['dim0','dim1'],[16,4],False)\n"
     "for hw in (False, True):\n"
     "    print('DIST', hw, repr(L.get_distributed_view(hw)))\n"
     "S = LL.from_bases([('offset',[[0,1],[1,0],[2,1]]),('block',[])],['dim0','dim1'],[4,2],False)\n"
     "for hw in (False, True):\n"
     "    print('SHARED', hw, repr(S.get_shared_view(hw)))\n"),
    ("distributed view with blocks",
     "from triton._C.libtriton.linear_layout import LinearLayout as LL\n"
     "L = LL.from_bases([('register',[[0,1]]),('lane',[[0,2],[1,0]]),('warp',[[2,0]]),('block',[[0,0],[4,0]])],['dim0','dim1'],[8,4],False)\n"
     "print(repr(L.get_distributed_view(False))); print(repr(L.get_distributed_view(True)))\n"
     "S = LL.from_bases([('offset',[[0,1],[1,0]]),('block',[[2,0]])],['dim0','dim1'],[4,2],False)\n"
     "print(repr(S.get_shared_view(False))); print(repr(S.get_shared_view(True)))\n"),
    ("type with encoding str",
     "L = ttgl.BlockedLayout([1,4],[8,4],[4,1],[1,0]); a = L._to_ir(b)\n"
     "for n in ['get_distributed_ty','get_block_ty']:\n"
     "    print(n, hasattr(b, n))\n"
     "t = b.get_distributed_ty(b.get_fp32_ty(), [32,32], a); print('TYPE', str(t))"),
    ("parse module text",
     "import tempfile, os\n"
     "txt='''#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0], CTAsPerCGA = [2, 1], CTASplitNum = [2, 1], CTAOrder = [1, 0]}>\n"
     "module attributes {\"ttg.num-warps\" = 4 : i32, \"ttg.num-ctas\" = 2 : i32, \"ttg.threads-per-warp\" = 32 : i32} {\n"
     "  tt.func @f(%arg0: tensor<64x32xf32, #blocked>) { tt.return }\n}\n'''\n"
     "p = tempfile.mktemp(suffix='.mlir'); open(p,'w').write(txt)\n"
     "m = ir.parse_mlir_module(p, ctx); print(str(m))"),
    ("parse module text, CGALayout form",
     "import tempfile, os\n"
     "txt='''#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0], CGALayout = [[1, 0]]}>\n"
     "module attributes {\"ttg.num-warps\" = 4 : i32, \"ttg.num-ctas\" = 2 : i32, \"ttg.threads-per-warp\" = 32 : i32} {\n"
     "  tt.func @f(%arg0: tensor<64x32xf32, #blocked>) { tt.return }\n}\n'''\n"
     "p = tempfile.mktemp(suffix='.mlir'); open(p,'w').write(txt)\n"
     "m = ir.parse_mlir_module(p, ctx); print(str(m))"),
    ("layout classes",
     "import dataclasses\n"
     "mods = ['triton.experimental.gluon.language', 'triton.experimental.gluon.language.amd',\n"
     "        'triton.experimental.gluon.language.nvidia.ampere', 'triton.experimental.gluon.language.nvidia.hopper',\n"
     "        'triton.experimental.gluon.language.nvidia.blackwell', 'triton.experimental.gluon.language.amd.cdna3',\n"
     "        'triton.experimental.gluon.language.amd.cdna4', 'triton.experimental.gluon.language.amd.gfx1250',\n"
     "        'triton.experimental.gluon.language.amd.rdna3', 'triton.experimental.gluon.language.amd.rdna4']\n"
     "import importlib\n"
     "for mn in mods:\n"
     "    try: m = importlib.import_module(mn)\n"
     "    except Exception as e: print('NOMOD', mn, e); continue\n"
     "    for n in sorted(dir(m)):\n"
     "        o = getattr(m, n)\n"
     "        if inspect.isclass(o) and 'Layout' in n:\n"
     "            try: sig = str(inspect.signature(o))\n"
     "            except Exception as e: sig = '?' + str(e)\n"
     "            print(mn, n, sig)"),
]


def dump_api(path):
    import importlib
    out = open(path, "w")
    import triton._C.libtriton as lt
    seen = set()

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
            doc = getattr(o, "__doc__", None) or ""
            out.write(f"{name}.{n}: {doc.strip()[:1500]}\n")
            if inspect.ismodule(o) or inspect.isclass(o):
                if getattr(o, "__module__", "").startswith("triton") or inspect.ismodule(o):
                    walk(o, f"{name}.{n}", depth + 1)

    walk(lt, "libtriton", 0)
    out.close()


def probe(outdir):
    import triton
    print("triton", triton.__version__, triton.__file__, sys.version)
    os.makedirs(outdir, exist_ok=True)
    try:
        dump_api(os.path.join(outdir, "api.txt"))
    except Exception as e:
        print("dump_api failed", e)
    tdir = os.path.dirname(triton.__file__)
    subprocess.run(["tar", "czf", os.path.join(outdir, "triton_py.tgz"), "--exclude=*.so", "--exclude=*.so.*",
                    "--exclude=*.bc", "--exclude=include", "--exclude=bin", "--exclude=__pycache__",
                    "--exclude=lib", "-C", os.path.dirname(tdir), "triton"])
    subprocess.run(f"strings {tdir}/_C/libtriton.so | grep -iE 'layout|cga|cta|swizzl|mfma|wmma|padded|nvmma' "
                   f"| sort -u | head -5000 > {outdir}/strings.txt", shell=True)
    for title, code in PROBE_SNIPPETS:
        p = subprocess.run([sys.executable, "-c", PROBE_PRELUDE + code], capture_output=True, text=True, timeout=120)
        print(f"===== {title} (rc {p.returncode})")
        print(p.stdout[:12000])
        if p.stderr.strip():
            print("stderr:", p.stderr.strip()[-2500:])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--probe", default=None)
    a = ap.parse_args()
    if a.probe:
        probe(a.probe)


if __name__ == "__main__":
    main()
