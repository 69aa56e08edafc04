"""Episodes saved as a dataset — frames, UI XML, actions, rewards, infos — that load back.

Format ``androidrl-episodes/1``: a directory with ``meta.json`` and, per episode,

* ``episode_00000.npz`` (numpy, compressed):

  - ``observations``: what the agent saw, ``(T+1, ...)`` (from the reset to the last step)
  - ``frames``: the device screen, ``(T+1, H, W, 3)`` uint8 (downscaled to ``frame_height``)
  - ``actions``: the agent's actions, ``(T, ...)``
  - ``env_actions``: what was performed, ``(T, 5)`` int64: action type, x, y, target x, target y
    in screen pixels (:class:`~androidrl.spaces.EnvActionType` values)
  - ``rewards`` ``(T,)`` float32, ``terminated`` and ``truncated`` ``(T,)`` bool

* ``episode_00000.json``: ``infos`` (the reset info, then one per step), ``action_texts``
  (what each action did, in words), ``xml`` (UI dumps, when recorded), ``screen_size``,
  ``return``, ``length`` and ``success``.

``meta.json`` holds the recorded env's observation and action spaces, its Gymnasium spec
(``env_spec``: ``gym.make`` rebuilds the env from it) and the policy that played. Any policy
can record: wrap the env in :class:`EpisodeRecorder` and play. :func:`export_minari` turns a
recording into a Minari dataset (Farama's offline-RL format; ``minari.load_dataset`` reads
it, and ``recover_environment()`` makes its env again).

Why a recorder of our own rather than Minari's ``DataCollector``: it keeps what a Minari
dataset has no place for and what ``androidrl watch`` and the notebook show — the device's
screen at full size, the UI XML, the tap or swipe each action made and its description —
and ``DataCollector`` needs JAX (``minari[create]``), a large install androidrl does not
pull. The export hands the episodes to Minari as its own ``EpisodeBuffer`` s
(``create_dataset_from_buffers``), which needs nothing more.
"""

from __future__ import annotations

import json
import re
import warnings
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium.envs.registration import EnvSpec
from PIL import Image

from androidrl import provenance
from androidrl.spaces import PrintableText

FORMAT = "androidrl-episodes/1"


@dataclass
class Episode:
    """One recorded episode (see the module docstring for the fields)."""

    observations: np.ndarray | dict[str, np.ndarray]
    frames: np.ndarray
    actions: np.ndarray
    env_actions: np.ndarray
    rewards: np.ndarray
    terminated: np.ndarray
    truncated: np.ndarray
    infos: list[dict[str, Any]]
    action_texts: list[str]
    xml: list[str]
    screen_size: tuple[int, int]

    @property
    def length(self) -> int:
        """Number of steps."""
        return len(self.rewards)

    @property
    def ret(self) -> float:
        """Sum of rewards."""
        return float(self.rewards.sum())

    @property
    def success(self) -> bool:
        """Whether the last step reported success."""
        return _succeeded(self.infos)


def _succeeded(infos: list[dict[str, Any]]) -> bool:
    """Whether an episode's infos (the reset's, then one per step) end in success."""
    return bool(infos[-1].get("is_success", False)) if len(infos) > 1 else False


def _jsonable(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, np.ndarray):
        return None if value.size > 64 else value.tolist()  # leave big arrays (observations) out
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    return repr(value)


