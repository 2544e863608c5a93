"""`loads_checked` parses most texts with the C parser alone (no Python call per number) and the
rest with a check of every number: both must give what the rule says (out of range: an integer of
more than MAX_INTEGER_DIGITS digits, a float literal that overflows), whichever path a text takes."""

from __future__ import annotations

import json
import math
import re

import pytest

from alfred_gen.traj.format import MAX_INTEGER_DIGITS, loads_checked

LITERALS = [
    "1" * MAX_INTEGER_DIGITS, "-" + "9" * MAX_INTEGER_DIGITS, "1" * (MAX_INTEGER_DIGITS + 1),
    "-" + "9" * (MAX_INTEGER_DIGITS + 1), "0", "-0", "12.5", "1.7976931348623157e308", "1e308", "2e308",
    "1e99", "1E+99", "1.5e-400", "1e-05", "0.1234567890123456789", "9" * 309 + ".0", "1" + "0" * 300 + ".5",
    "1" + "0" * 250 + "e99", "1" + "0" * 200 + "e99", "123456789012345678901.5e-30", "0." + "0" * 400 + "1",
    "1.2345678901234567e-05", "-1e400",
]


def out_of_range(literal: str) -> bool:
    """The rule, computed here without the parser's help."""
    value = json.loads(literal, parse_int=str, parse_float=float)
    if isinstance(value, str):
        return len(value.lstrip("-")) > MAX_INTEGER_DIGITS
    return not math.isfinite(value)


@pytest.mark.parametrize("literal", LITERALS)
@pytest.mark.parametrize("as_bytes", [False, True])
def test_each_number_is_read_or_refused_by_the_rule(literal: str, as_bytes: bool) -> None:
    text = '{"mask": [[30050, 3], [40000, 10]], "id": "Apple|+01.00|-00.25", "value": ' + literal + "}"
    if out_of_range(literal):
        with pytest.raises(ValueError, match=r"^\$\.value: number .* is out of range$"):
            loads_checked(text.encode() if as_bytes else text)
    else:
        data = loads_checked(text.encode() if as_bytes else text)
        assert data == json.loads(text) and type(data["value"]) is type(json.loads(literal))


@pytest.mark.parametrize("text", ['{"a": NaN}', '[Infinity]', '[-Infinity]', '{"a": 1e999, "b": NaN}'])
def test_what_is_not_json_is_refused_on_both_paths(text: str) -> None:
    with pytest.raises(ValueError, match=r"is not a JSON value|out of range"):
        loads_checked(text)


def test_long_digit_runs_inside_strings_are_only_strings() -> None:
    text = '{"name": "' + "4" * 40 + '", "n": 7, "e": "1e400"}'
    assert loads_checked(text) == {"name": "4" * 40, "n": 7, "e": "1e400"}


@pytest.mark.parametrize("text, path", [("[1e400]", "$[0]"), ('{"a":-1e400}', "$.a"), ('{"a":[0,\n2E+999]}', "$.a[1]")])
def test_a_number_right_after_a_bracket_colon_or_newline_is_still_checked(text: str, path: str) -> None:
    with pytest.raises(ValueError, match=rf"^{re.escape(path)}: number .* is out of range$"):
        loads_checked(text)


def test_names_that_look_like_exponents_are_strings() -> None:
    names = ["Cup_f306e730", "Egg_7c2e9408", "a1e234f", "3X08E93BHYZ74E6666", "1e400", "x 1e400"]
    assert loads_checked(json.dumps({"names": names, "n": [1, 2.5]})) == {"names": names, "n": [1, 2.5]}
