"""The installed ``androidrl`` command: version, shipped configs, and the commands it hands on."""

import argparse
import importlib
import signal
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

import androidrl
from androidrl.cli import DELEGATES, build_parser
from androidrl.train.config import load_config, shipped_configs

from conftest import tiny_config

COMMAND = str(Path(sys.executable).with_name("androidrl"))


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([COMMAND, *args], capture_output=True, text=True, timeout=120, cwd=cwd)


def test_version_from_the_script_and_the_module():
    assert run("--version").stdout.strip() == f"androidrl {androidrl.__version__}"
    module = subprocess.run([sys.executable, "-m", "androidrl", "--version"], capture_output=True, text=True)
    assert module.stdout.strip() == f"androidrl {androidrl.__version__}"


def test_configs_lists_every_shipped_config_with_what_it_is():
    out = run("configs").stdout
    for name in shipped_configs():
        line = next(line for line in out.splitlines() if line.startswith(name + " "))
        assert len(line.split(None, 1)) == 2  # a description follows the name
    assert "quickstart" in shipped_configs() and "androidrl configs copy" in out


def test_configs_copy_gives_an_editable_config_and_never_overwrites(tmp_path):
    done = run("configs", "copy", "quickstart", cwd=tmp_path)
    assert done.returncode == 0 and (tmp_path / "quickstart.yaml").exists()
    copied = tmp_path / "quickstart.yaml"
    data = yaml.safe_load(copied.read_text())
    data["training"]["total_timesteps"] = 123
    copied.write_text(yaml.safe_dump(data))
    assert load_config(copied).training.total_timesteps == 123
    again = run("configs", "copy", "quickstart", cwd=tmp_path)
    assert again.returncode == 1 and "exists; not overwritten" in again.stderr
    assert yaml.safe_load(copied.read_text())["training"]["total_timesteps"] == 123
    bad = run("configs", "copy", "nonesuch", cwd=tmp_path)
    assert bad.returncode == 2 and "give a shipped config" in bad.stderr
    assert run("configs", "copy", "all", str(tmp_path / "all")).returncode == 0
    assert sorted(p.stem for p in (tmp_path / "all").iterdir()) == sorted(shipped_configs())


def test_configs_copy_to_a_yaml_name_writes_that_file(tmp_path):
    done = run("configs", "copy", "wifi_on", "mine/wifi.yaml", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "mine" / "wifi.yaml").is_file()
    assert load_config(tmp_path / "mine" / "wifi.yaml").task == "wifi-on"


