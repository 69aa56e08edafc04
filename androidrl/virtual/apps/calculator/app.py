"""``com.android.calculator2``: AOSP's ExactCalculator, portrait.

Its layout is ExactCalculator's (res/layout/activity_calculator_port.xml, display_one_line.xml,
pad_numeric.xml, pad_operator_one_col.xml): the display holds the formula
(``com.android.calculator2:id/formula``) over the live result (``result``); under it the numeric
pad (``digit_0``..``digit_9``, ``dec_point``, ``eq``) beside the operators (``del`` — ``clr`` once a
result or error shows — ``op_div``, ``op_mul``, ``op_sub``, ``op_add``). As Calculator.java: in the
INPUT state the result line previews the value of an expression with an operator; ``=`` moves the
result into the formula's place (RESULT) or shows the error (ERROR); a digit then starts anew and an
operator goes on from the result. Typed text (``input text 12+7``) and DEL/ENTER reach it as the
activity's key events do (KeyMaps.keyForChar). German uses a decimal comma.
"""

from __future__ import annotations

from functools import partial

from androidrl.virtual.apps.calculator import expression as calc
from androidrl.virtual.system.framework.app import Activity, App
from androidrl.virtual.ui.views import FrameLayout, LinearLayout, TextView, View

PACKAGE = "com.android.calculator2"
MAIN = "com.android.calculator2.Calculator"
RID = PACKAGE + ":id/"
TAG = "Calculator"
DISPLAY_BG = (255, 255, 255)
NUMERIC_BG = (67, 67, 67)
OPERATOR_BG = (99, 99, 99)
ACCENT = (0, 188, 212)
FORMULA_COLOR = (60, 60, 60)
RESULT_COLOR = (128, 128, 128)
ERROR_COLOR = (211, 47, 47)
DISPLAY_DP = 56 + 96 + 72  # the toolbar, the formula and the result lines

STRINGS = {
    "": {
        "app_name": "Calculator", "desc_dec_point": "point", "desc_eq": "equals", "desc_del": "delete",
        "desc_clr": "clear", "desc_op_add": "plus", "desc_op_sub": "minus", "desc_op_mul": "multiply",
        "desc_op_div": "divide", "desc_formula": "No formula", "desc_result": "No result", "del": "del", "clr": "clr",
        "error_zero_divide": "Can't divide by 0", "error_syntax": "Bad expression", "error_nan": "Not a number",
        "dec_point": ".",
    },
    "de": {
        "app_name": "Rechner", "desc_dec_point": "Dezimalzeichen", "desc_eq": "ist gleich", "desc_del": "Löschen",
        "desc_clr": "Entfernen", "desc_op_add": "Plus", "desc_op_sub": "Minus", "desc_op_mul": "multiplizieren",
        "desc_op_div": "Dividieren", "desc_formula": "Keine Formel", "desc_result": "Kein Ergebnis", "del": "Entf",
        "clr": "CLR", "error_zero_divide": "Kein Teilen durch 0", "error_syntax": "Ausdrucksfehler",
        "error_nan": "Keine Zahl", "dec_point": ",",
    },
}  # fmt: skip

#: The operator column, top to bottom (pad_operator_one_col.xml): (id, what it adds, its description key).
OPERATORS = (("op_div", calc.DIV, "desc_op_div"), ("op_mul", calc.MUL, "desc_op_mul"),
             ("op_sub", calc.SUB, "desc_op_sub"), ("op_add", calc.ADD, "desc_op_add"))  # fmt: skip
NUMERIC_ROWS = (("7", "8", "9"), ("4", "5", "6"), ("1", "2", "3"), (".", "0", "="))


