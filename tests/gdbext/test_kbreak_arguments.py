"""gdbext/commands/kbreak_arguments.py: kbreak's argument read as gdb reads
a linespec (spaces inside brackets and quotes belong to the name), its
options before or after the name, and its ``if CONDITION``."""

from __future__ import annotations

import pytest

from gdbext.commands.kbreak_arguments import OPTIONS, USAGE, Request, parse, words
from gdbext.lane_coordinates import ArgumentError

pytestmark = []  # no toolchain, no gdb: seconds (make check)


# words


@pytest.mark.parametrize(
    "text, expected",
    [
        ("", []),
        ("   ", []),
        ("vector_add", ["vector_add"]),
        ("  a \t b  ", ["a", "b"]),
        ("(anonymous namespace)::f", ["(anonymous namespace)::f"]),
        ("fill<int, 2>", ["fill<int, 2>"]),
        ("ns::fill<float>(float*, float, int) -block 1", ["ns::fill<float>(float*, float, int)", "-block", "1"]),
        ("map<pair<int, int>, x[1 2]>", ["map<pair<int, int>, x[1 2]>"]),
        ("'twice(int*)'", ["twice(int*)"]),
        ("'twice(int *)'", ["twice(int *)"]),
        ('"void twice(int*)" -launch', ["void twice(int*)", "-launch"]),
        ("'a b'c d", ["a bc", "d"]),
        ("k ''", ["k"]),
        ("'(' b", ["(", "b"]),  # a quoted bracket opens nothing
        ("a >b c", ["a", ">b", "c"]),  # a stray closing bracket closes nothing
    ],
)
def test_words_split_at_spaces_outside_brackets_and_quotes(text, expected):
    assert words(text) == expected


@pytest.mark.parametrize(
    "text, expected",
    [
        ("k 'a b", ["k", "a b"]),
        ('k "a', ["k", "a"]),
        ("'", [""]),
        ("k (a b", ["k", "(a b"]),
        ("fill<int, 2 -launch", ["fill<int, 2 -launch"]),
    ],
)
def test_an_unclosed_quote_or_bracket_ends_the_last_word(text, expected):
    assert words(text) == expected


# parse: names


@pytest.mark.parametrize(
    "argument, name",
    [
        ("vector_add", "vector_add"),
        ("(anonymous namespace)::f", "(anonymous namespace)::f"),
        ("fill<int, 2>", "fill<int, 2>"),
        ("'twice(int*)'", "twice(int*)"),
        ('"twice(int *)"', "twice(int *)"),
        ("void ns::fill<float>(float*, float, int)", "void ns::fill<float>(float*, float, int)"),
        ("  spaced   out  ", "spaced out"),
    ],
)
def test_the_name_is_the_words_that_are_not_options(argument, name):
    assert parse(argument) == Request(name)


def test_an_unclosed_quote_leaves_the_rest_in_the_name():
    assert parse("'twice(int*) -launch") == Request("twice(int*) -launch")
    assert parse("fill<int, 2 -launch") == Request("fill<int, 2 -launch")


# parse: options


def test_the_options_are_those_in_the_usage():
    assert OPTIONS == ("-launch", "-pending", "-qualified", "-block", "-thread")
    assert USAGE == (
        "usage: kbreak KERNEL [-qualified] [-launch] [-pending] [-block X,Y,Z] [-thread X,Y,Z] [if CONDITION]"
    )
    assert all(f"[{option}" in USAGE for option in OPTIONS)


@pytest.mark.parametrize("flag", ["launch", "pending", "qualified"])
@pytest.mark.parametrize("where", ["before", "after"])
def test_flags_before_or_after_the_name(flag, where):
    argument = f"-{flag} fill<int, 2>" if where == "before" else f"fill<int, 2> -{flag}"
    assert parse(argument) == Request("fill<int, 2>", **{flag: True})


@pytest.mark.parametrize("option", ["block", "thread"])
@pytest.mark.parametrize("where", ["before", "after"])
@pytest.mark.parametrize("value, expected", [("3", (3, 0, 0)), ("3,4", (3, 4, 0)), ("3,4,5", (3, 4, 5))])
def test_lane_options_before_or_after_the_name(option, where, value, expected):
    argument = (
        f"-{option} {value} (anonymous namespace)::f"
        if where == "before"
        else f"(anonymous namespace)::f -{option} {value}"
    )
    assert parse(argument) == Request("(anonymous namespace)::f", **{option: expected})


def test_all_options_at_once():
    assert parse("-qualified -pending 'ns::fill<float>' -block 1,2 -thread 0,0,7 if i == 3") == Request(
        "ns::fill<float>", pending=True, qualified=True, block=(1, 2, 0), thread=(0, 0, 7), condition="i == 3"
    )


def test_options_around_a_name_of_several_words():
    assert parse("void -pending twice(int*)") == Request("void twice(int*)", pending=True)


