"""symbols/lookup.py: kbreak's kernels found by the names people type, as
gdb's ``break`` matches linespecs, in a program crafted byte by byte with
real Itanium-mangled kernel names."""

from __future__ import annotations

import gc

import pytest

import crafted
from symbols.analysis import analyze_data
from symbols.lookup import Pattern, find_kernels, names_to_type, near_names, normalize, pattern, qualified_name

pytestmark = []  # no toolchain, no gdb: seconds (make check)

#: Each kernel's mangled name and its demangled signature (as c++filt writes it).
KERNELS = {
    "_Z10vector_addPKfS0_Pffi": "vector_add(float const*, float const*, float*, float, int)",
    "_Z5twicePf": "twice(float*)",
    "_Z5twicePi": "twice(int*)",
    "_ZN12_GLOBAL__N_112hidden_scaleEPf": "(anonymous namespace)::hidden_scale(float*)",
    "_ZN2ns4fillIfEEvPT_S1_i": "void ns::fill<float>(float*, float, int)",
    "_ZN2ns4fillIiEEvPT_S1_i": "void ns::fill<int>(int*, int, int)",
    "_ZN3zoo5inner4fillIiLi200EEEvPT_": "void zoo::inner::fill<int, 200>(int*)",
}
VECTOR_ADD = "_Z10vector_addPKfS0_Pffi"
TWICE_FLOAT, TWICE_INT = "_Z5twicePf", "_Z5twicePi"
HIDDEN = "_ZN12_GLOBAL__N_112hidden_scaleEPf"
NS_FLOAT, NS_INT = "_ZN2ns4fillIfEEvPT_S1_i", "_ZN2ns4fillIiEEvPT_S1_i"
ZOO = "_ZN3zoo5inner4fillIiLi200EEEvPT_"


@pytest.fixture(scope="module")
def report():
    return analyze_data(crafted.hip_program(list(KERNELS)), "lookup").report


def found(report, query: str, qualified: bool = False) -> list[str]:
    return [kernel.name for kernel in find_kernels(report, query, qualified)]


def test_the_report_has_the_kernels_demangled(report):
    assert {kernel.name: kernel.demangled for kernel in report.kernels} == KERNELS


# pure helpers


@pytest.mark.parametrize(
    "text, expected",
    [
        ("fill<int, 200>", "fill<int,200>"),
        ("  fill< int ,  200 >  ( int * ) ", "fill<int,200>(int*)"),
        ("unsigned   long", "unsigned long"),
        ("a :: b", "a::b"),
        ("float const*", "float const*"),
        ("(anonymous namespace)::f", "(anonymous namespace)::f"),
        ("", ""),
    ],
)
def test_normalize_keeps_spaces_only_between_words(text, expected):
    assert normalize(text) == expected


@pytest.mark.parametrize(
    "demangled, expected",
    [
        ("void ns::fill<float>(float*, float, int)", "ns::fill<float>"),
        ("void zoo::inner::fill<int, 200>(int*)", "zoo::inner::fill<int, 200>"),
        ("twice(int*)", "twice"),
        ("(anonymous namespace)::hidden_scale(float*)", "(anonymous namespace)::hidden_scale"),
        ("vector_add(float const*, float const*, float*, float, int)", "vector_add"),
        ("extern_c_kernel", "extern_c_kernel"),
        ("S::operator()(int)", "S::operator()"),
    ],
)
def test_qualified_name_drops_return_type_and_parameters(demangled, expected):
    assert qualified_name(demangled) == expected


@pytest.mark.parametrize(
    "query, expected",
    [
        ("fill", Pattern(("fill",), None)),
        ("inner::fill", Pattern(("inner", "fill"), None)),
        ("fill< int , 200 >", Pattern(("fill<int,200>",), None)),
        ("ns::fill<float>(float*, float, int)", Pattern(("ns", "fill<float>"), "float*,float,int")),
        ("void twice(int *)", Pattern(("twice",), "int*")),
        ("twice(void)", Pattern(("twice",), "")),
        ("twice()", Pattern(("twice",), "")),
        ("(anonymous namespace)::hidden_scale", Pattern(("(anonymous namespace)", "hidden_scale"), None)),
        ("S::operator()(int)", Pattern(("S", "operator()"), "int")),
        ("operator()", Pattern(("operator()",), None)),
    ],
)
def test_pattern(query, expected):
    assert pattern(query) == expected


