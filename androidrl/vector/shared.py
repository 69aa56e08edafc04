"""Observations in shared memory: each worker writes its envs' observations once, the parent reads them in place.

Images are the bulk of a step (an 84x84x3 observation is 21 KB); passing them through a
pipe means a pickle, a copy into the pipe and an unpickle per step. Here the parent
allocates one block per observation part (a ``Box``, or each ``Box`` of a ``Dict``), the
workers write their slots, and only the small rest of a step crosses the pipe.
"""

from __future__ import annotations

import ctypes
from multiprocessing.context import BaseContext
from typing import Any

import gymnasium as gym
import numpy as np

_ARRAYS = (gym.spaces.Box, gym.spaces.MultiDiscrete)


def shareable(space: gym.Space) -> bool:
    """Whether observations of ``space`` can live in shared memory (an array space, or a Dict of them)."""
    if isinstance(space, gym.spaces.Dict):
        return all(isinstance(s, _ARRAYS) for s in space.spaces.values())
    return isinstance(space, _ARRAYS)


def blank(space: gym.Space) -> Any:
    """A blank member of ``space``: zeros for arrays, "" for text (what a device that is down shows)."""
    if isinstance(space, gym.spaces.Dict):
        return {k: blank(s) for k, s in space.spaces.items()}
    if isinstance(space, _ARRAYS):
        return np.zeros(space.shape, dtype=space.dtype)
    if isinstance(space, gym.spaces.Text):
        return ""
    return space.sample()


class ObservationBuffer:
    """``n`` observations of a Box or Dict-of-Box space in shared memory, one slot per env.

    Build it in the parent before starting the workers (they inherit or receive it) and
    call :meth:`attach` in each process before use.
    """

    def __init__(self, space: gym.Space, n: int, context: BaseContext) -> None:
        if not shareable(space):
            raise TypeError(f"only array (or Dict-of-array) observations go in shared memory, got {space}")
        self.space = space
        self.n = n
        boxes = space.spaces if isinstance(space, gym.spaces.Dict) else {None: space}
        self._layout = {key: (box.shape, box.dtype) for key, box in boxes.items()}
        self._blocks = {
            key: context.RawArray(ctypes.c_uint8, max(1, n * int(np.prod(shape)) * np.dtype(dtype).itemsize))
            for key, (shape, dtype) in self._layout.items()
        }
        self._views: dict[Any, np.ndarray] | None = None

    def attach(self) -> None:
        """Map the blocks as numpy arrays in this process (cheap; idempotent)."""
        if self._views is None:
            self._views = {
                key: np.frombuffer(self._blocks[key], dtype=dtype, count=self.n * int(np.prod(shape))).reshape(
                    (self.n, *shape)
                )
                for key, (shape, dtype) in self._layout.items()
            }

    def __getstate__(self) -> dict[str, Any]:  # sent to spawned workers: the blocks, not the views
        return {**self.__dict__, "_views": None}

    def write(self, slot: int, obs: Any) -> None:
        """Store ``obs`` in ``slot``."""
        self.attach()
        if None in self._views:
            self._views[None][slot] = obs
        else:
            for key, view in self._views.items():
                view[slot] = obs[key]

    def read(self, slot: int) -> Any:
        """A copy of the observation in ``slot``."""
        self.attach()
        if None in self._views:
            return self._views[None][slot].copy()
        return {key: view[slot].copy() for key, view in self._views.items()}

    def batch(self) -> Any:
        """A copy of every slot, batched like ``batch_space(space, n)``."""
        self.attach()
        if None in self._views:
            return self._views[None].copy()
        return {key: view.copy() for key, view in self._views.items()}
