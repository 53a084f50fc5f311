"""The LinearLayout calls that bypass pybind11 (python/src/layout_fast_calls.h): ==, hash, str,
apply, from_bases, the algebra methods and the dim properties. Each fast path must agree with the
general binding it falls back to, so every argument form is run both ways (a keyword call or a
non-list argument always takes the general path) and against values worked out by hand."""
import pickle

import numpy as np
import pytest

import gf2layout
from gf2layout import LinearLayout

# lane 1 -> (0, 2), lane 2 -> (0, 4), lane 4 -> (1, 0), ...; register 1 -> (0, 1), 2 -> (8, 0).
BASES = [("register", [[0, 1], [8, 0]]), ("lane", [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]])]


def tile():
    return LinearLayout.from_bases(BASES, ["dim0", "dim1"])


def fresh(text):
    """An equal string that is not the interned object (identity lookups miss)."""
    return "".join(list(text))


def test_apply_dict_forms_agree_with_the_worked_example():
    l = tile()
    want = {"dim0": 1, "dim1": 1}  # register 1 -> (0, 1), lane 4 -> (1, 0)
    assert l.apply({"register": 1, "lane": 4}) == want
    assert l.apply({fresh("lane"): 4, fresh("register"): 1}) == want
    assert l.apply(inputs={"register": 1, "lane": 4}) == want  # keyword: the general path
    assert l.apply([("lane", 4), ("register", 1)]) == want  # pairs: the general path
    assert l.apply({"register": np.uint64(1), "lane": np.int32(4)}) == want
    assert l.apply({"register": True, "lane": 4}) == want  # bool is an int subclass
    # Only the low log2(size) bits are read, as in Triton: register 5 reads as 1.
    assert l.apply({"register": 5, "lane": 4 + 32}) == want
    assert list(l.apply({"register": 3, "lane": 31})) == ["dim0", "dim1"]  # out-dim order


def test_apply_matches_the_packed_matrix_everywhere():
    l = tile()
    m = l.matrix()
    for reg in range(4):
        for lane in range(32):
            bits = np.array([(reg >> i) & 1 for i in range(2)] + [(lane >> i) & 1 for i in range(5)])
            out = (m.astype(int) @ bits) % 2
            dim0 = sum(int(b) << i for i, b in enumerate(out[:4]))
            dim1 = sum(int(b) << i for i, b in enumerate(out[4:]))
            assert l.apply({"register": reg, "lane": lane}) == {"dim0": dim0, "dim1": dim1}


@pytest.mark.parametrize(
    "inputs, message",
    [
        ({"register": 1}, "no value for in-dim 'lane'"),
        ({"register": 1, "lane": 2, "warp": 0}, "'warp' is not an in-dim"),
        ({"register": -1, "lane": 2}, "is negative"),
        ([("register", 1), ("register", 2), ("lane", 0)], "given twice"),
    ],
)
def test_apply_errors_come_from_the_library(inputs, message):
    with pytest.raises(ValueError, match=message):
        tile().apply(inputs)


def test_apply_refuses_what_is_not_a_name_or_an_int():
    with pytest.raises((TypeError, RuntimeError, ValueError)):
        tile().apply({"register": "1", "lane": 2})
    with pytest.raises((TypeError, RuntimeError, ValueError)):
        tile().apply({0: 1, "lane": 2})
    with pytest.raises(TypeError):
        tile().apply()


def test_from_bases_forms_agree():
    base = tile()
    assert LinearLayout.from_bases(tuple((n, tuple(map(tuple, v))) for n, v in BASES),
                                   ("dim0", "dim1")) == base
    assert LinearLayout.from_bases(bases=BASES, out_dim_names=["dim0", "dim1"]) == base
    assert LinearLayout.from_bases(BASES, ["dim0", "dim1"], [16, 8]) == base
    assert LinearLayout.from_bases(BASES, ["dim0", "dim1"], [16, 8], True) == base
    assert LinearLayout.from_bases(BASES, ["dim0", "dim1"], None, True) == base
    assert LinearLayout.from_bases(BASES, ["dim0", "dim1"], [16, 8], 1) == base
    assert LinearLayout.from_bases([(fresh(n), v) for n, v in BASES], ["dim0", "dim1"]) == base
    numpy_bases = [(n, [[np.int64(c) for c in b] for b in v]) for n, v in BASES]
    assert LinearLayout.from_bases(numpy_bases, ["dim0", "dim1"]) == base
    wide = LinearLayout.from_bases(BASES, ["dim0", "dim1"], [32, 8], False)
    assert wide.out_dims == [("dim0", 32), ("dim1", 8)] and not wide.is_surjective()
    assert LinearLayout.from_bases([], []) == LinearLayout()


