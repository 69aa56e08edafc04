"""Resuming a run: a failed resume leaves the run as it was, the model keeps its shape, bad checkpoints fall back."""

import io
import json
import shutil
import zipfile
from pathlib import Path

import pytest
import torch
import yaml

from androidrl.train.runs import Run, checkpoint_path
from androidrl.train.training import main as train_main

from conftest import tiny_config

pytestmark = pytest.mark.slow
CONFIG = tiny_config(training={"total_timesteps": 128, "checkpoint_freq": 128})


@pytest.fixture(scope="module")
def trained(tmp_path_factory) -> Path:
    """A run trained 128 steps, with its checkpoint rl_model_128_steps.zip (copy it before changing it)."""
    root = tmp_path_factory.mktemp("trained")
    config = root / "c.yaml"
    config.write_text(yaml.safe_dump(CONFIG))
    assert train_main(["--config", str(config), "--run-dir", str(root / "run")]) == 0
    return root / "run"


@pytest.fixture
def run(trained, tmp_path) -> Path:
    """A copy of the trained run, to change."""
    return Path(shutil.copytree(trained, tmp_path / "run"))


def _rewrite(checkpoint: Path, to: Path, change) -> None:
    """Write ``to``: ``checkpoint`` with its members as ``change(members)`` leaves them."""
    with zipfile.ZipFile(checkpoint) as archive:
        members = {name: archive.read(name) for name in archive.namelist()}
    change(members)
    with zipfile.ZipFile(to, "w") as archive:
        for name, content in members.items():
            archive.writestr(name, content)


def _data(change):
    def apply(members: dict) -> None:
        data = json.loads(members["data"])
        members["data"] = json.dumps(change(data)).encode()

    return apply


class Marker:
    """Creates its file when unpickled: what a pickled ``policy.pth`` could do."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def __reduce__(self):
        return (Path.touch, (self.path,))


def _pickled_policy(marker: Path):
    def apply(members: dict) -> None:
        buffer = io.BytesIO()
        torch.save({"weights": Marker(marker)}, buffer)
        members["policy.pth"] = buffer.getvalue()

    return apply


# ---------------------------------------------------------------------------- what a resume may change


@pytest.mark.parametrize(
    ("override", "message"),
    [
        ("action.rows=4", "action.rows: trained with 3, got 4"),
        ("algo.policy_kwargs.net_arch=[32]", "algo.policy_kwargs.net_arch: trained with None, got [32]"),
        ("observation.shape=[64,40]", "observation.shape: trained with [84, 40], got [64, 40]"),
    ],
)
def test_a_resume_that_changes_the_models_network_or_spaces_is_refused_naming_the_key(run, capsys, override, message):
    before = {name: (run / name).read_bytes() for name in ("config.yaml", "command.txt")}
    assert train_main(["--resume", str(run), "--set", override, "--set", "training.total_timesteps=256"]) == 2
    err = capsys.readouterr().err
    assert f"error: {message}: cannot change when resuming" in err, err
    assert f"androidrl train --config {run / 'config.yaml'} --set " in err  # how to train with it: a new run
    assert {name: (run / name).read_bytes() for name in before} == before
    assert train_main(["--resume", str(run), "--set", "training.total_timesteps=256"]) == 0  # the run still resumes


def test_a_resume_that_fails_to_load_leaves_the_config_as_it_was(run, capsys):
    before = (run / "config.yaml").read_bytes()
    for checkpoint in Run.open(run).checkpoint_paths():
        checkpoint.write_bytes(b"torn")
    assert train_main(["--resume", str(run), "--set", "training.total_timesteps=256"]) == 1
    assert "no checkpoint loads" in capsys.readouterr().err
    assert (run / "config.yaml").read_bytes() == before


def test_a_resume_with_changes_the_model_can_take_applies_them_and_records_them_once_loaded(run):
    changes = ["training.total_timesteps=256", "algo.hyperparams.n_steps=32", "algo.hyperparams.gamma=0.5"]
    assert train_main(["--resume", str(run), *(f"--set={change}" for change in changes)]) == 0
    with zipfile.ZipFile(run / "final_model.zip") as archive:
        data = json.loads(archive.read("data"))
    assert (data["n_steps"], data["gamma"], data["num_timesteps"]) == (32, 0.5, 256)  # trained with them
    saved = yaml.safe_load((run / "config.yaml").read_text())
    assert saved["training"]["total_timesteps"] == 256 and saved["algo"]["hyperparams"]["n_steps"] == 32
    assert (
        (run / "command.txt")
        .read_text()
        .splitlines()[-1]
        .endswith(
            f"train --resume {run} --set=training.total_timesteps=256 --set=algo.hyperparams.n_steps=32 "
            "--set=algo.hyperparams.gamma=0.5"
        )
    )


# ---------------------------------------------------------------------------- checkpoints that do not load


@pytest.mark.parametrize(
    ("kind", "reason"),
    [
        ("data_a_list", "is not a model file: its data is a JSON list, not an object"),
        ("steps_not_a_number", "is not a model file: its num_timesteps is 'abc', not a step count"),
        ("pickled_policy", "does not load: policy.pth holds pickled objects, not only weights; refused"),
    ],
)
def test_a_checkpoint_that_does_not_load_falls_back_to_the_next_older_naming_why(run, tmp_path, capsys, kind, reason):
    good = checkpoint_path(Run.open(run), 128)
    bad = checkpoint_path(Run.open(run), 192)  # newer: tried first
    marker = tmp_path / "unpickled"
    change = {
        "data_a_list": _data(lambda data: [data]),
        "steps_not_a_number": _data(lambda data: {**data, "num_timesteps": "abc"}),
        "pickled_policy": _pickled_policy(marker),
    }[kind]
    _rewrite(good, bad, change)
    assert train_main(["--resume", str(run), "--set", "training.total_timesteps=256"]) == 0
    err = capsys.readouterr().err
    assert f"resume: skipping {bad.name}: {bad} {reason}" in err, err
    assert f"resume: continuing from {good.name} after skipping 1" in err
    assert "Traceback" not in err and "weights_only" not in err and not marker.exists()


def test_files_in_checkpoints_that_are_not_checkpoints_by_name_are_named_and_passed_over(run, capsys):
    good = checkpoint_path(Run.open(run), 128)
    for name in ("rl_model_abc_steps.zip", "step_abc.zip"):
        shutil.copy(good, good.with_name(name))
    assert train_main(["--resume", str(run), "--set", "training.total_timesteps=256"]) == 0
    err = capsys.readouterr().err
    for name in ("rl_model_abc_steps.zip", "step_abc.zip"):
        assert f"resume: ignoring {name}: not a checkpoint's name (rl_model_<steps>_steps.zip)" in err, err


def test_init_from_a_model_with_pickled_weights_is_refused_without_torchs_advice(run, tmp_path, capsys):
    bad, marker = tmp_path / "bad.zip", tmp_path / "unpickled"
    _rewrite(run / "final_model.zip", bad, _pickled_policy(marker))
    config = tmp_path / "c.yaml"
    config.write_text(yaml.safe_dump(CONFIG))
    assert train_main(["--config", str(config), "--init-from", str(bad), "--run-dir", str(tmp_path / "new")]) == 2
    err = capsys.readouterr().err
    assert f"error: --init-from {bad}: does not load: policy.pth holds pickled objects, not only weights" in err, err
    assert "weights_only" not in err and not marker.exists()
