"""InstructionObservation: what the agent is asked to do, in its observation.

The observation becomes a Dict: the screen image (``screen``, and the clickable mask when
there is one), the instruction as ``max_tokens`` integer token ids (``instruction``), and,
when there is a goal to name, its indices (``goal``): for a task whose parameters are
categorical, the index of each one's choice; for a suite, the task's index first. With
``fields=N``, the episode's structured fields (MiniWoB's: the values an instruction names, such
as the word to type) come as ``N`` rows of token ids (``fields``). SB3's
``MultiInputPolicy`` takes it; :class:`androidrl.train.extractors.InstructionExtractor`
embeds the tokens beside the CNN.

Tokens are words hashed into ``vocab_size - 1`` buckets (0 pads), so no vocabulary file is
downloaded and an instruction never seen before still has tokens.
"""

from __future__ import annotations

import re
import warnings
import zlib
from dataclasses import dataclass
from typing import Annotated, Any

import gymnasium as gym
import numpy as np
from pydantic import Field

from androidrl.env import AndroidEnv
from androidrl.tasks.spec_task import SpecTask
from androidrl.tasks.suite import TaskSuite

_WORD = re.compile(r"[a-z0-9]+")


@dataclass(frozen=True)
class HashTokenizer:
    """Words to ids: lowercase alphanumeric runs, each hashed (CRC-32) to ``1..vocab_size-1``; 0 pads."""

    vocab_size: int = 1024
    max_tokens: int = 16

    def words(self, text: str) -> list[str]:
        """The words of ``text``."""
        return _WORD.findall(text.lower())

    def __call__(self, text: str) -> np.ndarray:
        """``max_tokens`` ids (int64): the words' ids, then zeros; words beyond ``max_tokens`` are cut."""
        ids = np.zeros(self.max_tokens, dtype=np.int64)
        for i, word in enumerate(self.words(text)[: self.max_tokens]):
            ids[i] = 1 + zlib.crc32(word.encode()) % (self.vocab_size - 1)
        return ids

    def settings(self) -> dict[str, Any]:
        """What reproduces this tokenizer (saved with a run)."""
        return {"kind": "hashed-words", "hash": "crc32", "vocab_size": self.vocab_size, "max_tokens": self.max_tokens}


def _tasks(env: gym.Env) -> list[SpecTask]:
    task = env.unwrapped.task
    tasks = task.tasks if isinstance(task, TaskSuite) else [task]
    for t in tasks:
        if not isinstance(t, SpecTask) or not t.spec.instruction:
            raise ValueError(
                f"InstructionObservation needs tasks with an instruction; task {t.name!r} has none "
                "(write one in its spec: instruction: ...)"
            )
    return tasks


def _choices(task: SpecTask) -> dict[str, tuple]:
    """The categorical parameters of a task: name to its choices."""
    return {name: param.choice for name, param in sorted(task.spec.params.items()) if param.choice is not None}