def test_a_repeated_lane_option_keeps_the_last_value():
    assert parse("k -block 1 -block 2,3") == Request("k", block=(2, 3, 0))


def test_block_zero_is_a_block():
    assert parse("k -block 0 -thread 0,0,0") == Request("k", block=(0, 0, 0), thread=(0, 0, 0))


@pytest.mark.parametrize("option", ["-block", "-thread"])
def test_a_lane_option_without_its_value(option):
    with pytest.raises(ArgumentError) as raised:
        parse(f"k {option}")
    assert str(raised.value) == f"kbreak: {option} needs X,Y,Z"


@pytest.mark.parametrize("option", ["-block", "-thread"])
def test_a_lane_option_without_its_value_before_a_condition(option):
    with pytest.raises(ArgumentError) as raised:
        parse(f"k {option} if x")
    assert str(raised.value) == f"kbreak: {option} needs X,Y,Z"


@pytest.mark.parametrize("value", ["x", "1,2,3,4", "-1", "1,,2", "1.5", "-launch", "1,"])
@pytest.mark.parametrize("option", ["-block", "-thread"])
def test_a_lane_option_with_a_bad_value(option, value):
    with pytest.raises(ArgumentError) as raised:
        parse(f"k {option} {value}")
    assert str(raised.value) == f"kbreak: {option} takes X[,Y[,Z]] (non-negative integers), not '{value}'"


def test_a_value_with_spaces_is_read_up_to_the_first_space():
    with pytest.raises(ArgumentError) as raised:
        parse("k -block 1, 2")
    assert str(raised.value) == "kbreak: -block takes X[,Y[,Z]] (non-negative integers), not '1,'"


@pytest.mark.parametrize("option", ["-x", "-Block", "--launch", "-", "-qualify"])
def test_an_unknown_option_shows_the_usage(option):
    with pytest.raises(ArgumentError) as raised:
        parse(f"k {option}")
    assert str(raised.value) == f"kbreak: unknown option {option}; {USAGE}"


@pytest.mark.parametrize("argument", ["", "   ", "-launch", "-pending -qualified", "-block 1", "''", "if x > 1", "if"])
def test_no_name_shows_the_usage(argument):
    with pytest.raises(ArgumentError) as raised:
        parse(argument)
    assert str(raised.value) == USAGE


@pytest.mark.parametrize("argument", ["k -launch -block 1", "-thread 1,2,3 k -launch", "-launch -block 0 -thread 0 k"])
def test_launch_with_lanes_conflicts(argument):
    with pytest.raises(ArgumentError) as raised:
        parse(argument)
    assert str(raised.value) == "kbreak: -block and -thread select simulated threads of a kernel, not of its launch"


def test_launch_alone():
    assert parse("-launch k") == Request("k", launch=True)


# parse: condition


@pytest.mark.parametrize(
    "argument, expected",
    [
        ("k if x > 1", Request("k", condition="x > 1")),
        ("k  if   x > 1  ", Request("k", condition="x > 1")),
        ("k\tif\tx", Request("k", condition="x")),
        ("k -block 1 if $_gpusym_lane_is(1)", Request("k", block=(1, 0, 0), condition="$_gpusym_lane_is(1)")),
        ("k if a -block 1", Request("k", condition="a -block 1")),  # options end at the condition
        ("k if x if y", Request("k", condition="x if y")),
        ("fill<int, 2> if n == 2", Request("fill<int, 2>", condition="n == 2")),
        ("'twice(int*)' if *p == 0", Request("twice(int*)", condition="*p == 0")),
    ],
)
def test_the_condition_is_what_follows_if(argument, expected):
    assert parse(argument) == expected


@pytest.mark.parametrize("argument", ["k if", "k if   ", "k -pending if"])
def test_an_empty_condition_is_none(argument):
    assert parse(argument).condition is None


@pytest.mark.parametrize(
    "argument, name",
    [
        ("diff_kernel", "diff_kernel"),
        ("iffy", "iffy"),
        ("kernel_if", "kernel_if"),
        ("ns::if_then::go", "ns::if_then::go"),
        ("modify(int*)", "modify(int*)"),
        ("diff if2", "diff if2"),
    ],
)
def test_if_inside_a_word_is_part_of_the_name(argument, name):
    assert parse(argument) == Request(name)


def test_if_inside_a_word_before_a_condition():
    assert parse("diff_kernel -block 2 if lifetime > 0") == Request(
        "diff_kernel", block=(2, 0, 0), condition="lifetime > 0"
    )


@pytest.mark.parametrize(
    ("argument", "name", "condition"),
    [
        ("'foo if bar'", "foo if bar", None),
        ('"foo if bar" if n > 0', "foo if bar", "n > 0"),
        ("'a if b' -launch if x", "a if b", "x"),
    ],
)
def test_if_inside_quotes_is_part_of_the_name(argument, name, condition):
    request = parse(argument)
    assert (request.name, request.condition) == (name, condition)
