"""Checkpoints that survive crashes and full disks, and loading that never unpickles.

* Every file a resume reads is written whole or not at all: to a temporary file in the
  same directory, flushed to disk, then renamed over the old one (:func:`atomic_write`). A
  kill -9 or a full disk in the middle leaves the last good file in place.
* A model loads with every cloudpickled field of SB3's ``data`` taken from a fresh model
  built from the run's config (SB3's ``custom_objects``), and weights through
  ``torch.load(weights_only=True)``: nothing in a checkpoint can run code. A checkpoint
  holding a pickled field the config cannot supply is refused.
* VecNormalize statistics are saved as plain arrays (``.npz``), not a pickle.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import pickle
import signal
import threading
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

import numpy as np

from androidrl.errors import AndroidRLError

#: The signals that stop a training.
_STOPS = (signal.SIGINT, signal.SIGTERM)
#: What a VecNormalize keeps besides its running statistics.
_NORMALIZE_SETTINGS = ("norm_obs", "norm_reward", "clip_obs", "clip_reward", "gamma", "epsilon", "training")


class CheckpointError(AndroidRLError):
    """A checkpoint could not be written, or cannot be loaded safely."""


def atomic_write(path: Path, write: Callable[[IO[bytes]], None]) -> None:
    """Write ``path`` whole or not at all: ``write(file)`` into a temporary file, fsync, rename.

    A Ctrl-C or SIGTERM meanwhile takes effect once the file is written (see :func:`deferred_signals`).

    Raises:
        CheckpointError: The file could not be written (a full disk, say); ``path`` is untouched.
    """
    path = Path(path)
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    try:
        with deferred_signals():
            with open(tmp, "wb") as f:
                write(f)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, path)
            _fsync_directory(path.parent)
    except BaseException as err:  # (a Ctrl-C midway too: no half file is left)
        with contextlib.suppress(OSError):
            tmp.unlink()
        if isinstance(err, OSError):
            raise CheckpointError(f"cannot write {path.name} in {path.parent}: {err.strerror or err}") from None
        raise


@contextlib.contextmanager
def deferred_signals():
    """Ctrl-C (SIGINT) and SIGTERM during the block take effect when it ends, in the main thread.

    A save cut short is worse than a save that finishes: torch's zip writer, interrupted,
    raises an error of its own in place of the KeyboardInterrupt (a traceback instead of a
    checkpoint). Elsewhere than the main thread, signals are left alone.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []
    previous = {signum: signal.signal(signum, lambda signum, frame: caught.append(signum)) for signum in _STOPS}
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, signal.SIG_DFL if handler is None else handler)
        if caught:
            signal.raise_signal(caught[0])  # (now its own handler runs: KeyboardInterrupt for Ctrl-C)


def remove_unfinished(directory: Path) -> list[str]:
    """Remove what writes cut short left in ``directory`` (a kill -9 mid-save): the names removed.

    Those are :func:`atomic_write`'s temporary files of processes that no longer run; the
    files they were to replace are whole.
    """
    removed = []
    for path in Path(directory).glob(".*.tmp-*"):
        pid = path.name.rsplit("-", 1)[1]
        if pid.isdigit() and not _running(int(pid)):
            with contextlib.suppress(OSError):
                path.unlink()
                removed.append(path.name)
    return sorted(removed)


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    return True


def atomic_savez(path: Path, arrays: dict[str, Any]) -> None:
    """``np.savez`` written by :func:`atomic_write`, and the same bytes for the same arrays.

    ``np.savez`` stamps each member of its zip with the time of writing; here every member
    carries the zip format's epoch instead, so two runs that compute the same arrays write
    byte-identical files (``np.load`` reads them as any ``.npz``; nothing is pickled).
    """

    def write(f: IO[bytes]) -> None:
        with zipfile.ZipFile(f, "w", zipfile.ZIP_STORED) as archive:
            for name, value in arrays.items():
                member = zipfile.ZipInfo(f"{name}.npy", date_time=(1980, 1, 1, 0, 0, 0))
                with archive.open(member, "w", force_zip64=True) as out:
                    np.lib.format.write_array(out, np.asanyarray(value), allow_pickle=False)

    atomic_write(path, write)


