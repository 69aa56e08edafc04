"""Wrappers that turn AndroidEnv into spaces RL libraries train on."""

from androidrl.wrappers.action import BoxAction, DiscreteGridAction, MultiDiscreteAction, UIElementAction
from androidrl.wrappers.elements import ElementAction, ElementObservation
from androidrl.wrappers.instruction import HashTokenizer, InstructionObservation
from androidrl.wrappers.observation import Geometry, ScreenshotObservation

#: The action wrappers by the name a config's ``action.type`` (and a gym id's ``action={"type": ...}``) gives.
ACTION_WRAPPERS: dict[str, type] = {
    "grid": DiscreteGridAction,
    "multidiscrete": MultiDiscreteAction,
    "box": BoxAction,
    "ui_elements": UIElementAction,
    "elements": ElementAction,
}

__all__ = [
    "ACTION_WRAPPERS",
    "BoxAction",
    "DiscreteGridAction",
    "ElementAction",
    "ElementObservation",
    "Geometry",
    "HashTokenizer",
    "InstructionObservation",
    "MultiDiscreteAction",
    "ScreenshotObservation",
    "UIElementAction",
]
