"""Every built-in task is solvable through its shipped config's wrappers: the solver plays its oracle to success."""

from pathlib import Path

import pytest

from androidrl import AndroidEnv, VirtualDevice
from androidrl.solvers import solver_for
from androidrl.tasks import builtin_specs
from androidrl.train.compose import make_wrap
from androidrl.train.config import load_config, parse_config

CONFIGS = Path(__file__).parents[1] / "configs"
#: The shipped config of each task (others act on the element observation's slots, as the suite's configs do:
#: a family may type its fields, wait, and show more than a few elements).
SHIPPED = {
    "tap-target": "quickstart.yaml",
    "open-app": "open_app.yaml",
    "wifi-on": "wifi_on.yaml",
    "airplane-home": "airplane_home.yaml",
    "find-about-phone": "find_about_phone.yaml",
    "notes-word": "notes_word.yaml",
}


def _config(task: str):
    if task in SHIPPED:
        return load_config(CONFIGS / SHIPPED[task])
    return parse_config(
        {
            "task": task,
            "observation": {"shape": [64, 36], "elements": {"max_elements": 32}},
            "action": {"type": "elements", "max_elements": 32, "fields": 4},
            "algo": {"name": "MaskablePPO", "policy": "MultiInputPolicy"},
        }
    )


def test_every_builtin_has_an_oracle_and_unknown_tasks_have_no_solver():
    assert all(spec.oracle for spec in builtin_specs().values())
    with pytest.raises(KeyError, match="no solver for task 'wifi-of'"):
        solver_for("wifi-of")


@pytest.mark.parametrize("task", sorted(builtin_specs()))
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_solver_solves_the_task_through_its_configs_wrappers(task, seed):
    config = _config(task)
    v = config.devices.virtual
    device = VirtualDevice(width=v.width, height=v.height, density=v.density, seed=seed)
    env = make_wrap(config)(AndroidEnv(device, task, screen_size=(v.width, v.height), dump_xml=False))
    solve = solver_for(task)
    try:
        env.reset(seed=seed)
        for _ in range(env.unwrapped.max_steps):
            obs, reward, terminated, truncated, info = env.step(solve(env))
            if terminated or truncated:
                break
        assert terminated and info["is_success"], f"{task}: {info}"
    finally:
        env.close()