class CalculatorActivity(Activity):
    """The calculator: its expression and state (INPUT, RESULT or ERROR) are the activity's."""

    def on_create(self) -> None:
        self.expr = ""
        self.state = "input"
        self.value: calc.Fraction | None = None
        self.error = ""

    @property
    def title(self) -> str:  # type: ignore[override]
        return self.string("app_name")

    # ------------------------------------------------------------------ what the keys do

    def press(self, key: str) -> None:
        """A digit, ``.``, an operator, a parenthesis or ``%`` (Calculator.addExplicitKeyToExpr)."""
        if self.state == "result":
            starts_anew = key.isdigit() or key in (".", "(")
            self.expr = "" if starts_anew else self._result_expression()
        self.state = "input"
        if key == calc.SUB:  # an explicit minus first drops trailing + and − (removeTrailingAdditiveOperators)
            while self.expr[-1:] in (calc.ADD, calc.SUB) and len(self.expr) > 1:
                self.expr = self.expr[:-1]
        self.expr = calc.append(self.expr, key)

    def delete(self) -> None:
        self.state = "input"
        self.expr = calc.delete(self.expr)

    def clear(self) -> None:
        self.expr, self.state, self.value, self.error = "", "input", None, ""

    def equals(self) -> None:
        """``=``: an expression with an operator is evaluated; its result takes the formula's place."""
        if self.state != "input" or not calc.has_interesting_ops(self.expr):
            return
        try:
            self.value = calc.evaluate(self.expr)
        except calc.CalcError as err:
            self.state, self.error = "error", err.key
            self.log(TAG, f"{self.expr} = error {err.key}")
            return
        self.state = "result"
        self.log(TAG, f"{self.expr} = {self.format(self.value)}")

    def type_text(self, text: str) -> None:
        """Characters from a keyboard (KeyMaps.keyForChar); ``=`` evaluates."""
        for ch in text:
            if ch.isdigit() and ch.isascii():
                self.press(ch)
            elif ch in calc.CHARACTERS:
                self.press(calc.CHARACTERS[ch])
            elif ch == "=":
                self.equals()

    def on_key(self, code: int) -> bool:
        if code == 67:  # KEYCODE_DEL
            self.delete() if self.state == "input" else self.clear()
            return True
        if code in (66, 160, 70):  # ENTER, NUMPAD_ENTER, EQUALS
            self.equals()
            return True
        if code == 28:  # KEYCODE_CLEAR
            self.clear()
            return True
        return False

    # ------------------------------------------------------------------ display

    def format(self, value: calc.Fraction) -> str:
        decimal = self.string("dec_point")
        return calc.format_result(value, decimal=decimal, group="." if decimal == "," else ",")

    def shown(self, expr: str) -> str:
        """The formula as it shows: the locale's decimal separator."""
        return expr.replace(".", self.string("dec_point"))

    def preview(self) -> str:
        """The live result in the INPUT state ("" while it has no value)."""
        if not calc.has_interesting_ops(self.expr):
            return ""
        try:
            return self.format(calc.evaluate(self.expr))
        except calc.CalcError:
            return ""

    def _result_expression(self) -> str:
        """The result as the start of a new expression (Calculator.switchToInput)."""
        value = self.value if self.value is not None else calc.Fraction(0)
        text = str(value.numerator) if value.denominator == 1 else f"{float(abs(value)):.15g}"
        if value.denominator != 1 and value < 0:
            text = "-" + text
        return text.replace("-", calc.SUB)

    def build(self) -> View:
        s = self.string
        formula_text, result_text = self.shown(self.expr), self.preview()
        result_color = RESULT_COLOR
        if self.state == "result":
            formula_text, result_text, result_color = "", self.format(self.value), FORMULA_COLOR
        elif self.state == "error":
            result_text, result_color = s(self.error), ERROR_COLOR
        formula = TextView(formula_text, resource_id=RID + "formula", text_size=40, gravity="end", height=96,
                           padding=12, text_color=FORMULA_COLOR, long_clickable=True,
                           content_desc="" if self.expr else s("desc_formula"))  # fmt: skip
        result = TextView(result_text, resource_id=RID + "result", text_size=28 if self.state == "input" else 40,
                          gravity="end", height=96 if self.state == "result" else 72, padding=12,
                          text_color=result_color,
                          content_desc="" if result_text else s("desc_result"))  # fmt: skip
        # In RESULT the formula is translated off the display (not dumped) and the result takes its place.
        parts = [result] if self.state == "result" else [formula, result]
        display = LinearLayout(
            [View(height=56, resource_id=RID + "toolbar"), *parts],
            resource_id=RID + "display",
            background=DISPLAY_BG,
            height=DISPLAY_DP,
            focused=True,  # the activity takes the keyboard's keys (Calculator.onKeyUp, KeyMaps.keyForChar)
        )
        display.on_text, display.on_key = self.type_text, self.on_key
        return LinearLayout([display, self.pads(DISPLAY_DP)], height=-1)

    def pads(self, top_dp: float) -> View:
        """The numeric pad (3 x 4) beside the operator column (1 x 5), filling the screen below ``top_dp``.

        Laid out as GridLayouts place their cells: each button at its cell's offset (a FrameLayout
        child's ``x``/``y``), which costs no measuring.
        """
        s = self.string
        metrics = self.context.metrics
        width, height = metrics.width / metrics.scale, metrics.content_height_dp - top_dp
        cell_w, row_h, op_h = width / 4, height / 4, height / 5
        buttons: list[View] = []
        for r, keys in enumerate(NUMERIC_ROWS):
            for c, key in enumerate(keys):
                if key == ".":
                    button = self.button(s("dec_point"), "dec_point", partial(self.press, "."), s("desc_dec_point"))
                elif key == "=":
                    button = self.button("=", "eq", self.equals, s("desc_eq"), color=ACCENT)
                else:
                    button = self.button(key, "digit_" + key, partial(self.press, key))
                button.x, button.y, button.width, button.height = c * cell_w, r * row_h, cell_w, row_h
                buttons.append(button)
        numeric = FrameLayout(buttons, cls="android.widget.GridLayout", resource_id=RID + "pad_numeric",
                              background=NUMERIC_BG, width=3 * cell_w, height=height)  # fmt: skip
        if self.state == "input":
            ops = [self.button(s("del"), "del", self.delete, s("desc_del"), size=20)]
        else:
            ops = [self.button(s("clr"), "clr", self.clear, s("desc_clr"), size=20)]
        ops += [self.button(op, rid, partial(self.press, op), s(desc)) for rid, op, desc in OPERATORS]
        for r, button in enumerate(ops):
            button.y, button.width, button.height = r * op_h, cell_w, op_h
        operator = FrameLayout(ops, cls="android.widget.GridLayout", resource_id=RID + "pad_operator",
                               background=OPERATOR_BG, x=3 * cell_w, width=cell_w, height=height)  # fmt: skip
        return FrameLayout([numeric, operator], resource_id=RID + "pad_pager", height=height)

    @staticmethod
    def button(text: str, rid: str, on_click, desc: str = "", color=None, size: float = 32) -> View:
        return TextView(text, cls="android.widget.Button", resource_id=RID + rid, content_desc=desc, text_size=size,
                        gravity="center", clickable=True, focusable=True, text_color=(255, 255, 255),
                        background=color, on_click=on_click)  # fmt: skip


def calculator_app() -> App:
    """The Calculator package (its launcher activity, ``com.android.calculator2.Calculator``)."""
    return App(PACKAGE, "Calculator", "=", (95, 99, 104), {MAIN: CalculatorActivity}, MAIN, strings=STRINGS)