@pytest.mark.parametrize(
    "args, message",
    [
        (([("x", [[1, 0]])], ["y"]), "has 2 components for 1 out-dims"),
        (([("x", [[-1]])], ["y"], [4], False), "is negative"),
        (([("x", [[1]])], ["y"], [-4], False), "is negative"),
        (([("x", [[1]])], ["y"], [3], False), "power of two"),
        (([("x", [[1]])], ["y"], [2, 4]), "same length"),
        (([("x", [[1]])], ["y"], None, False), "out_dim_sizes must be provided"),
        (([("x", [[2]])], ["y"]), "not surjective"),
        (([("x", [[2]])], ["y"], [4], True), "not surjective"),
        (([("x", [[1]]), ("x", [[1]])], ["y"], [4], False), "x"),
    ],
)
def test_from_bases_errors_are_the_same_both_ways(args, message):
    with pytest.raises(ValueError, match=message):
        LinearLayout.from_bases(*args)
    keywords = dict(zip(["bases", "out_dim_names", "out_dim_sizes", "require_surjective"], args))
    with pytest.raises(ValueError, match=message):
        LinearLayout.from_bases(**keywords)


def test_from_bases_refuses_malformed_arguments():
    for bad in [([("x",)], ["y"]), ([("x", [[1]], 3)], ["y"]), ([("x", [["a"]])], ["y"]),
                ([(1, [[1]])], ["y"]), ([("x", [[1]])], [0]), ("x", ["y"])]:
        with pytest.raises((TypeError, RuntimeError, ValueError)):
            LinearLayout.from_bases(*bad)
    with pytest.raises(TypeError):
        LinearLayout.from_bases([("x", [[1]])])


def test_equality_hash_and_text():
    a, b = tile(), tile()
    other = LinearLayout.identity_1d(4, "x", "y")
    assert a == b and not (a != b) and hash(a) == hash(b)
    assert a != other and not (a == other)
    assert (a == 5) is False and (a != 5) is True and (a == None) is False  # noqa: E711
    assert len({a, b, other}) == 2 and {a: 1}[b] == 1
    assert str(a) == repr(a) and str(a).startswith("\n - register=1 -> (0, 1)")
    assert pickle.loads(pickle.dumps(a)) == a


def test_text_with_dim_names_outside_ascii():
    # str copies the text when every name is ASCII and decodes it as UTF-8 otherwise: a name
    # outside ASCII, on either side, must come out as it went in.
    reference = str(LinearLayout.from_bases([("QQ", [[1], [2]])], ["ZZ"]))
    for in_dim, out_dim in [("régistre", "dim0"), ("reg", "dïm"), ("レーン", "列"), ("x", "y")]:
        l = LinearLayout.from_bases([(in_dim, [[1], [2]])], [out_dim])
        assert str(l) == reference.replace("QQ", in_dim).replace("ZZ", out_dim)
        assert repr(l) == str(l) and str(l).isascii() == (in_dim + out_dim).isascii()


def test_a_python_subclass_is_still_a_layout():
    class Tile(LinearLayout):
        pass

    t = Tile()
    assert t == LinearLayout() and hash(t) == hash(LinearLayout()) and str(t) == str(LinearLayout())
    assert (LinearLayout.identity_1d(2, "x", "y") * t) == LinearLayout.identity_1d(2, "x", "y")


def test_an_uninitialised_object_is_refused_not_read():
    raw = LinearLayout.__new__(LinearLayout)
    with pytest.raises(TypeError, match="not initialised"):
        str(raw)
    with pytest.raises(TypeError, match="not initialised"):
        hash(raw)
    with pytest.raises(TypeError, match="not initialised"):
        raw.invert()
    # The counts are member slots filled when an object is initialised: empty here.
    with pytest.raises(AttributeError, match="num_in_dims"):
        raw.num_in_dims
    with pytest.raises(TypeError, match="not initialised"):
        raw.out_dims
    assert (raw == tile()) is False


