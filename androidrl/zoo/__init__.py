"""Hyperparameters for rl-zoo3 (DLR-RM/rl-baselines3-zoo), in its own format, for androidrl's SB3-ready ids.

``python -m rl_zoo3.train --algo ppo --env androidrl/TapTargetPixels-v0 --gym-packages androidrl
--conf-file androidrl.zoo.ppo`` trains PPO with a CNN policy on any ``...Pixels-v0`` id:
``--conf-file`` takes a module with a ``hyperparams`` mapping, which :mod:`androidrl.zoo.ppo`
reads from the rl-zoo3 YAML file beside it (``ppo.yml``; pass that file's path instead to
edit a copy). ``--gym-packages androidrl`` makes rl-zoo3 import androidrl, which registers the ids.
"""