class EpisodeRecorder(gym.Wrapper):
    """Records every episode of the env it wraps into ``directory``.

    Args:
        env: A (wrapped) AndroidEnv.
        directory: Where the episodes go (created; a ``meta.json`` is written).
        frame_height: Height of the saved screen frames (aspect kept); None for full size.
        record_xml: Also save the UI dump of every step (dumping it if the env does not).
        env_spec: The spec ``gym.make`` rebuilds ``env`` from (default: ``env.spec``, when it has an
            entry point; :func:`~androidrl.registration.pixel_spec` makes one).
        policy: What plays (``random``, ``PPO``...): a Minari dataset's ``algorithm_name``.

    Example:
        >>> env = EpisodeRecorder(ScreenshotObservation(AndroidEnv(VirtualDevice())), "recordings")
        >>> obs, info = env.reset(seed=0)  # ... play; each finished episode is saved
    """

    def __init__(
        self,
        env: gym.Env,
        directory: str | Path,
        frame_height: int | None = 400,
        record_xml: bool = False,
        env_spec: EnvSpec | None = None,
        policy: str | None = None,
    ) -> None:
        super().__init__(env)
        from androidrl.env import AndroidEnv

        if not isinstance(env.unwrapped, AndroidEnv):
            raise TypeError(f"EpisodeRecorder records an AndroidEnv, got {type(env.unwrapped).__name__}")
        if frame_height is not None and frame_height < 16:
            raise ValueError(f"frame_height must be at least 16 pixels or None, got {frame_height}")
        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)
        self.frame_height = frame_height
        self.record_xml = record_xml
        self.saved: list[Path] = []
        self._count = len(list(self.directory.glob("episode_*.npz")))
        self._steps: dict[str, list[Any]] | None = None
        meta = {
            "format": FORMAT,
            "created": datetime.now().isoformat(timespec="seconds"),
            "task": env.unwrapped.task.name,
            "observation_space": space_to_json(env.observation_space),
            "action_space": space_to_json(env.action_space),
            "env_spec": _rebuildable(env_spec or env.spec),
            "policy": policy,
        }
        (self.directory / "meta.json").write_text(json.dumps(meta, indent=2))

    def _frame(self) -> np.ndarray:
        frame = self.env.unwrapped.frame
        if self.frame_height is None or frame.shape[0] <= self.frame_height:
            return np.array(frame)
        width = max(1, round(frame.shape[1] * self.frame_height / frame.shape[0]))
        return np.asarray(Image.fromarray(frame).resize((width, self.frame_height), Image.BOX))

    def _xml(self) -> str:
        return self.env.unwrapped.current_xml() if self.record_xml else ""

    def reset(self, **kwargs: Any):
        obs, info = self.env.reset(**kwargs)
        self._steps = {
            "observations": [obs],
            "frames": [self._frame()],
            "actions": [],
            "env_actions": [],
            "rewards": [],
            "terminated": [],
            "truncated": [],
            "infos": [_jsonable(info)],
            "action_texts": [],
            "xml": [self._xml()],
        }
        return obs, info

    def step(self, action: Any):
        # Described now: after the step, a UI-element action already names the next screen's elements.
        text = _describe(self.env, action)
        obs, reward, terminated, truncated, info = self.env.step(action)
        if self._steps is None:
            return obs, reward, terminated, truncated, info
        android = self.env.unwrapped
        performed = android.last_action
        steps = self._steps
        steps["observations"].append(obs)
        steps["frames"].append(self._frame())
        steps["actions"].append(action)
        steps["env_actions"].append(
            [int(performed.action_type), *performed.coord.tolist(), *performed.tgt_coord.tolist()]
            if performed is not None
            else [0, 0, 0, 0, 0]
        )
        steps["rewards"].append(reward)
        steps["terminated"].append(terminated)
        steps["truncated"].append(truncated)
        steps["infos"].append(_jsonable(info))
        steps["action_texts"].append(text or (performed.action_type.name.lower() if performed else str(action)))
        steps["xml"].append(self._xml() if not info.get("device_error") else "")
        if terminated or truncated:
            self.saved.append(self._save())
        return obs, reward, terminated, truncated, info

    def _save(self) -> Path:
        steps, self._steps = self._steps, None
        stem = self.directory / f"episode_{self._count:05d}"
        self._count += 1
        observations = steps["observations"]
        if isinstance(observations[0], dict):  # e.g. screen + clickable mask: one array per key
            arrays = {f"observations.{k}": np.stack([o[k] for o in observations]) for k in observations[0]}
        else:
            arrays = {"observations": np.stack(observations)}
        arrays |= {
            "frames": np.stack(steps["frames"]),
            "actions": np.array(steps["actions"]),
            "env_actions": np.array(steps["env_actions"], dtype=np.int64).reshape(-1, 5),
            "rewards": np.array(steps["rewards"], dtype=np.float32),
            "terminated": np.array(steps["terminated"], dtype=bool),
            "truncated": np.array(steps["truncated"], dtype=bool),
        }
        np.savez_compressed(stem.with_suffix(".npz"), **arrays)
        infos = steps["infos"]
        summary = {
            "infos": infos,
            "action_texts": steps["action_texts"],
            "xml": steps["xml"] if self.record_xml else [],
            "screen_size": list(self.env.unwrapped.screen_size),
            "return": float(arrays["rewards"].sum()),
            "length": len(arrays["rewards"]),
            "success": _succeeded(infos),
        }
        stem.with_suffix(".json").write_text(json.dumps(summary))
        return stem.with_suffix(".npz")


def _rebuildable(spec: EnvSpec | None) -> str | None:
    """``spec`` as JSON if ``gym.make`` can rebuild an env from it (an entry point, plain-data arguments)."""
    if spec is None or spec.entry_point is None:
        return None
    try:
        return spec.to_json()
    except (ValueError, TypeError):  # (arguments that are objects, not data)
        return None