def _every_parser(monkeypatch) -> dict[str, argparse.ArgumentParser]:
    """Each subcommand's parser: the ones build_parser makes, and those the delegated commands make."""
    parser = build_parser()
    (sub,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    parsers = {name: p for name, p in sub.choices.items() if name not in DELEGATES}
    seen = []
    monkeypatch.setattr(argparse.ArgumentParser, "print_help", lambda self, file=None: seen.append(self))
    for name, (target, _) in DELEGATES.items():
        module, function = target.split(":")
        with pytest.raises(SystemExit):
            getattr(importlib.import_module(module), function)(["--help"])
        parsers[name] = seen[-1]
    return parsers


def test_every_command_page_has_a_description_and_every_option_help(monkeypatch):
    parsers = _every_parser(monkeypatch)
    assert set(parsers) >= {"train", "evaluate", "tune", "watch", "results", "bench", "virtual", "node", "doctor"}
    for name, parser in parsers.items():
        assert parser.description, f"androidrl {name} --help has no description"
        for action in parser._actions:
            if not isinstance(action, argparse._HelpAction):
                assert action.help, f"androidrl {name}: {action.option_strings or action.dest} has no help"


def test_shipped_configs_say_how_to_train_them_with_the_installed_command():
    for name, path in shipped_configs().items():
        text = path.read_text()
        assert "scripts/" not in text, f"{name}.yaml points at the repository's scripts"
        assert f"androidrl train --config {name}" in text


@pytest.mark.slow
def test_a_new_user_copies_the_quickstart_and_trains_it_outside_the_repository(tmp_path):
    # README: pip install -e ".[train]", then `androidrl configs copy quickstart .` and
    # `androidrl train --config quickstart.yaml`, no repository scripts (here with a small budget).
    assert run("configs", "copy", "quickstart", ".", cwd=tmp_path).returncode == 0
    done = run(
        "train", "--config", "quickstart.yaml", "--set", "training.total_timesteps=256",
        "--set", "training.eval_freq=128", "--set", "training.progress_bar=false", cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    (directory,) = (tmp_path / "runs").glob("quickstart-*")
    assert (directory / "final_model.zip").is_file() and (directory / "best_model.zip").is_file()
    assert (directory / "evaluations.npz").is_file()


def test_delegated_commands_have_their_own_help():
    for command, words in (("train", "--config"), ("evaluate", "--run"), ("results", "--seeds"), ("bench", "--quick")):
        done = run(command, "--help")
        assert done.returncode == 0 and f"usage: androidrl {command}" in done.stdout and words in done.stdout


def test_train_with_a_bad_config_name_says_what_exists(tmp_path):
    done = run("train", "--config", "quickstrat", cwd=tmp_path)
    assert done.returncode != 0 and "no shipped config of that name" in done.stderr
    assert "Traceback" not in done.stderr


def test_rollout_types_only_what_android_can_type(tmp_path):
    done = run("rollout", "--steps", "60", "--out", str(tmp_path), "--seed", "3")
    assert done.returncode == 0, done.stderr
    assert "USER_INPUT" in done.stdout  # it did type
    assert "cannot type" not in done.stdout


def test_ctrl_c_ends_a_command_with_130_and_no_traceback(tmp_path):
    command = [sys.executable, "-m", "androidrl", "rollout", "--steps", "100000", "--out", str(tmp_path)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert process.stdout.readline().startswith("step")  # running (past the imports)
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=30)
    assert process.returncode == 130, err
    assert "Traceback" not in err and "interrupted" in err


def test_help_lists_the_version():
    done = run("--help")
    assert done.returncode == 0 and "-V, --version" in done.stdout


def test_options_are_spelled_the_same_in_every_command(monkeypatch):
    parsers = _every_parser(monkeypatch)
    options = {name: {s: a for a in p._actions for s in a.option_strings} for name, p in parsers.items()}
    for name, parser in parsers.items():
        assert "--device" not in options[name], f"androidrl {name}: --devices is the spelling"
        assert not any(a.dest == "run" and not a.option_strings for a in parser._actions), f"{name}: write --run RUN"
        if "--width" in options[name]:  # --width is the phone's screen everywhere, never the observation's
            assert "screen width" in options[name]["--width"].help, f"androidrl {name} --width"
        assert "--port" not in options[name] or "adb server" not in options[name]["--port"].help, name
    for name in ("evaluate", "watch"):
        assert {"--run", "--devices"} <= set(options[name])
    assert {"--devices", "--shape"} <= set(options["record"])
    assert {"--adb-host", "--adb-port"} <= set(options["devices"]) and "--adb-port" in options["node"]


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["record", "--devices", "virtual:0x0"], "bad virtual device 'virtual:0x0'"),
        (["record", "--task", "no-such-task"], "no-such-task"),
        (["minari", ".", "androidrl/tap-target/random"], "a Minari dataset id is"),
        (["configs", "copy", "nonesuch"], "give a shipped config"),
        (["rollout", "--width", "10"], "screen must be 64-4096 pixels a side"),
        (["evaluate", "--run", "no-such-run"], "run directory no-such-run does not exist"),
        (["watch", "--run", "no-such-run"], "run directory no-such-run does not exist"),
        (["tune", "--config", "no-such-config"], "no shipped config of that name"),
        (["virtual", "--emulator", "--port", "5556"], "--emulator takes the odd adb port"),
        (["tasks", "check"], "give the task file to check"),
        (["rollout", "--steps", "-1"], "argument --steps: expected an int in 0..10,000,000, got '-1'"),
    ],
)
def test_a_command_used_wrongly_exits_2_saying_why(tmp_path, args, says):
    done = run(*args, cwd=tmp_path)
    assert done.returncode == 2, (args, done.stderr)
    assert says in done.stderr and "Traceback" not in done.stderr, done.stderr


def test_configs_are_listed_with_whole_sentences():
    for line in run("configs").stdout.splitlines()[:-1]:
        name, about = line.split(None, 1)
        assert about.endswith((".", "!", "?")), f"{name}: {about!r} stops mid-sentence"
        assert about.split()[0] in shipped_configs()[name].read_text().splitlines()[0]


@pytest.mark.slow
def test_the_installed_command_imports_plugins_from_the_current_directory(tmp_path):
    # As `python -m androidrl` does: a module beside the config is found by the `androidrl` script too.
    (tmp_path / "mywrappers.py").write_text("import gymnasium as gym\n\n\nclass Same(gym.Wrapper):\n    pass\n")
    config = tmp_path / "mine.yaml"
    config.write_text(yaml.safe_dump({**tiny_config(), "wrappers": ["mywrappers.Same"]}))
    done = run("train", "--config", "mine.yaml", "--run-dir", "run", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "mywrappers.Same" in (tmp_path / "run" / "config.yaml").read_text()
