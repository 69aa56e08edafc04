"""Reading a run back: learning curves, evaluations, and pictures of recorded episodes.

Used by ``notebooks/evaluate.ipynb``; every function takes a run directory or an episode.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from androidrl.recording import Episode
from androidrl.spaces import EnvActionType
from androidrl.train import stats

T = EnvActionType


def newest_run(experiment: str = "", roots: tuple[str, ...] = ("runs", "../runs")) -> Path:
    """The newest run under ``runs/`` (or ``../runs``, seen from ``notebooks/``): of ``experiment``, or of any.

    Raises:
        FileNotFoundError: There is none; the message says how to make one.
    """
    pattern = f"{experiment}-*" if experiment else "*"
    found = [p for root in roots for p in Path(root).glob(pattern) if (p / "config.yaml").is_file()]
    if not found:
        name = experiment or "quickstart"
        raise FileNotFoundError(
            f"no {experiment + ' ' if experiment else ''}run under {' or '.join(roots)}; "
            f"train one with: androidrl train --config {name}"
        )
    return max(found, key=_created)


def _created(run: Path) -> float:
    """When the run was made (its versions.json is written once, at the start)."""
    stamp = run / "versions.json"
    return (stamp if stamp.exists() else run / "config.yaml").stat().st_mtime


def seed_runs(run_dir: str | Path) -> list[Path]:
    """The run and its siblings that differ from it only in the seed (``androidrl train --seeds``), oldest first.

    One run per seed: the newest of a seed trained more than once (and ``run_dir`` itself for its own seed).
    """
    from androidrl.errors import ConfigError
    from androidrl.validation import read_yaml

    run_dir = Path(run_dir)

    def read(path: Path) -> tuple[object, dict | None]:
        try:  # (bounded: a sibling's config may be anything, a YAML bomb included)
            config = read_yaml(path / "config.yaml", ConfigError, "config")
        except ConfigError:
            return None, None
        return (config.pop("seed", None), config) if isinstance(config, dict) else (None, None)

    seed, mine = read(run_dir)
    siblings = [p for p in run_dir.parent.iterdir() if (p / "config.yaml").is_file()]
    newest: dict[object, Path] = {}
    for path in sorted(siblings, key=_created):
        their_seed, theirs = read(path)
        if theirs is not None and theirs == mine:
            newest[their_seed] = path
    newest[seed] = run_dir
    return sorted(newest.values(), key=_created)


def across_seeds(runs: list[Path]) -> dict[str, np.ndarray]:
    """Evaluation success across runs at the steps all of them evaluated: steps, mean, sample std, and each run's.

    The std is the sample's (ddof 1; NaN for one run); :func:`androidrl.train.stats.across_runs`
    says the last evaluations in words, with the IQM and its bootstrap interval.
    """
    tables = [{int(e["timesteps"]): e["success_rate"] for e in evaluations(r)} for r in runs]
    steps = sorted(set.intersection(*(set(t) for t in tables))) if tables else []
    values = np.array([[t[s] for s in steps] for t in tables], dtype=float).reshape(len(tables), len(steps))
    return {
        "steps": np.array(steps),
        "mean": values.mean(axis=0) if len(tables) else values,
        "std": np.array([stats.sample_std(column) for column in values.T]) if len(tables) else values,
        "runs": values,
    }


def find_run(run_dir: str | Path) -> Path:
    """``run_dir`` as given, or (from ``notebooks/``) relative to the repository's top.

    Raises:
        FileNotFoundError: Neither exists.
    """
    path = Path(run_dir)
    for candidate in (path, Path("..") / path):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"run directory {run_dir} does not exist (here or, from notebooks/, in ..)")


def monitor_episodes(run_dir: str | Path) -> list[dict[str, float]]:
    """Every training episode from the run's Monitor CSVs, in time order, with cumulative steps."""
    rows = []
    for path in sorted(Path(run_dir, "monitor").glob("*.monitor.csv")):
        with path.open() as f:
            start = json.loads(f.readline().removeprefix("#"))["t_start"]  # times in the file count from it
            for row in csv.DictReader(f):
                rows.append(
                    {
                        "return": float(row["r"]),
                        "length": int(row["l"]),
                        "time": start + float(row["t"]),
                        "success": float(row.get("is_success") in ("True", "1", "1.0")),
                        "task": row.get("task") or "",
                    }
                )
    rows.sort(key=lambda r: r["time"])
    steps = np.cumsum([r["length"] for r in rows])
    for row, step in zip(rows, steps):
        row["steps"] = int(step)
    return rows


