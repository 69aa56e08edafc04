"""Calculator (``com.android.calculator2``) driven by taps on its keys and typed text; the formula and result
read from the UI dump, as ExactCalculator shows them.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from androidrl.device.virtual import VirtualDevice
from androidrl.ui import ui_elements
from androidrl.virtual.apps.calculator.expression import CalcError, append, evaluate, format_result
from androidrl.virtual.phone import VirtualPhone

from conftest import DENSITY, HEIGHT, WIDTH, tap_node

RID = "com.android.calculator2:id/"


@pytest.fixture
def calculator(phone: VirtualPhone) -> VirtualDevice:
    device = VirtualDevice(phone, timeout=5.0)
    device.shell("am start -n com.android.calculator2/.Calculator")
    return device


def display(device) -> dict[str, str]:
    """The formula and result lines (absent ones left out), and which of del/clr shows."""
    found = {}
    for element in ui_elements(device.dump_ui()):
        name = element.resource_id.removeprefix(RID)
        if name in ("formula", "result"):
            found[name] = element.text
        elif name in ("del", "clr"):
            found["key"] = name
    return found


def keys(device, *names: str) -> None:
    for name in names:
        tap_node(device, resource_id=RID + name)


def test_keys_build_the_formula_and_the_result_previews_then_takes_its_place(calculator, phone):
    keys(calculator, "digit_1", "digit_2", "op_add", "digit_7")
    assert display(calculator) == {"formula": "12+7", "result": "19", "key": "del"}
    keys(calculator, "op_mul", "digit_3")
    assert display(calculator) == {"formula": "12+7×3", "result": "33", "key": "del"}
    keys(calculator, "eq")
    assert display(calculator) == {"result": "33", "key": "clr"}
    assert calculator.shell("logcat -d -s Calculator").rstrip().endswith("12+7×3 = 33")
    keys(calculator, "op_sub", "digit_4", "eq")  # an operator goes on from the result
    assert display(calculator)["result"] == "29"
    keys(calculator, "digit_5")  # a digit starts anew
    assert display(calculator) == {"formula": "5", "result": "", "key": "del"}
    keys(calculator, "del")
    assert display(calculator)["formula"] == ""


def test_errors_decimals_and_clear(calculator):
    keys(calculator, "digit_8", "op_div", "digit_0")
    assert display(calculator)["result"] == ""  # no preview for a division by zero
    keys(calculator, "eq")
    assert display(calculator) == {"formula": "8÷0", "result": "Can't divide by 0", "key": "clr"}
    keys(calculator, "clr", "digit_1", "dec_point", "dec_point", "digit_5", "op_mul", "digit_4")
    assert display(calculator) == {"formula": "1.5×4", "result": "6", "key": "del"}


def test_typed_text_and_keys_reach_it(calculator):
    calculator.shell("input text '1000*1000'")
    assert display(calculator)["result"] == "1,000,000"
    calculator.shell("input keyevent ENTER")
    assert display(calculator) == {"result": "1,000,000", "key": "clr"}
    calculator.shell("input text 10/4 && input keyevent DEL && input text 8=")
    assert display(calculator)["result"] == "1.25"


def test_the_expression_rules_of_calculatorexpr():
    assert append("", "+") == "" and append("", "−") == "−"
    assert append("3+", "×") == "3×" and append("3×", "−") == "3×−"
    assert append("1.5", ".") == "1.5"
    assert evaluate("2+3×4") == 14 and evaluate("(2+3)×4") == 20 and evaluate("50%") == Fraction(1, 2)
    assert evaluate("7+") == 7 and evaluate("(1+2") == 3
    with pytest.raises(CalcError, match="error_zero_divide"):
        evaluate("1÷(2−2)")
    assert format_result(Fraction(-7, 2)) == "−3.5"
    assert format_result(Fraction(1, 3)) == "0.3333333333"
    assert format_result(Fraction(10**15)) == "1E15" and format_result(Fraction(123456789012345)) == "1.2345678E14"
    assert format_result(Fraction(123456789, 1000)) == "123,456.789" and format_result(Fraction(1, 10**8)) == "1E−8"


def test_german_uses_a_decimal_comma_and_dark_theme_darkens():
    phone = VirtualPhone(WIDTH, HEIGHT, DENSITY, locale="de-DE", night=True)
    device = VirtualDevice(phone)
    device.shell("am start -n com.android.calculator2/.Calculator")
    xml = device.dump_ui()
    assert 'text="," resource-id="com.android.calculator2:id/dec_point"' in xml
    assert 'content-desc="ist gleich"' in xml
    device.shell("input text 1,5*3")
    assert display(device) == {"formula": "1,5×3", "result": "4,5", "key": "del"}
    assert phone.screenshot()[40:200].mean() < 128  # the display is dark
