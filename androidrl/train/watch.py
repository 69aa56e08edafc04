"""``androidrl watch --run RUN``: play a trained agent and write an MP4 of it, with each action drawn.

The agent plays on the run's evaluation devices (a virtual phone like the training ones,
unless ``--devices`` says otherwise); the episodes are recorded at full screen size and
each step becomes one frame of the video, held ``1/fps`` seconds, with the action drawn on
it and captioned. The video is H.264 (``imageio-ffmpeg`` brings its own ffmpeg).
"""

from __future__ import annotations

import argparse
import sys
from datetime import datetime
from pathlib import Path

import numpy as np
from PIL import Image

from androidrl.arguments import add_trust_plugins, int_in, number_in
from androidrl.errors import DeviceError
from androidrl.recording import load_dataset
from androidrl.train.analysis import annotated_frames
from androidrl.train.checkpoints import CheckpointError
from androidrl.train.config import ConfigError
from androidrl.train.evaluation import evaluate_run


def write_mp4(pictures: list[Image.Image], path: Path, fps: float = 2.0) -> Path:
    """The pictures as an H.264 MP4 (sizes padded to even numbers, as the codec needs)."""
    import imageio.v2 as imageio

    width = max(p.width for p in pictures) + max(p.width for p in pictures) % 2
    height = max(p.height for p in pictures) + max(p.height for p in pictures) % 2
    path.parent.mkdir(parents=True, exist_ok=True)
    with imageio.get_writer(path, fps=fps, codec="libx264", macro_block_size=1, quality=8) as writer:
        for picture in pictures:
            canvas = Image.new("RGB", (width, height))
            canvas.paste(picture.convert("RGB"), (0, 0))
            writer.append_data(np.asarray(canvas))
    return path


def watch(
    run_dir: str | Path,
    episodes: int = 3,
    out: str | Path | None = None,
    fps: float = 2.0,
    deterministic: bool = True,
    devices: list[str] | None = None,
    checkpoint: str | Path | None = None,
    trust_plugins: bool = False,
) -> tuple[Path, dict]:
    """Play ``episodes`` with the run's model and write them as one MP4; (its path, the evaluation summary).

    Raises:
        ConfigError: Not a run, no model, or unusable devices (as ``androidrl evaluate``).
        DeviceError: A device went down while playing.
    """
    summary = evaluate_run(run_dir, episodes, deterministic, devices, True, checkpoint, trust_plugins=trust_plugins)
    pictures = [p for episode in load_dataset(summary["recordings"]) for p in annotated_frames(episode, height=None)]
    path = Path(out) if out else Path(run_dir) / "videos" / f"{datetime.now():%Y%m%d-%H%M%S}.mp4"
    return write_mp4(pictures, path, fps), summary


def main(argv: list[str] | None = None) -> int:
    """``androidrl watch``."""
    parser = argparse.ArgumentParser(
        prog="androidrl watch", description="Play a trained agent and write an MP4 of it with the actions drawn."
    )
    parser.add_argument("--run", required=True, help="the run directory")
    parser.add_argument("--episodes", type=int_in(1, 1000), default=3, help="episodes to play (default 3)")
    parser.add_argument("--out", help="the MP4 to write (default: RUN/videos/<timestamp>.mp4)")
    parser.add_argument("--fps", type=number_in(0, 120), default=2.0, help="steps shown per second (default 2)")
    parser.add_argument("--stochastic", action="store_true", help="sample actions instead of the most likely ones")
    parser.add_argument("--devices", nargs="+", help="adb serials or virtual[:WxH[@DPI]] (default: the run's)")
    parser.add_argument("--checkpoint", help="a checkpoint .zip instead of the final model")
    add_trust_plugins(parser)
    args = parser.parse_args(argv)
    if args.out:
        try:  # (before the evaluation it would waste)
            Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            parser.error(f"--out {args.out}: cannot make its directory: {err.strerror}")
    try:
        path, summary = watch(
            args.run, args.episodes, args.out, args.fps, not args.stochastic, args.devices, args.checkpoint,
            trust_plugins=args.trust_plugins,
        )  # fmt: skip
    except ConfigError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    except (CheckpointError, DeviceError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    print(f"{args.episodes} episodes, success {summary['success_rate']:.0%}: {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
