"""Train and test splits of device configurations (parameter values split in :mod:`androidrl.tasks.generators`).

The grid crosses theme, font scale, display density and locale; a fixed list holds out the
German locale and the largest font scale for the test split, so a policy trained on the train
split meets configurations it never saw. An episode with ``device_config="split"`` draws one
configuration of its split and applies it (``config`` step commands) before its reset steps.
"""

from __future__ import annotations

import itertools
from typing import Literal

from androidrl.tasks.steps import DeviceConfig

THEMES = ("light", "dark")
FONT_SCALES = (0.85, 1.0, 1.15, 1.3)
DENSITIES = ("small", "default", "large")
LOCALES = ("en-US", "de-DE")
#: Density names as ``wm density`` values on a 160-dpi baseline.
DENSITY_DPI: dict[str, int | Literal["reset"]] = {"small": 140, "default": "reset", "large": 180}
#: What is held out for testing: a configuration with any of these is in the test split.
TEST_LOCALES = frozenset({"de-DE"})
TEST_FONT_SCALES = frozenset({1.3})


def device_configs(split: Literal["train", "test"]) -> list[DeviceConfig]:
    """Every configuration of the grid in ``split``, in a fixed order."""
    configs = []
    for theme, font, density, locale in itertools.product(THEMES, FONT_SCALES, DENSITIES, LOCALES):
        test = locale in TEST_LOCALES or font in TEST_FONT_SCALES
        if test == (split == "test"):
            configs.append(DeviceConfig(theme=theme, font_scale=font, density=DENSITY_DPI[density], locale=locale))
    return configs