# find_kernels


@pytest.mark.parametrize(
    "query, expected",
    [
        ("fill", [NS_FLOAT, NS_INT, ZOO]),
        ("inner::fill", [ZOO]),
        ("zoo::inner::fill", [ZOO]),
        ("ns::fill", [NS_FLOAT, NS_INT]),
        ("twice", [TWICE_FLOAT, TWICE_INT]),
        ("vector_add", [VECTOR_ADD]),
        (" twice ", [TWICE_FLOAT, TWICE_INT]),
    ],
)
def test_wild_matching_by_last_scopes(report, query, expected):
    assert found(report, query) == expected


@pytest.mark.parametrize("query", ["zoo::fill", "ns::inner::fill", "::fill", "fil", "ill", "Fill", "inner", "ns"])
def test_scopes_and_names_match_whole(report, query):
    assert found(report, query) == []


@pytest.mark.parametrize(
    "query, expected",
    [
        ("ns::fill<float>", [NS_FLOAT]),
        ("ns::fill< float >", [NS_FLOAT]),
        ("ns::fill<int>", [NS_INT]),
        ("fill<float>", [NS_FLOAT]),
        ("fill<int, 200>", [ZOO]),
        ("fill<int,200>", [ZOO]),
        ("inner::fill< int ,200 >", [ZOO]),
        ("ns::fill<double>", []),
        ("fill<int, 201>", []),
        ("ns::fill<int, 200>", []),
    ],
)
def test_template_arguments_pick_one_instance(report, query, expected):
    assert found(report, query) == expected


@pytest.mark.parametrize(
    "query, expected",
    [
        ("twice(int*)", [TWICE_INT]),
        ("twice(int *)", [TWICE_INT]),
        ("twice(float*)", [TWICE_FLOAT]),
        ("twice(float)", []),
        ("twice()", []),
        ("twice(void)", []),
        ("ns::fill(int*, int, int)", [NS_INT]),
        ("fill(int*)", [ZOO]),
        ("fill<int, 200>(int*)", [ZOO]),
        ("ns::fill<int>(float*, float, int)", []),
        ("vector_add(float const*, float const*, float*, float, int)", [VECTOR_ADD]),
    ],
)
def test_parameters_pick_an_overload(report, query, expected):
    assert found(report, query) == expected


@pytest.mark.parametrize("mangled, demangled", list(KERNELS.items()))
def test_the_whole_signature_or_the_mangled_name_finds_one_kernel(report, mangled, demangled):
    assert found(report, demangled) == [mangled]
    assert found(report, mangled) == [mangled]
    assert found(report, demangled, qualified=True) == [mangled]
    assert found(report, mangled, qualified=True) == [mangled]


def test_the_whole_signature_with_other_spaces(report):
    assert found(report, "void  ns::fill<float>(float*,float,int)") == [NS_FLOAT]
    assert found(report, "void zoo::inner::fill<int,200>(int *)") == [ZOO]


def test_a_mangled_name_is_matched_exactly(report):
    assert found(report, "_Z5twiceP") == []
    assert found(report, "_z5twicepi") == []


@pytest.mark.parametrize(
    "query, expected",
    [
        ("zoo::inner::fill", [ZOO]),
        ("zoo::inner::fill<int, 200>", [ZOO]),
        ("ns::fill", [NS_FLOAT, NS_INT]),
        ("ns::fill<float>", [NS_FLOAT]),
        ("twice", [TWICE_FLOAT, TWICE_INT]),
        ("twice(int*)", [TWICE_INT]),
        ("(anonymous namespace)::hidden_scale", [HIDDEN]),
        ("fill", []),
        ("inner::fill", []),
        ("fill<float>", []),
        ("fill<int, 200>(int*)", []),
        ("hidden_scale", []),
    ],
)
def test_qualified_needs_the_whole_name(report, query, expected):
    assert found(report, query, qualified=True) == expected


