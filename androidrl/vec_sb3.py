"""Stable-Baselines3's ``VecEnv`` over devices; lives in :mod:`androidrl.vector.sb3` (this name is kept for imports)."""

from androidrl.vector.sb3 import RayVecEnv, SB3VecEnv, make_sb3_vec_env

__all__ = ["RayVecEnv", "SB3VecEnv", "make_sb3_vec_env"]
