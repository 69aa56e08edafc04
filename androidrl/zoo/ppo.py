"""rl-zoo3's ``--conf-file androidrl.zoo.ppo``: the ``hyperparams`` of ``ppo.yml``, beside this module."""

from pathlib import Path

import yaml

#: rl-zoo3's hyperparameters by env id (``default``: every androidrl ``...Pixels-v0`` id).
hyperparams = yaml.safe_load(Path(__file__).with_suffix(".yml").read_text())
