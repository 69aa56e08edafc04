"""Wrappers that turn AndroidEnv into spaces RL libraries train on."""

from androidrl.wrappers.action import BoxAction, DiscreteGridAction, MultiDiscreteAction, UIElementAction
from androidrl.wrappers.elements import ElementAction, ElementObservation
from androidrl.wrappers.instruction import HashTokenizer, InstructionObservation
from androidrl.wrappers.observation import Geometry, ScreenshotObservation

__all__ = [
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
