"""rl-zoo3 trains on an androidrl id with the hyperparameters androidrl ships, as the README says."""

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from androidrl.zoo.ppo import hyperparams

ROOT = Path(__file__).parents[1]


def test_the_shipped_hyperparameters_are_rl_zoos_with_a_cnn_policy():
    assert hyperparams["default"]["policy"] == "CnnPolicy"
    assert hyperparams == yaml.safe_load((ROOT / "androidrl" / "zoo" / "ppo.yml").read_text())


@pytest.mark.slow
def test_the_readmes_rl_zoo_line_trains_a_cnn_policy(tmp_path):
    (line,) = [m for m in re.findall(r"^python -m rl_zoo3\.train .*$", (ROOT / "README.md").read_text(), re.M)]
    command = shlex.split(line.replace("python", sys.executable, 1))
    # A few hundred steps on small phones (the README's line trains on 1080x2400 screens, for 100k steps).
    command += ["-n", "256", "--log-folder", str(tmp_path), "--env-kwargs", "width:180", "height:400", "density:80"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=600, cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    (saved,) = tmp_path.glob("ppo/androidrl-TapTargetPixels-v0_*/androidrl-TapTargetPixels-v0/config.yml")
    assert "CnnPolicy" in saved.read_text()
    assert list(tmp_path.glob("ppo/androidrl-TapTargetPixels-v0_*/androidrl-TapTargetPixels-v0.zip"))
