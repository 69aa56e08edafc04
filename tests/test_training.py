"""Training end to end: a short run into a temp directory, resume, Ctrl-C, evaluation, notebook."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import nbformat
import numpy as np
import pytest
import yaml
from nbclient import NotebookClient

from androidrl.recording import load_dataset
from androidrl.train import analysis
from androidrl.train.config import ConfigError, parse_config
from androidrl.train.evaluation import evaluate_run, load_run_model
from androidrl.train.evaluation import main as evaluate_main
from androidrl.train.runs import Run, checkpoint_steps, command_line
from androidrl.train.training import main as train_main
from androidrl.train.training import train

from conftest import tiny_config

pytestmark = pytest.mark.slow
ROOT = Path(__file__).parents[1]
SHORT = tiny_config(
    action={"swipes": False, "back": False, "home": False},
    algo={"hyperparams": {"n_steps": 64, "batch_size": 64, "n_epochs": 2}},
    training={"total_timesteps": 256, "eval_freq": 128, "eval_episodes": 2, "checkpoint_freq": 128},
)


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    """One short training run shared by the tests below."""
    directory = tmp_path_factory.mktemp("runs") / "short"
    config = parse_config(SHORT)
    return train(Run.create(config, directory, command_line("train", ["--config", "short.yaml"])))


def test_a_run_directory_has_everything(trained):
    from stable_baselines3.common.utils import get_system_info

    run = trained.run.directory
    assert trained.timesteps >= 256 and trained.final_model == run / "final_model.zip"
    assert yaml.safe_load((run / "config.yaml").read_text())["training"]["total_timesteps"] == 256
    assert "-m androidrl train --config short.yaml" in (run / "command.txt").read_text()
    versions = json.loads((run / "versions.json").read_text())
    assert get_system_info(print_info=False)[0].items() <= versions.items()  # SB3's own record, and ours beside it
    assert versions["sb3-contrib"] and "androidrl_commit" in versions
    assert sorted(p.name for p in (run / "monitor").iterdir()) == ["worker_0.monitor.csv", "worker_1.monitor.csv"]
    assert list((run / "tb").rglob("events.out.tfevents.*"))
    assert (run / "evaluations.csv").read_text().startswith("timesteps,success_rate,mean_return,std_return")
    # SB3's CheckpointCallback names, and SB3's EvalCallback files with its dtypes, so zoo tools read our runs
    assert sorted(p.name for p in (run / "checkpoints").iterdir()) == [
        "rl_model_128_steps.zip",
        "rl_model_256_steps.zip",
    ]
    evaluations = np.load(run / "evaluations.npz")
    assert list(evaluations["timesteps"]) == [128, 256] and evaluations["results"].shape == (2, 2)
    assert evaluations["ep_lengths"].shape == evaluations["successes"].shape == (2, 2)
    dtypes = {name: evaluations[name].dtype for name in evaluations.files}
    assert dtypes == {"timesteps": np.int64, "results": np.float64, "ep_lengths": np.int64, "successes": np.bool_}
    assert (run / "best_model.zip").stat().st_size > 1000


def test_tensorboard_has_sb3_eval_tags(trained):
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    (events,) = {p.parent for p in (trained.run.directory / "tb").rglob("events.out.tfevents.*")}
    tags = EventAccumulator(str(events)).Reload().Tags()["scalars"]
    assert {"eval/mean_reward", "eval/mean_ep_length", "eval/success_rate"} <= set(tags)


def test_the_final_model_loads_and_predicts(trained):
    from stable_baselines3 import PPO

    model = PPO.load(trained.final_model)
    action, _ = model.predict(np.zeros((84, 40, 3), dtype=np.uint8), deterministic=True)
    assert 0 <= int(action) < 9


def test_resuming_a_finished_run_says_how_to_train_it_further(trained, capsys):
    run = trained.run.directory
    assert train_main(["--resume", str(run)]) == 2
    err = capsys.readouterr().err
    assert f"{run} is finished: it trained 256 steps of training.total_timesteps 256" in err
    assert f"androidrl train --resume {run} --set training.total_timesteps=512" in err


def test_resume_continues_the_step_count(trained):
    run = trained.run.directory
    before = trained.timesteps
    code = train_main(["--resume", str(run), "--set", "training.total_timesteps=512"])
    assert code == 0
    from stable_baselines3 import PPO

    assert PPO.load(run / "final_model.zip").num_timesteps >= 512 > before
    assert yaml.safe_load((run / "config.yaml").read_text())["training"]["total_timesteps"] == 512
    assert "--resume" in (run / "command.txt").read_text().splitlines()[-1]
    # The evaluations go on from where they were, in SB3's format, and each is seeded by its index.
    assert list(np.load(run / "evaluations.npz")["timesteps"]) == [128, 256, 384, 512]
    # The resumed segment has CSVs of its own, and the learning curve orders both segments in time.
    assert {"worker_0.1.monitor.csv", "worker_1.1.monitor.csv"} <= set(os.listdir(run / "monitor"))
    episodes = analysis.monitor_episodes(run)
    assert [e["time"] for e in episodes] == sorted(e["time"] for e in episodes)
    assert episodes[-1]["steps"] > 512 - 4 * 10  # both segments, but for episodes cut off at each end


def test_init_from_starts_a_new_run_from_trained_weights(trained, tmp_path):
    from stable_baselines3 import PPO

    source = PPO.load(trained.run.directory / "final_model.zip").policy.state_dict()
    tiny = {**SHORT, "seed": 7, "training": {**SHORT["training"], "total_timesteps": 128, "eval_freq": 0}}
    tiny["algo"] = {**SHORT["algo"], "hyperparams": {**SHORT["algo"]["hyperparams"], "learning_rate": 1e-12}}
    result = train(Run.create(parse_config(tiny), tmp_path / "tuned"), init_from=trained.run.directory)
    tuned = PPO.load(result.final_model).policy.state_dict()
    assert result.timesteps == 128  # a new run with its own step count
    assert all(np.allclose(tuned[k].numpy(), v.numpy(), atol=1e-6) for k, v in source.items())
    from_zip = train(
        Run.create(parse_config(tiny), tmp_path / "zip"), init_from=trained.run.directory / "final_model.zip"
    )
    zipped = PPO.load(from_zip.final_model).policy.state_dict()
    assert all(np.allclose(zipped[k].numpy(), v.numpy(), atol=1e-6) for k, v in source.items())
    fresh = train(Run.create(parse_config(tiny), tmp_path / "fresh"))
    fresh_weights = PPO.load(fresh.final_model).policy.state_dict()
    assert not all(np.allclose(fresh_weights[k].numpy(), v.numpy(), atol=1e-6) for k, v in source.items())


def test_algo_verbose_reaches_the_model_and_prints_sb3s_table(tmp_path, capsys):
    tiny = {**SHORT, "algo": {**SHORT["algo"], "verbose": 1}, "training": {**SHORT["training"], "eval_freq": 0}}
    result = train(Run.create(parse_config(tiny), tmp_path / "verbose"))
    assert result.final_model.exists()
    assert "total_timesteps" in capsys.readouterr().out  # SB3's own progress table


def test_init_from_refuses_what_does_not_fit(trained, tmp_path, capsys):
    config = tmp_path / "wide.yaml"
    config.write_text(yaml.safe_dump({**SHORT, "observation": {"shape": [84, 84]}}))
    code = train_main(
        ["--config", str(config), "--init-from", str(trained.run.directory), "--run-dir", str(tmp_path / "a")]
    )
    assert code == 2 and "its network does not fit this config's" in capsys.readouterr().err
    code = train_main(
        ["--config", str(config), "--init-from", str(tmp_path / "nothing"), "--run-dir", str(tmp_path / "b")]
    )
    assert code == 2 and "no such run directory or model file" in capsys.readouterr().err
    assert not (tmp_path / "b").exists()  # nothing made for a mistyped path


def test_evaluate_script_reports_and_records(trained, capsys):
    assert evaluate_main(["--run", str(trained.run.directory), "--episodes", "3"]) == 0
    out = capsys.readouterr().out
    assert "success" in out and "written to" in out
    summary = json.loads(sorted((trained.run.directory / "eval").glob("*/summary.json"))[-1].read_text())
    assert summary["episodes"] == 3 and len(summary["episodes_detail"]) == 3
    episodes = load_dataset(summary["recordings"])
    assert len(episodes) == 3
    first = episodes[0]
    assert first.observations.shape[1:] == (84, 40, 3) and first.frames.shape[0] == first.length + 1
    assert first.env_actions.shape == (first.length, 5) and first.infos[0]["task"] == "tap-target"


def test_the_notebook_executes_on_the_run(trained):
    notebook = nbformat.read(ROOT / "notebooks" / "evaluate.ipynb", as_version=4)
    parameters = next(c for c in notebook.cells if "parameters" in c.metadata.get("tags", []))
    parameters.source = f'run_dir = "{trained.run.directory}"\nepisodes = 2'
    NotebookClient(notebook, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(ROOT)}}).execute()
    errors = [o for c in notebook.cells for o in c.get("outputs", []) if o.output_type == "error"]
    assert errors == []
    for name in ("learning_curves.png", "filmstrip.png", "episode.gif"):
        assert (trained.run.directory / name).stat().st_size > 1000


def test_the_notebook_compares_runs_across_seeds(tmp_path):
    # `androidrl train --seeds 0 1`: two runs that differ only in the seed, side by side
    runs = [train(Run.create(parse_config({**SHORT, "seed": seed}), tmp_path / f"short-{seed}")) for seed in (0, 1)]
    notebook = nbformat.read(ROOT / "notebooks" / "evaluate.ipynb", as_version=4)
    parameters = next(c for c in notebook.cells if "parameters" in c.metadata.get("tags", []))
    parameters.source = f'run_dir = "{runs[1].run.directory}"\nepisodes = 2'
    NotebookClient(notebook, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(ROOT)}}).execute()
    texts = [o.get("data", {}).get("text/markdown", "") for c in notebook.cells for o in c.get("outputs", [])]
    assert any(t.startswith("**2 seeds**, last evaluation success:") and "IQM" in t for t in texts), texts
    assert (runs[1].run.directory / "seeds.png").stat().st_size > 1000


def test_recurrent_ppo_trains_and_evaluates_with_its_lstm_state(tmp_path):
    config = parse_config(
        {
            **SHORT,
            "algo": {
                "name": "RecurrentPPO",
                "policy": "CnnLstmPolicy",
                "hyperparams": {"n_steps": 32, "batch_size": 32, "n_epochs": 1},
            },
            "training": {**SHORT["training"], "total_timesteps": 64, "eval_freq": 0, "checkpoint_freq": 0},
        }
    )
    result = train(Run.create(config, tmp_path / "lstm", ["test"]))
    assert result.timesteps >= 64 and result.final_model.exists()
    assert type(load_run_model(result.run)).__name__ == "RecurrentPPO"
    summary = evaluate_run(tmp_path / "lstm", episodes=2, record=False)
    assert summary["episodes"] == 2 and len(summary["episodes_detail"]) == 2


def test_bad_runs_and_configs_fail_before_any_work(tmp_path, capsys, adb_server):
    with pytest.raises(ConfigError, match="is not a run directory"):
        Run.open(tmp_path)
    with pytest.raises(ConfigError, match="is not a run directory"):
        evaluate_run(tmp_path)
    for command in (["evaluate", "--run"], ["watch", "--run"], ["train", "--resume"]):  # a mistyped run directory
        line = [sys.executable, "-m", "androidrl", *command, str(tmp_path / "nope")]
        done = subprocess.run(line, capture_output=True, text=True, timeout=120)
        assert done.returncode == 2 and f"run directory {tmp_path / 'nope'} does not exist" in done.stderr, done.stderr
    bad = tmp_path / "bad.yaml"
    bad.write_text("algo: {hyperparams: {n_stepz: 5}}\n")
    assert train_main(["--config", str(bad), "--run-dir", str(tmp_path / "r")]) == 2
    assert "n_stepz" in capsys.readouterr().err and not (tmp_path / "r").exists()
    missing = tmp_path / "phones.yaml"
    phones = {"serials": ["emulator-5998"], "adb": {"port": adb_server.port}}
    missing.write_text(yaml.safe_dump({**SHORT, "devices": phones, "training": {"eval_freq": 0}}))
    assert train_main(["--config", str(missing), "--run-dir", str(tmp_path / "p")]) == 2
    assert "devices.serials: emulator-5998 is not connected" in capsys.readouterr().err
    assert not (tmp_path / "p").exists()


def test_evaluation_checks_devices_and_the_model_before_writing_anything(trained, adb_server, capsys, monkeypatch):
    monkeypatch.setenv("ANDROID_ADB_SERVER_PORT", str(adb_server.port))  # not the machine's own server (5037)
    run = trained.run.directory
    before = sorted((run / "eval").glob("*")) if (run / "eval").exists() else []
    assert evaluate_main(["--run", str(run), "--checkpoint", "nope.zip"]) == 2
    assert "checkpoint nope.zip does not exist" in capsys.readouterr().err
    assert evaluate_main(["--run", str(run), "--devices", "virtual:big"]) == 2
    assert "--devices: serials: bad virtual device 'virtual:big'" in capsys.readouterr().err
    with pytest.raises(ConfigError, match="devices.serials: emulator-5998 is not connected"):
        evaluate_run(run, devices=["emulator-5998"])
    assert (sorted((run / "eval").glob("*")) if (run / "eval").exists() else []) == before


def test_an_evaluation_device_that_goes_down_is_an_error_not_a_result():
    from stable_baselines3 import PPO

    from androidrl.errors import DeviceError
    from androidrl.train.compose import make_vec_env
    from androidrl.train.evaluation import evaluate

    phone = {"virtual": {"count": 1, "width": 180, "height": 400, "density": 80}}
    config = parse_config({**SHORT, "devices": phone, "env": {"reset_timeout": 2}})
    env = make_vec_env(config, config.devices, backend="dummy")
    try:
        model = PPO("MlpPolicy", env, n_steps=16, batch_size=16, device="cpu")
        assert len(evaluate(model, env, 2)) == 2
        with pytest.raises(DeviceError):  # the phone powers off (`reboot` never answers)
            env.env_method("shell", "reboot -p")
        with pytest.raises(DeviceError, match="an evaluation episode was cut short by a device fault"):
            evaluate(model, env, 5)
    finally:
        env.close()


def test_ctrl_c_saves_a_checkpoint_and_resume_picks_it_up(tmp_path):
    config = tmp_path / "long.yaml"
    config.write_text(
        yaml.safe_dump(
            {
                **SHORT,
                "training": {**SHORT["training"], "total_timesteps": 100000, "checkpoint_freq": 0, "eval_freq": 0},
            }
        )
    )
    run = tmp_path / "run"
    process = subprocess.Popen(
        [sys.executable, str(ROOT / "scripts" / "train.py"), "--config", str(config), "--run-dir", str(run)],
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    deadline = time.monotonic() + 120
    while not any((run / "monitor").glob("*.csv")) or time.monotonic() < deadline - 110:
        if time.monotonic() > deadline:
            process.kill()
            pytest.fail("training did not start")
        time.sleep(0.5)
    time.sleep(3)
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    assert "continue with --resume" in err
    checkpoint = Run.open(run).latest_checkpoint()
    assert checkpoint is not None and checkpoint_steps(checkpoint) > 0


def test_the_notebook_finds_the_newest_run_by_default(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(FileNotFoundError, match="train one with: androidrl train --config q"):
        analysis.newest_run("q")
    for age, name in enumerate(("q-20261122-101501", "q-20261122-101500", "q-20260101-000000")):
        (tmp_path / "runs" / name).mkdir(parents=True)
        (tmp_path / "runs" / name / "versions.json").write_text("{}")  # written once, when the run starts
        os.utime(tmp_path / "runs" / name / "versions.json", (1e9 - age, 1e9 - age))
    (tmp_path / "runs" / "q-20261122-101500" / "config.yaml").write_text("{}")
    (tmp_path / "runs" / "q-20260101-000000" / "config.yaml").write_text("{}")
    assert analysis.newest_run("q") == Path("runs/q-20261122-101500")  # the newest with a config


def test_the_progress_bar_shows_one_rate_and_the_steps_really_taken(tmp_path, capsys):
    # 2 envs x n_steps 64: SB3 takes whole rollouts of 128 steps, so a budget of 100 ends at 128.
    tiny = {**SHORT, "training": {**SHORT["training"], "total_timesteps": 100, "eval_freq": 0, "progress_bar": True}}
    result = train(Run.create(parse_config(tiny), tmp_path / "bar"))
    assert result.timesteps == 128
    lines = [line for line in capsys.readouterr().err.replace("\r", "\n").splitlines() if "%|" in line]
    assert lines and "128/128" in lines[-1] and lines[-1].startswith("test: 100%")
    assert all(line.count("/s") == 1 and "steps/s, success" in line for line in lines if "/s" in line)
