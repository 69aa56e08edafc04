"""SB3's episode Monitor without SB3: a worker that loads it does not load torch.

Importing ``stable_baselines3.common.monitor`` runs SB3's package, which imports torch: ~180 MB
in every worker process that does not share the trainer's pages (forkserver, spawn). This
``Monitor`` does what SB3's does for a worker (``info["episode"]`` at an episode's end, the
same CSV: a ``#{"t_start": ..., "env_id": ...}`` line, then ``r,l,t`` and the info keywords)
and has SB3's class name, which is how :meth:`SB3VecEnv.env_is_wrapped` and so SB3's
``evaluate_policy`` recognise it. SB3's own vec envs test ``isinstance``: the ``subproc`` and
``dummy`` backends keep SB3's Monitor.
"""

from __future__ import annotations

import csv
import json
import time
from pathlib import Path
from typing import Any

import gymnasium as gym

#: The suffix of a Monitor's file (SB3's ``Monitor.EXT``: its ``load_results`` finds files by it).
EXT = "monitor.csv"


class MonitorWriter:
    """One Monitor CSV, as SB3's ``ResultsWriter`` writes it (a row per episode, flushed at once).

    Args:
        path: The file, or its stem (``worker_0`` → ``worker_0.monitor.csv``).
        header: The JSON of the first line (``t_start``, ``env_id``).
        extra_keys: Columns after ``r``, ``l`` and ``t``.
    """

    def __init__(self, path: str | Path, header: dict[str, Any], extra_keys: tuple[str, ...] = ()) -> None:
        path = Path(path)
        if not path.name.endswith(EXT):
            path = path.with_name(f"{path.name}.{EXT}")
        path.parent.mkdir(parents=True, exist_ok=True)
        self._file = path.open("w", newline="\n")
        self._rows = csv.DictWriter(self._file, fieldnames=("r", "l", "t", *extra_keys))
        self._file.write(f"#{json.dumps(header)}\n")
        self._rows.writeheader()
        self._file.flush()

    def write_row(self, row: dict[str, Any]) -> None:
        """Append one episode's row."""
        self._rows.writerow(row)
        self._file.flush()

    def close(self) -> None:
        """Close the file."""
        self._file.close()


class Monitor(gym.Wrapper):
    """Counts each episode's return and length and puts them in its last step's ``info["episode"]``.

    Args:
        env: The env (a worker's AndroidEnv: the Monitor comes first, as SB3's ``make_vec_env`` puts it).
        filename: Write the episodes to this CSV too (see :class:`MonitorWriter`).
        info_keywords: Keys of the last step's info that go into the episode's row.
    """

    def __init__(self, env: gym.Env, filename: str | Path | None = None, info_keywords: tuple[str, ...] = ()) -> None:
        super().__init__(env)
        self.t_start = time.time()
        self.info_keywords = info_keywords
        self._writer = None
        if filename is not None:
            env_id = env.spec.id if env.spec is not None else None
            self._writer = MonitorWriter(filename, {"t_start": self.t_start, "env_id": str(env_id)}, info_keywords)
        self._return, self._length = 0.0, 0
        self.needs_reset = True

    def reset(self, **kwargs: Any) -> tuple[Any, dict[str, Any]]:
        """Start counting a new episode."""
        self._return, self._length, self.needs_reset = 0.0, 0, False
        return self.env.reset(**kwargs)

    def step(self, action: Any) -> tuple[Any, Any, bool, bool, dict[str, Any]]:
        """Step, and at an episode's end add ``info["episode"]`` (``r``, ``l``, ``t`` and the info keywords)."""
        if self.needs_reset:
            raise RuntimeError("Tried to step environment that needs reset")  # (SB3's words)
        observation, reward, terminated, truncated, info = self.env.step(action)
        self._return += float(reward)
        self._length += 1
        if terminated or truncated:
            self.needs_reset = True
            episode = {"r": round(self._return, 6), "l": self._length, "t": round(time.time() - self.t_start, 6)}
            episode.update((key, info[key]) for key in self.info_keywords)
            if self._writer is not None:
                self._writer.write_row(episode)
            info["episode"] = episode
        return observation, reward, terminated, truncated, info

    def close(self) -> None:
        """Close the env and the file."""
        super().close()
        if self._writer is not None:
            self._writer.close()