class InstructionObservation(gym.ObservationWrapper):
    """The observation as a Dict: the screen, the instruction's token ids and (if any) the goal's indices.

    Args:
        env: An AndroidEnv (a task with an instruction, or a suite of such), wrapped so far to
            an image (``ScreenshotObservation``) or a Dict of images.
        max_tokens: Token ids per instruction (longer instructions are cut, with a warning
            naming the length needed).
        vocab_size: Hash buckets for words (ids 1..vocab_size-1; 0 pads).
        goal: Add the goal's indices (the task of a suite, each categorical parameter's choice).
        fields: Rows of field tokens (0: no ``fields`` key); a task's fields beyond them are left out.
        field_tokens: Token ids per field value.

    Raises:
        ValueError: A task without an instruction, or a bad size.

    Example:
        >>> env = InstructionObservation(ScreenshotObservation(AndroidEnv(VirtualDevice(), "open-app")))
        >>> sorted(env.observation_space.spaces)
        ['goal', 'instruction', 'screen']
    """

    def __init__(
        self,
        env: gym.Env,
        max_tokens: Annotated[int, Field(ge=1, le=256)] = 16,
        vocab_size: Annotated[int, Field(ge=2, le=1_000_000)] = 1024,
        goal: bool = True,
        fields: Annotated[int, Field(ge=0, le=16)] = 0,
        field_tokens: Annotated[int, Field(ge=1, le=64)] = 4,
    ) -> None:
        super().__init__(env)
        if not isinstance(env.unwrapped, AndroidEnv):
            raise TypeError(f"InstructionObservation wraps an AndroidEnv, got {type(env.unwrapped).__name__}")
        if isinstance(max_tokens, bool) or not isinstance(max_tokens, int) or not 1 <= max_tokens <= 256:
            raise ValueError(f"max_tokens must be an int in 1..256, got {max_tokens!r}")
        if isinstance(vocab_size, bool) or not isinstance(vocab_size, int) or vocab_size < 2:
            raise ValueError(f"vocab_size must be an int >= 2, got {vocab_size!r}")
        for name, value, low, high in (("fields", fields, 0, 16), ("field_tokens", field_tokens, 1, 64)):
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise ValueError(f"{name} must be an int in {low}..{high}, got {value!r}")
        self.tokenizer = HashTokenizer(vocab_size, max_tokens)
        self.fields = fields
        self.field_tokenizer = HashTokenizer(vocab_size, field_tokens)
        self._tasks = _tasks(env)
        self._suite = isinstance(env.unwrapped.task, TaskSuite)
        self._params = sorted({name for task in self._tasks for name in _choices(task)})
        inner = env.observation_space
        spaces = dict(inner.spaces) if isinstance(inner, gym.spaces.Dict) else {"screen": inner}
        spaces["instruction"] = gym.spaces.Box(0, vocab_size - 1, (max_tokens,), np.int64)
        sizes = ([len(self._tasks)] if self._suite else []) + [
            max(len(_choices(t).get(name, ())) for t in self._tasks) for name in self._params
        ]
        self.goal = goal and bool(sizes)
        if self.goal:
            spaces["goal"] = gym.spaces.MultiDiscrete(sizes)
        if fields:
            spaces["fields"] = gym.spaces.Box(0, vocab_size - 1, (fields, field_tokens), np.int64)
        self.observation_space = gym.spaces.Dict(spaces)
        self._tokens = np.zeros(max_tokens, dtype=np.int64)
        self._goal = np.zeros(len(sizes), dtype=np.int64)
        self._fields = np.zeros((fields, field_tokens), dtype=np.int64)
        self._warned: set[str] = set()

    def reset(self, **kwargs: Any):
        obs, info = self.env.reset(**kwargs)
        self._read_task(info)
        return self.observation(obs), info

    def step(self, action: Any):
        obs, reward, terminated, truncated, info = self.env.step(action)
        return self.observation(obs), reward, terminated, truncated, info

    def _read_task(self, info: dict[str, Any]) -> None:
        instruction = info.get("instruction") or ""
        self._tokens = self.tokenizer(instruction)
        self._fields[:] = 0
        for i, value in enumerate(list((info.get("fields") or {}).values())[: self.fields]):
            self._fields[i] = self.field_tokenizer(value)
        needed = len(self.tokenizer.words(instruction))
        if needed > self.tokenizer.max_tokens and instruction not in self._warned:
            self._warned.add(instruction)
            warnings.warn(
                f"the instruction {instruction!r} has {needed} words but max_tokens is "
                f"{self.tokenizer.max_tokens}: the rest is cut; set max_tokens to {needed} or more",
                stacklevel=3,
            )
        if self.goal:
            task = self.env.unwrapped.task
            current = task.current if isinstance(task, TaskSuite) else task
            values = [self._tasks.index(current)] if self._suite else []
            for name in self._params:
                choices = _choices(current).get(name, ())
                chosen = current.params.get(name)
                values.append(choices.index(chosen) if chosen in choices else 0)
            self._goal = np.asarray(values, dtype=np.int64)

    def observation(self, observation: Any) -> dict[str, Any]:
        """The Dict observation: the screen (or its Dict's parts), the instruction tokens, the goal."""
        out = dict(observation) if isinstance(observation, dict) else {"screen": observation}
        out["instruction"] = self._tokens.copy()
        if self.goal:
            out["goal"] = self._goal.copy()
        if self.fields:
            out["fields"] = self._fields.copy()
        return out