def test_the_counts_are_filled_by_every_way_of_making_a_layout():
    """num_in_dims, num_out_dims and total_{in,out}_dim_size_log2 are member slots filled as
    pybind11 initialises each object: constructors, results of ops, pickling, copies, subclasses
    and the library's other functions all fill them, and freeing an object releases them."""
    import copy
    import pickle
    import sys

    class Sub(LinearLayout):
        pass

    l = tile()
    made = {
        "init": LinearLayout(),
        "identity_1d": LinearLayout.identity_1d(8, "x", "y"),
        "zeros_1d": LinearLayout.zeros_1d(4, "x", "y", 2),
        "from_bases": l,
        "*": l * LinearLayout.identity_1d(2, "warp", "dim2"),
        "invert": l.invert(),
        "compose": l.compose(l.invert()),
        "transpose_outs": l.transpose_outs(["dim1", "dim0"]),
        "sublayout": l.sublayout(["lane"], ["dim1"]),
        "pickle": pickle.loads(pickle.dumps(l)),
        "copy": copy.copy(l),
        "deepcopy": copy.deepcopy(l),
        "subclass": Sub(),
        "to_linear_layout": gf2layout.to_linear_layout(
            "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], "
            "order = [1, 0]}>",
            [64, 64],
        ),
    }
    for how, m in made.items():
        ins, outs = m.in_dims, m.out_dims
        assert (m.num_in_dims, m.num_out_dims) == (len(ins), len(outs)), how
        assert m.total_in_dim_size_log2 == sum(s.bit_length() - 1 for _, s in ins), how
        assert m.total_out_dim_size_log2 == sum(s.bit_length() - 1 for _, s in outs), how
    # Freed objects give their counts back: no reference to a small int accumulates.
    before = sys.getrefcount(7)
    for _ in range(2000):
        LinearLayout.identity_1d(128, "x", "y").num_in_dims
    assert sys.getrefcount(7) - before < 100


def test_algebra_methods():
    l = tile()
    inv = l.invert()
    identity = LinearLayout.identity_1d(16, "dim0", "dim0") * LinearLayout.identity_1d(
        8, "dim1", "dim1"
    )
    assert inv.compose(l) == identity  # l(inv(x)) = x
    # l(inv(x)) = x, checked pointwise.
    for d0 in range(16):
        for d1 in range(8):
            r = inv.apply({"dim0": d0, "dim1": d1})
            assert l.apply(r) == {"dim0": d0, "dim1": d1}
    assert l.invert_and_compose(l) == LinearLayout.identity_1d(4, "register", "register") * (
        LinearLayout.identity_1d(32, "lane", "lane")
    )
    assert l.pseudoinvert() == inv
    assert (l.is_surjective(), l.is_injective(), l.is_invertible()) == (True, True, True)
    z = LinearLayout.zeros_1d(4, "x", "y")
    assert (z.is_surjective(), z.is_injective(), z.is_invertible()) == (True, False, False)
    with pytest.raises(ValueError):
        z.invert()
    with pytest.raises(ValueError):
        l.compose(z)
    with pytest.raises(TypeError, match="expected a LinearLayout, not int"):
        l.compose(3)
    with pytest.raises(TypeError):
        l.compose(outer=l)  # positional only, as Triton's binding
    with pytest.raises(TypeError):
        l * 2
    huge = LinearLayout.identity_1d(1 << 40, "x", "y")
    with pytest.raises(ValueError):
        huge * huge  # x would need 80 bits
    acc = LinearLayout.identity_1d(2, "x", "y")
    acc *= LinearLayout.identity_1d(2, "x", "y")
    assert acc == LinearLayout.identity_1d(4, "x", "y")


def test_dim_properties_and_interned_names():
    l = tile()
    assert l.get_in_dim_names() == ["register", "lane"] and l.get_out_dim_names() == ["dim0", "dim1"]
    assert l.in_dims == [("register", 4), ("lane", 32)] and l.out_dims == [("dim0", 16), ("dim1", 8)]
    assert (l.num_in_dims, l.num_out_dims) == (2, 2)
    assert (l.total_in_dim_size_log2, l.total_out_dim_size_log2) == (7, 7)
    assert l.bases == [(n, [list(v) for v in vs]) for n, vs in BASES]
    # The same name object everywhere, so dicts built from one match the next call by identity.
    assert l.get_in_dim_names()[1] is l.in_dims[1][0] is l.bases[1][0]
    with pytest.raises(AttributeError):
        l.num_in_dims = 3
    big = LinearLayout.identity_1d(1 << 62, "x", "y")
    assert big.in_dims == [("x", 1 << 62)] and big.bases[0][1][61] == [1 << 61]