@pytest.mark.parametrize(
    "query",
    [
        "hidden_scale",
        "hidden_scale(float*)",
        "(anonymous namespace)::hidden_scale",
        "(anonymous  namespace) :: hidden_scale",
    ],
)
def test_a_kernel_in_an_anonymous_namespace(report, query):
    assert found(report, query) == [HIDDEN]


@pytest.mark.parametrize("query", ["", "nothing", "twice(double*)", "hidden_scale(int*)", "vector_add<int>", "ns"])
def test_no_match(report, query):
    assert found(report, query) == []
    assert found(report, query, qualified=True) == []


def test_each_report_answers_for_its_own_kernels():
    """The index is kept per report: a later report (which may reuse a
    collected one's id) must not be answered from the earlier's."""
    first = analyze_data(crafted.hip_program(["_Z5twicePi"]), "first").report
    assert found(first, "twice") == ["_Z5twicePi"]
    del first
    gc.collect()
    for _ in range(3):
        other = analyze_data(crafted.hip_program(["_Z5twicePf", "_Z10vector_addPKfS0_Pffi"]), "other").report
        assert found(other, "twice") == ["_Z5twicePf"]
        assert found(other, "vector_add") == ["_Z10vector_addPKfS0_Pffi"]
        del other
        gc.collect()


# near_names


@pytest.mark.parametrize(
    "query, expected",
    [
        ("twicee", ["twice"]),
        ("twice(float)", ["twice"]),
        ("vectoradd", ["vector_add"]),
        ("ns::fil", ["ns::fill<int>", "ns::fill<float>"]),
        ("ns::fill<double>", ["ns::fill<float>", "ns::fill<int>"]),
        ("inner::fil", ["zoo::inner::fill<int, 200>", "ns::fill<int>"]),
        ("zzz", []),
    ],
)
def test_near_names_suggest_qualified_names(report, query, expected):
    assert near_names(report, query) == expected


def test_near_names_limit(report):
    assert near_names(report, "ns::fil", limit=1) == ["ns::fill<int>"]


# names_to_type

QUALIFIED_NAMES = {
    "(anonymous namespace)::hidden_scale",
    "(anonymous namespace)::hidden_scale(float*)",
    "ns::fill",
    "ns::fill<float>",
    "ns::fill<float>(float*, float, int)",
    "ns::fill<int>",
    "ns::fill<int>(int*, int, int)",
    "twice",
    "twice(float*)",
    "twice(int*)",
    "vector_add",
    "vector_add(float const*, float const*, float*, float, int)",
    "zoo::inner::fill",
    "zoo::inner::fill<int, 200>",
    "zoo::inner::fill<int, 200>(int*)",
}
SHORTER_NAMES = {
    "fill",
    "fill<float>",
    "fill<float>(float*, float, int)",
    "fill<int>",
    "fill<int>(int*, int, int)",
    "fill<int, 200>",
    "fill<int, 200>(int*)",
    "hidden_scale",
    "hidden_scale(float*)",
    "inner::fill",
    "inner::fill<int, 200>",
    "inner::fill<int, 200>(int*)",
}


def test_names_to_type_qualified(report):
    assert names_to_type(report, qualified=True) == QUALIFIED_NAMES


def test_names_to_type_with_each_shorter_name(report):
    assert names_to_type(report) == QUALIFIED_NAMES | SHORTER_NAMES


def test_every_name_to_type_finds_a_kernel(report):
    for name in names_to_type(report):
        assert found(report, name), name
    for name in names_to_type(report, qualified=True):
        assert found(report, name, qualified=True), name