def learning_curve(run_dir: str | Path, window: int = 50) -> dict[str, np.ndarray]:
    """Rolling mean return and success rate of training episodes against environment steps."""
    rows = monitor_episodes(run_dir)
    if not rows:
        return {"steps": np.array([]), "return": np.array([]), "success": np.array([])}

    def rolling(values: list[float]) -> np.ndarray:
        values = np.asarray(values, dtype=float)
        sums = np.cumsum(np.insert(values, 0, 0.0))
        counts = np.minimum(np.arange(1, len(values) + 1), window)
        return (sums[1:] - sums[np.maximum(0, np.arange(1, len(values) + 1) - window)]) / counts

    return {
        "steps": np.array([r["steps"] for r in rows]),
        "return": rolling([r["return"] for r in rows]),
        "success": rolling([r["success"] for r in rows]),
    }


def evaluations(run_dir: str | Path) -> list[dict[str, float]]:
    """The periodic evaluations made during training (``evaluations.csv``)."""
    path = Path(run_dir, "evaluations.csv")
    if not path.exists():
        return []
    with path.open() as f:
        return [{k: float(v) for k, v in row.items()} for row in csv.DictReader(f)]


def latest_evaluation(run_dir: str | Path) -> dict[str, Any] | None:
    """The summary of the newest ``scripts/evaluate.py`` run, if any."""
    summaries = sorted(Path(run_dir, "eval").glob("*/summary.json"))
    return json.loads(summaries[-1].read_text()) if summaries else None


def _draw_action(frame: Image.Image, env_action: np.ndarray, screen: tuple[int, int], text: str) -> Image.Image:
    """The frame with the action drawn: a ring for taps, an arrow for swipes, a label for keys."""
    image = frame.convert("RGB")
    draw = ImageDraw.Draw(image)
    scale = image.width / screen[0]
    kind, x, y, tx, ty = (int(v) for v in env_action)
    radius = max(4, image.width // 20)
    x, y, tx, ty = x * scale, y * scale, tx * scale, ty * scale
    red = (230, 30, 30)
    if kind in (T.SYSTEM_TAP, T.USER_LONGPRESS):
        draw.ellipse((x - radius, y - radius, x + radius, y + radius), outline=red, width=max(2, radius // 3))
    elif kind in (T.USER_SWIPE, T.USER_SWIPE_TO):
        draw.line((x, y, tx, ty), fill=red, width=max(2, radius // 3))
        draw.ellipse((tx - radius / 2, ty - radius / 2, tx + radius / 2, ty + radius / 2), fill=red)
    _caption(image, text)
    return image


def _caption(image: Image.Image, text: str) -> None:
    """``text`` in a band at the bottom of ``image``, wrapped onto as many lines as it needs."""
    draw = ImageDraw.Draw(image)
    font = ImageFont.load_default(size=max(12, image.width // 22))
    lines, line = [], ""
    for word in text.split():
        candidate = f"{line} {word}".strip()
        if line and draw.textlength(candidate, font=font) > image.width - 8:
            lines.append(line)
            candidate = word
        line = candidate
    lines.append(line)
    step = font.size + 3
    top = image.height - step * len(lines) - 4
    draw.rectangle((0, top, image.width, image.height), fill=(0, 0, 0))
    for i, text_line in enumerate(lines):
        draw.text((4, top + 2 + i * step), text_line, fill=(255, 255, 255), font=font)


def annotated_frames(episode: Episode, height: int | None = 320) -> list[Image.Image]:
    """One picture per step: the screen before the action, with the action drawn (``height`` None: as recorded)."""

    def picture(frame: np.ndarray) -> Image.Image:
        image = Image.fromarray(frame)
        if height is None or height == image.height:
            return image
        return image.resize((max(1, round(image.width * height / image.height)), height), Image.BOX)

    pictures = []
    for step in range(episode.length):
        label = f"{step + 1}: {episode.action_texts[step]}  r={episode.rewards[step]:+.2f}"
        pictures.append(
            _draw_action(picture(episode.frames[step]), episode.env_actions[step], episode.screen_size, label)
        )
    last = picture(episode.frames[-1])
    outcome = "success" if episode.success else "end"
    pictures.append(
        _draw_action(last, np.zeros(5, dtype=int), episode.screen_size, f"{outcome}, return {episode.ret:.2f}")
    )
    return pictures


def filmstrip(episode: Episode, columns: int = 5, height: int = 480) -> Image.Image:
    """The episode as a grid of annotated frames, left to right, top to bottom."""
    pictures = annotated_frames(episode, height)
    width, height = pictures[0].width, pictures[0].height
    rows = (len(pictures) + columns - 1) // columns
    sheet = Image.new("RGB", (min(columns, len(pictures)) * (width + 4), rows * (height + 4)), (255, 255, 255))
    for i, picture in enumerate(pictures):
        sheet.paste(picture, ((i % columns) * (width + 4), (i // columns) * (height + 4)))
    return sheet


def save_gif(episode: Episode, path: str | Path, height: int | None = None, seconds_per_frame: float = 0.8) -> Path:
    """The episode as an animated GIF of its annotated frames (full recorded size unless ``height``)."""
    pictures = annotated_frames(episode, height)
    path = Path(path)
    pictures[0].save(path, save_all=True, append_images=pictures[1:], duration=int(seconds_per_frame * 1000), loop=0)
    return path
