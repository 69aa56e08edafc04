"""The training application: YAML configs, run directories, composition, training, evaluation, analysis.

It sits above the runtime (``androidrl.env``, ``wrappers``, ``vector``...), which never
imports it. ``scripts/train.py`` and ``scripts/evaluate.py`` are its command lines.
"""

from androidrl.train.config import Config, ConfigError, load_config, parse_config
from androidrl.train.runs import Run

__all__ = ["Config", "ConfigError", "Run", "load_config", "parse_config"]