def atomic_write_text(path: Path, text: str) -> None:
    """:func:`atomic_write` for text."""
    atomic_write(path, lambda f: f.write(text.encode("utf-8")))


def _fsync_directory(directory: Path) -> None:
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)  # the rename itself survives a power cut
    finally:
        os.close(fd)


# ---------------------------------------------------------------------------- models


def _model_data(path: Path) -> dict[str, Any]:
    """The ``data`` of an SB3 model file, as JSON (nothing is unpickled).

    Raises:
        CheckpointError: The file is not an SB3 model (not a zip, no ``data``, or a
            ``data`` that is not a JSON object).
    """
    try:
        with zipfile.ZipFile(path) as archive:
            data = json.loads(archive.read("data"))
    except (OSError, zipfile.BadZipFile, KeyError, ValueError) as err:
        raise CheckpointError(f"{path} is not a model file: {err}") from None
    if not isinstance(data, dict):
        raise CheckpointError(f"{path} is not a model file: its data is a JSON {type(data).__name__}, not an object")
    return data


def pickled_fields(path: Path) -> list[str]:
    """The names of the cloudpickled fields in an SB3 model file (read as JSON; nothing is unpickled).

    Raises:
        CheckpointError: The file is not an SB3 model (not a zip, or no ``data``).
    """
    data = _model_data(path)
    return [key for key, value in data.items() if isinstance(value, dict) and ":serialized:" in value]


def _space_words(kind: str, n: Any = None, nvec: Any = None, shape: Any = None, dtype: Any = None) -> str:
    """A space in words, the same whether read from a live space or from a model file's JSON."""
    if n is not None:
        return f"{kind}({int(n)})"
    if nvec is not None:
        return f"{kind}({[int(v) for v in np.asarray(nvec).ravel()]})"
    return f"{kind}(shape={tuple(shape or ())}, dtype={dtype})"


def _saved_space(entry: Any) -> str | None:
    """A space as a model file's JSON describes it beside its pickle (its class, ``n``, ``nvec``, shape, dtype)."""
    if not isinstance(entry, dict) or ":type:" not in entry:
        return None
    kind = entry[":type:"].rsplit(".", 1)[-1].rstrip("'>")
    nvec = entry.get("nvec")
    if isinstance(nvec, str):  # (NumPy's printing: "[3 3 3]")
        nvec = [int(v) for v in nvec.strip("[]").split()]
    return _space_words(kind, entry.get("n"), nvec, entry.get("_shape"), entry.get("dtype"))


def _live_space(space: Any) -> str:
    return _space_words(
        type(space).__name__, getattr(space, "n", None), getattr(space, "nvec", None), space.shape, space.dtype
    )


def check_saved_spaces(path: Path, template: Any) -> None:
    """The model at ``path`` was trained on the spaces of ``template`` (a model made on the env to load it on).

    Raises:
        CheckpointError: It was not, naming both spaces (before anything is loaded).
    """
    data = _model_data(path)
    for name in ("observation_space", "action_space"):
        saved, expected = _saved_space(data.get(name)), _live_space(getattr(template, name))
        if saved is not None and saved != expected:
            kind = name.split("_")[0]
            raise CheckpointError(
                f"{path} was trained on the {kind} space {saved}, but the env has {expected} "
                "(another run's model, or a config changed since?)"
            )


def safe_custom_objects(path: Path, template: Any) -> dict[str, Any]:
    """SB3 ``custom_objects`` that supply every pickled field of ``path`` from ``template``.

    Args:
        path: The model file.
        template: A fresh model built from the run's config (its attributes are trusted).

    Raises:
        CheckpointError: The file holds a pickled field the template does not have.
    """
    fields = pickled_fields(path)
    unknown = [name for name in fields if not hasattr(template, name)]
    if unknown:
        raise CheckpointError(
            f"{path} holds pickled fields {unknown} that the run's config cannot supply; "
            "refusing to unpickle them (a checkpoint can run code when unpickled)"
        )
    return {name: getattr(template, name) for name in fields}