def test_dim_size_pairs_are_shared_and_the_lists_fresh():
    """in_dims / out_dims hand out one cached (name, size) tuple per name and size, for the first
    4096 interned names; names past those get new tuples. The lists are new on every call."""
    l = tile()
    first = l.out_dims
    first.append(("mutated", 1))
    first[0] = ("dim0", 999)
    assert l.out_dims == [("dim0", 16), ("dim1", 8)]
    assert l.out_dims[1] is l.out_dims[1]
    # Sizes 1 .. 2^62 on the same names, and names past the cached range: every pair right.
    for log2 in (0, 1, 31, 32, 62):
        z = LinearLayout.zeros_1d(1 << log2, "xin", "yout", 1 << log2)
        assert z.in_dims == [("xin", 1 << log2)] and z.out_dims == [("yout", 1 << log2)]
    for n in range(4200):
        name_in, name_out = f"pair_in_{n}", f"pair_out_{n}"
        m = LinearLayout.identity_1d(2 << (n % 8), name_in, name_out)
        assert m.in_dims == [(name_in, 2 << (n % 8))] and m.out_dims == [(name_out, 2 << (n % 8))]


def test_the_module_binds_its_own_symbols():
    """The module binds its calls to its own copies of the project's and nlohmann::json's code
    (python/CMakeLists.txt: --exclude-libs, -Bsymbolic): a library loaded later that exports the
    same template instantiations (Triton's libtriton does) must not interpose them."""
    import shutil
    import subprocess
    import sys

    from gf2layout import _core

    nm, readelf = shutil.which("nm"), shutil.which("readelf")
    if not sys.platform.startswith("linux") or not nm or not readelf:
        pytest.skip("needs nm and readelf on Linux")
    symbols = subprocess.run(
        [nm, "-D", "--defined-only", "-C", _core.__file__], check=True, capture_output=True, text=True
    ).stdout
    assert "PyInit__core" in symbols
    assert [s for s in symbols.splitlines() if "layout::" in s] == []
    dynamic = subprocess.run(
        [readelf, "-d", _core.__file__], check=True, capture_output=True, text=True
    ).stdout
    assert "SYMBOLIC" in dynamic


def _random_value(rng, depth=0):
    kinds = ["int", "int", "neg", "huge", "str", "none", "bool", "float", "np"]
    if depth < 3:
        kinds += ["list", "list", "tuple"]
    kind = rng.choice(kinds)
    if kind == "int":
        return rng.randrange(0, 9)
    if kind == "neg":
        return -rng.randrange(1, 5)
    if kind == "huge":
        return 1 << rng.choice([62, 63, 64, 80])
    if kind == "str":
        return rng.choice(["x", "y", "dim0", "register", ""])
    if kind == "none":
        return None
    if kind == "bool":
        return rng.choice([True, False])
    if kind == "float":
        return 1.0
    if kind == "np":
        return np.int64(rng.randrange(0, 4))
    items = [_random_value(rng, depth + 1) for _ in range(rng.randrange(0, 4))]
    return items if kind == "list" else tuple(items)


def _outcome(call):
    try:
        return ("ok", call())
    except Exception as e:  # noqa: BLE001 - the type and message are what is compared
        # pybind11's TypeError ends with the call as made (positional or keyword): cut there.
        return (type(e).__name__, str(e).split("Invoked with")[0])


def test_fast_and_general_paths_agree_on_random_arguments():
    """A differential fuzz of the fast paths' argument parsing: random (often malformed) arguments,
    positionally (the fast path when the forms fit) and by keyword (always the general binding).
    Both must return equal layouts or raise the same error; nothing may crash."""
    import random

    rng = random.Random(19)
    for _ in range(3000):
        bases = rng.choice([
            _random_value(rng),
            [(rng.choice(["x", "y"]), _random_value(rng)) for _ in range(rng.randrange(0, 3))],
            [("x", [[rng.randrange(0, 5)] for _ in range(rng.randrange(0, 4))])],
        ])
        names = rng.choice([["y"], ["y", "z"], _random_value(rng)])
        args = [bases, names]
        if rng.random() < 0.7:
            args.append(rng.choice([None, [4], [8, 2], _random_value(rng)]))
            if rng.random() < 0.5:
                args.append(rng.choice([True, False, 1, None]))
        keywords = dict(zip(["bases", "out_dim_names", "out_dim_sizes", "require_surjective"], args))
        fast = _outcome(lambda: LinearLayout.from_bases(*args))
        general = _outcome(lambda: LinearLayout.from_bases(**keywords))
        assert fast == general, (args, fast, general)

    l = tile()
    for _ in range(3000):
        inputs = {}
        for _ in range(rng.randrange(0, 4)):
            key = rng.choice(["register", "lane", "warp", fresh("lane"), 0])
            inputs[key] = rng.choice([rng.randrange(0, 64), -1, 1 << 64, "1", None, np.uint8(3)])
        fast = _outcome(lambda: l.apply(inputs))
        general = _outcome(lambda: l.apply(inputs=inputs))
        assert fast == general, (inputs, fast, general)
