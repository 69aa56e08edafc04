"""Watching and sharing what an agent does: MP4s, SB3's video recorder, readable pictures, Minari datasets."""

import json
import subprocess
import sys
from pathlib import Path

import imageio.v3 as iio
import numpy as np
import pytest
from PIL import Image

from androidrl.recording import Episode, export_minari, load_dataset
from androidrl.train import analysis
from androidrl.train.config import parse_config
from androidrl.train.runs import Run
from androidrl.train.training import train
from androidrl.vector.sb3 import make_sb3_vec_env
from androidrl.wrappers import DiscreteGridAction, ScreenshotObservation

from conftest import tiny_config

COMMAND = str(Path(sys.executable).with_name("androidrl"))
SMALL = tiny_config(
    experiment="media",
    devices={"virtual": {"count": 1, "width": 360, "height": 800, "density": 160}},
    observation={"shape": [48, 40]},
    training={"total_timesteps": 64},
)


def grid(env):
    return DiscreteGridAction(ScreenshotObservation(env, shape=(48, 24)), rows=3, cols=3)


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    return train(Run.create(parse_config(SMALL), tmp_path_factory.mktemp("media") / "run")).run


@pytest.mark.slow
def test_watch_writes_an_mp4_of_every_step_at_full_size(run, tmp_path):
    out = tmp_path / "agent.mp4"
    done = subprocess.run(
        [COMMAND, "watch", "--run", str(run.directory), "--episodes", "2", "--out", str(out), "--fps", "4"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert str(out) in done.stdout
    frames = np.stack(list(iio.imiter(out)))
    summary = json.loads(sorted(run.eval_dir.glob("*/summary.json"))[-1].read_text())
    steps = sum(e["length"] + 1 for e in summary["episodes_detail"])  # each step, and each episode's end
    assert frames.shape == (steps, 800, 360, 3)
    assert frames.std() > 10  # pictures, not a blank video


@pytest.mark.slow
def test_sb3_video_recorder_films_our_vector_env(tmp_path):
    from stable_baselines3.common.vec_env import VecVideoRecorder

    env = make_sb3_vec_env(
        ["virtual:360x800@160", "virtual:360x800@160"], "tap-target", grid, env_kwargs={"render_mode": "rgb_array"}
    )
    assert env.render_mode == "rgb_array"
    env = VecVideoRecorder(env, str(tmp_path), record_video_trigger=lambda step: step == 0, video_length=8)
    env.reset()
    for _ in range(10):
        env.step(np.array([env.action_space.sample() for _ in range(2)]))
    env.close()
    (video,) = tmp_path.glob("*.mp4")
    frames = np.stack(list(iio.imiter(video)))
    assert frames.shape[0] >= 8 and frames.shape[1:3] == (1600, 360)  # the two screens, tiled by SB3


def episode(text: str, steps: int = 3) -> Episode:
    frames = np.full((steps + 1, 800, 360, 3), 200, dtype=np.uint8)
    return Episode(
        observations=np.zeros((steps + 1, 4, 4, 3), np.uint8),
        frames=frames,
        actions=np.zeros(steps, int),
        env_actions=np.array([[0, 100, 200, 0, 0]] * steps),
        rewards=np.zeros(steps, np.float32),
        terminated=np.array([False] * (steps - 1) + [True]),
        truncated=np.zeros(steps, bool),
        infos=[{}] * (steps + 1),
        action_texts=[text] * steps,
        xml=[],
        screen_size=(360, 800),
    )


def test_captions_wrap_instead_of_being_cut():
    long = "tap 'Network & internet: Mobile, Wi-Fi, hotspot' then wait for the settings page to show its switches"
    short_picture, long_picture = (analysis.annotated_frames(episode(t), height=None)[0] for t in ("tap", long))
    assert long_picture.size == short_picture.size == (360, 800)
    # the black caption band grows to hold every word: more dark rows at the bottom
    dark = [int((np.asarray(p.convert("L"))[:, -2] < 20).sum()) for p in (short_picture, long_picture)]
    assert dark[1] >= 2.5 * dark[0]
    strip = analysis.filmstrip(episode(long))
    assert strip.height >= 480 and isinstance(strip, Image.Image)


def test_a_gif_is_full_size_by_default(tmp_path):
    path = analysis.save_gif(episode("tap"), tmp_path / "e.gif")
    with Image.open(path) as gif:
        assert gif.size == (360, 800) and gif.n_frames == 4


def test_newest_run_of_any_experiment_and_seed_siblings(tmp_path):
    import yaml

    for name, seed in (("a-1", 0), ("b-2", 0), ("b-3", 1), ("c-4", 0), ("b-5", 0)):
        (tmp_path / name).mkdir()
        config = {"experiment": name[0], "seed": seed, "task": "tap-target" if name[0] != "c" else "open-app"}
        (tmp_path / name / "config.yaml").write_text(yaml.safe_dump(config))
        (tmp_path / name / "versions.json").write_text("{}")
        (tmp_path / name / "evaluations.csv").write_text(f"timesteps,success_rate\n100,{seed * 0.5}\n200,{seed}\n")
    assert analysis.newest_run(roots=(str(tmp_path),)).name == "b-5"
    assert analysis.newest_run("c", roots=(str(tmp_path),)).name == "c-4"
    # same config but the seed (the experiment name differs between a and b here); one run per seed,
    # the newest of seed 0 (b-5 over b-2), unless the one asked about is itself of that seed
    assert [p.name for p in analysis.seed_runs(tmp_path / "b-3")] == ["b-3", "b-5"]
    siblings = analysis.seed_runs(tmp_path / "b-2")
    assert [p.name for p in siblings] == ["b-2", "b-3"]
    spread = analysis.across_seeds(siblings)
    assert list(spread["steps"]) == [100, 200] and list(spread["mean"]) == [0.25, 0.5]
    assert spread["std"] == pytest.approx([0.25 * 2**0.5, 0.5 * 2**0.5])  # two seeds: the sample's std (ddof 1)


def test_a_notebooks_run_dir_may_be_written_from_the_repository(tmp_path, monkeypatch):
    # `run_dir = "runs/x"`, as the repository's README writes it, from inside notebooks/
    (tmp_path / "runs" / "x").mkdir(parents=True)
    (tmp_path / "notebooks").mkdir()
    monkeypatch.chdir(tmp_path / "notebooks")
    assert analysis.find_run("runs/x").resolve() == (tmp_path / "runs" / "x").resolve()
    with pytest.raises(FileNotFoundError, match="run directory runs/y does not exist"):
        analysis.find_run("runs/y")


@pytest.mark.slow
def test_recordings_export_to_minari(tmp_path, monkeypatch):
    import minari

    monkeypatch.setenv("MINARI_DATASETS_PATH", str(tmp_path / "minari"))  # (read at each call)
    done = subprocess.run(
        [COMMAND, "record", "--episodes", "2", "--out", str(tmp_path / "rec"), "--shape", "32", "16"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    exported = subprocess.run(
        [COMMAND, "minari", str(tmp_path / "rec"), "androidrl/tap-target/random-v0", "--author", "tests"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert exported.returncode == 0, exported.stderr
    recorded = load_dataset(tmp_path / "rec")
    dataset = minari.load_dataset("androidrl/tap-target/random-v0")
    assert dataset.total_episodes == 2 and dataset.total_steps == sum(e.length for e in recorded)
    for ours, theirs in zip(recorded, dataset.iterate_episodes()):
        assert np.array_equal(theirs.observations, ours.observations)  # lossless images
        assert np.array_equal(theirs.actions, ours.actions)
        assert np.allclose(theirs.rewards, ours.rewards)
        assert np.array_equal(theirs.terminations, ours.terminated)
        assert np.array_equal(theirs.truncations, ours.truncated)
        assert list(theirs.infos["is_success"][1:]) == [bool(i.get("is_success")) for i in ours.infos[1:]]
    # What Minari expects of a dataset: how it was made, and the env it was made on, rebuilt.
    made = dataset.storage.metadata
    assert made["algorithm_name"] == "random" and made["author"] == {"tests"} and "androidrl" in made["code_permalink"]
    assert dataset.spec.env_spec.id == "androidrl/TapTargetPixels-v0"
    env = dataset.recover_environment()
    try:
        assert env.observation_space == dataset.observation_space and env.action_space == dataset.action_space
        first = next(dataset.iterate_episodes())
        obs, _ = env.reset(seed=0)  # the recorder's first episode was seeded 0
        assert np.array_equal(obs, first.observations[0])
    finally:
        env.close()
    again = subprocess.run(
        [COMMAND, "minari", str(tmp_path / "rec"), "androidrl/tap-target/random-v0"],
        capture_output=True,
        text=True,
    )
    assert again.returncode == 1 and "exists" in again.stderr  # nothing overwritten by accident


@pytest.mark.parametrize("dataset_id", ["androidrl/quickstart/agent", "no spaces-v0", "v0"])
def test_a_malformed_dataset_id_is_a_usage_error_not_a_traceback(tmp_path, dataset_id):
    done = subprocess.run([COMMAND, "minari", str(tmp_path), dataset_id], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stderr
    assert "a Minari dataset id is [namespace/]name-v<version>" in done.stderr and "Traceback" not in done.stderr


def test_export_refuses_what_is_not_a_recording(tmp_path):
    with pytest.raises(ValueError, match="not an androidrl recording"):
        export_minari(tmp_path, "androidrl/y-v0")