def load_model(cls: type, path: Path, template: Any, **kwargs: Any) -> Any:
    """``cls.load(path)`` with every pickled field supplied from ``template`` (see :func:`safe_custom_objects`).

    Raises:
        CheckpointError: The file is not a model, was trained on other spaces than ``template``'s
            (naming both), has no step count, holds fields that cannot be supplied, or does
            not load (whatever the reason: a file on disk may hold anything).
    """
    try:
        steps = _model_data(path).get("num_timesteps")
        if not isinstance(steps, int) or isinstance(steps, bool) or steps < 0:
            raise CheckpointError(f"{path} is not a model file: its num_timesteps is {steps!r}, not a step count")
        check_saved_spaces(path, template)
        return cls.load(path, custom_objects=safe_custom_objects(path, template), **kwargs)
    except CheckpointError:
        raise
    except Exception as err:  # noqa: BLE001 (whatever the file makes SB3 or torch raise, it is this file's fault)
        raise CheckpointError(f"{path} does not load: {load_error(path, err)}") from None


def load_error(path: Path, err: Exception) -> str:
    """Why the model file ``path`` did not load, in a line (never torch's advice to load unsafely)."""
    if isinstance(err, pickle.UnpicklingError):  # torch.load(weights_only=True) met an object that is not a tensor
        member = _unsafe_member(path) or "a weights file"
        return f"{member} holds pickled objects, not only weights; refused (unpickling them could run code)"
    text = str(err).strip().splitlines()
    return f"{type(err).__name__}: {text[0][:300]}" if text else type(err).__name__


def _unsafe_member(path: Path) -> str | None:
    """The first ``.pth`` member of ``path`` that ``torch.load(weights_only=True)`` refuses, if any."""
    import torch

    with contextlib.suppress(OSError, zipfile.BadZipFile), zipfile.ZipFile(path) as archive:
        for name in archive.namelist():
            if name.endswith(".pth"):
                try:
                    torch.load(io.BytesIO(archive.read(name)), map_location="cpu", weights_only=True)
                except pickle.UnpicklingError:
                    return name
                except Exception:  # noqa: BLE001,S112 (another fault: not the one looked for)
                    continue
    return None


# ---------------------------------------------------------------------------- VecNormalize


def save_normalize(path: Path, normalize: Any) -> None:
    """VecNormalize statistics and settings as plain arrays in ``path`` (``.npz``), atomically."""
    arrays: dict[str, Any] = {name: np.asarray(getattr(normalize, name)) for name in _NORMALIZE_SETTINGS}
    for name in ("obs_rms", "ret_rms"):
        rms = getattr(normalize, name, None)
        if rms is None or isinstance(rms, dict):  # (Dict observations: not used by our configs)
            continue
        arrays.update({f"{name}.mean": rms.mean, f"{name}.var": rms.var, f"{name}.count": np.asarray(rms.count)})

    atomic_savez(path, arrays)


def load_normalize(path: Path, venv: Any) -> Any:
    """A VecNormalize over ``venv`` with the statistics :func:`save_normalize` wrote (no pickle).

    Raises:
        CheckpointError: The file is missing or not such statistics.
    """
    from stable_baselines3.common.vec_env import VecNormalize

    try:
        with np.load(path, allow_pickle=False) as data:
            values = {key: data[key] for key in data.files}
        settings = {name: values[name].item() for name in _NORMALIZE_SETTINGS if name != "training"}
        normalize = VecNormalize(venv, **settings)
        normalize.training = bool(values["training"])
        for name in ("obs_rms", "ret_rms"):
            if f"{name}.mean" in values:
                rms = getattr(normalize, name)
                mean, var, count = values[f"{name}.mean"], values[f"{name}.var"], values[f"{name}.count"].item()
                rms.mean, rms.var, rms.count = mean, var, count
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as err:
        raise CheckpointError(f"{path}: not normalization statistics: {type(err).__name__}: {err}") from None
    return normalize