def _describe(env: gym.Env, action: Any) -> str:
    """What ``action`` will do, in the action wrapper's words ("" if it has none)."""
    describe = env.get_wrapper_attr("describe") if env.has_wrapper_attr("describe") else None
    try:
        return str(describe(action)) if describe is not None else ""
    except (IndexError, ValueError, TypeError):
        return ""


def load_episode(path: str | Path) -> Episode:
    """An episode saved by :class:`EpisodeRecorder` (the ``.npz`` path, or its stem).

    Raises:
        FileNotFoundError: No such episode.
    """
    path = Path(path)
    npz, meta = path.with_suffix(".npz"), path.with_suffix(".json")
    with np.load(npz) as data:
        arrays = {k: data[k] for k in data.files}
    summary = json.loads(meta.read_text())
    observations = arrays.get("observations")
    if observations is None:
        observations = {k.split(".", 1)[1]: v for k, v in arrays.items() if k.startswith("observations.")}
    return Episode(
        observations=observations,
        frames=arrays["frames"],
        actions=arrays["actions"],
        env_actions=arrays["env_actions"],
        rewards=arrays["rewards"],
        terminated=arrays["terminated"],
        truncated=arrays["truncated"],
        infos=summary["infos"],
        action_texts=summary["action_texts"],
        xml=summary["xml"],
        screen_size=tuple(summary["screen_size"]),
    )


def load_dataset(directory: str | Path) -> list[Episode]:
    """Every episode of a recording directory, in order.

    Raises:
        ValueError: ``directory`` is not an androidrl recording.
    """
    directory = Path(directory)
    meta = directory / "meta.json"
    if not meta.is_file() or json.loads(meta.read_text()).get("format") != FORMAT:
        raise ValueError(f"{directory} is not an androidrl recording (no meta.json of format {FORMAT})")
    return [load_episode(p) for p in sorted(directory.glob("episode_*.npz"))]


# ---------------------------------------------------------------------------- spaces as JSON


def space_to_json(space: gym.Space) -> dict[str, Any]:
    """A Box, Discrete, MultiDiscrete, Text or Dict space as plain JSON (for ``meta.json``; others by name only)."""
    spaces = gym.spaces
    if isinstance(space, spaces.Box):
        uniform = space.low.min() == space.low.max() and space.high.min() == space.high.max()
        low, high = (
            (space.low.flat[0].item(), space.high.flat[0].item())
            if uniform
            else (space.low.tolist(), space.high.tolist())
        )
        return {"type": "Box", "low": low, "high": high, "shape": list(space.shape), "dtype": str(space.dtype)}
    if isinstance(space, spaces.Discrete):
        return {"type": "Discrete", "n": int(space.n), "start": int(space.start)}
    if isinstance(space, spaces.MultiDiscrete):
        return {"type": "MultiDiscrete", "nvec": space.nvec.tolist()}
    if isinstance(space, spaces.Dict):
        return {"type": "Dict", "spaces": {k: space_to_json(v) for k, v in space.spaces.items()}}
    if isinstance(space, PrintableText):
        return {"type": "PrintableText", "min_length": space.min_length, "max_length": space.max_length}
    if isinstance(space, spaces.Text):
        return {
            "type": "Text",
            "min_length": space.min_length,
            "max_length": space.max_length,
            "charset": space.characters,
        }
    return {"type": "unsupported", "repr": repr(space)}


def space_from_json(data: dict[str, Any]) -> gym.Space:
    """The space :func:`space_to_json` wrote."""
    spaces = gym.spaces
    kind = data["type"]
    if kind == "Box":
        dtype = np.dtype(data["dtype"])
        low, high = (
            np.asarray(data[k], dtype=dtype) if isinstance(data[k], list) else data[k] for k in ("low", "high")
        )
        return spaces.Box(low, high, tuple(data["shape"]), dtype)
    if kind == "Discrete":
        return spaces.Discrete(data["n"], start=data.get("start", 0))
    if kind == "MultiDiscrete":
        return spaces.MultiDiscrete(data["nvec"])
    if kind == "Dict":
        return spaces.Dict({k: space_from_json(v) for k, v in data["spaces"].items()})
    if kind == "PrintableText":
        return PrintableText(data["max_length"], min_length=data["min_length"])
    if kind == "Text":
        return spaces.Text(data["max_length"], min_length=data["min_length"], charset=data["charset"])
    raise ValueError(f"cannot rebuild a space of type {kind!r} ({data.get('repr', '')})")


# ---------------------------------------------------------------------------- Minari


def check_dataset_id(dataset_id: str) -> str:
    """``dataset_id`` if Minari takes it: ``[namespace/]name-v<N>``, e.g. ``androidrl/tap-target/random-v0``.

    Raises:
        ValueError: It is not of that form (Minari itself would fail with a ``TypeError``).
    """
    match = re.fullmatch(r"(?:[-_\w][-_\w/]*[-_\w]+/)?[-_\w]+?-v\d+", dataset_id)
    if match is None:
        raise ValueError(
            f"a Minari dataset id is [namespace/]name-v<version>, e.g. androidrl/tap-target/random-v0; "
            f"got {dataset_id!r}"
        )
    return dataset_id


def minari_metadata(policy: str | None, author: str | None = None) -> dict[str, Any]:
    """What a Minari dataset says of its making: the policy, its author and the code (androidrl's commit)."""
    return {
        "algorithm_name": policy or "unknown",
        "author": author or provenance.author(),
        "code_permalink": provenance.code_permalink(),
    }


def export_minari(
    directory: str | Path,
    dataset_id: str,
    description: str | None = None,
    author: str | None = None,
    overwrite: bool = False,
) -> Path:
    """A recording as a Minari dataset named ``dataset_id`` (e.g. ``androidrl/tap-target/expert-v0``).

    Observations (what the agent saw), actions, rewards, terminations and truncations go
    as they were recorded (images losslessly); the infos keep each numeric or boolean key
    every step has (``is_success``...). The dataset carries the env's spec (so
    ``recover_environment()`` makes the env again), the policy as ``algorithm_name``, its
    ``author`` (default: git's ``user.name``) and androidrl's commit as ``code_permalink``.
    It goes where Minari keeps datasets (``$MINARI_DATASETS_PATH``, default ``~/.minari/datasets``).

    Returns:
        The dataset's directory.

    Raises:
        ValueError: A malformed dataset id, not a recording, one without its spaces (recorded by
            an older androidrl), no episodes, or a dataset of that name exists (without ``overwrite``).
        ImportError: Minari is not installed.
    """
    check_dataset_id(dataset_id)
    try:
        import minari
        from minari.data_collector import EpisodeBuffer
    except ImportError:
        raise ImportError("exporting to Minari needs minari: pip install 'androidrl[train]'") from None
    directory = Path(directory)
    episodes = load_dataset(directory)
    meta = json.loads((directory / "meta.json").read_text())
    if "observation_space" not in meta:
        raise ValueError(f"{directory}: the recording has no spaces in meta.json (record it again to export it)")
    if not episodes:
        raise ValueError(f"{directory}: no episodes to export")
    if dataset_id in minari.list_local_datasets():
        if not overwrite:
            raise ValueError(f"a Minari dataset {dataset_id!r} exists; choose another name or overwrite it")
        minari.delete_dataset(dataset_id)
    buffers = [
        EpisodeBuffer(
            id=i,
            observations=e.observations,
            actions=e.actions,
            rewards=e.rewards.tolist(),
            terminations=e.terminated.tolist(),
            truncations=e.truncated.tolist(),
            infos=_minari_infos(e.infos),
        )
        for i, e in enumerate(episodes)
    ]
    spec = EnvSpec.from_json(meta["env_spec"]) if meta.get("env_spec") else None
    with warnings.catch_warnings():  # Minari nags about each metadata field left out (reference scores...)
        warnings.filterwarnings("ignore", message=".*is set to None|.*env_spec is None")
        dataset = minari.create_dataset_from_buffers(
            dataset_id,
            buffers,
            env=spec,
            observation_space=space_from_json(meta["observation_space"]),
            action_space=space_from_json(meta["action_space"]),
            description=description or f"androidrl episodes of {meta.get('task', 'an AndroidEnv task')}",
            data_format="hdf5",
            jpeg_encoding=False,
            **minari_metadata(meta.get("policy"), author),
        )
    return Path(dataset.spec.data_path).parent


def _minari_infos(infos: list[dict[str, Any]]) -> dict[str, np.ndarray]:
    """The numeric and boolean info keys every step has, as arrays (the reset's, if it lacks one: zero)."""

    def plain(value: Any) -> bool:
        return isinstance(value, (bool, int, float))

    steps = infos[1:]
    keys = [k for k, v in steps[0].items() if plain(v) and all(plain(i.get(k)) for i in steps)] if steps else []
    return {k: np.array([info.get(k, type(steps[0][k])()) for info in infos]) for k in keys}
