"""Every built-in task is solvable through its shipped config's wrappers: the solver plays its oracle to success.

A task without a shipped config acts over UI elements, or (a family of the suite that types or long-presses)
through the suite's element action.
"""

from pathlib import Path

import pytest

from androidrl import AndroidEnv, VirtualDevice
from androidrl.solvers import solver_for
from androidrl.tasks import builtin_specs, family_specs
from androidrl.train.compose import make_wrap
from androidrl.train.config import load_config, parse_config

CONFIGS = Path(__file__).parents[1] / "configs"
#: The shipped config of each task (others act over UI elements, the default for stock tasks).
SHIPPED = {
    "tap-target": "quickstart.yaml",
    "open-app": "open_app.yaml",
    "wifi-on": "wifi_on.yaml",
    "airplane-home": "airplane_home.yaml",
    "find-about-phone": "find_about_phone.yaml",
    "notes-word": "notes_word.yaml",
}
#: Families played over UI elements (taps and scrolls are all they need), the default for stock tasks.
UI_ELEMENTS = {"open-any-app", "wifi-off", "bluetooth-on", "bluetooth-off", "airplane-off", "settings-page",
               "airplane-clock", "wifi-on-logged"}  # fmt: skip


#: What the suite's families act through when no config ships for them (what tests/test_families.py plays).
ELEMENTS = {
    "observation": {"elements": {"max_elements": 32}},
    "action": {"type": "elements", "max_elements": 32},
    "algo": {"name": "MaskablePPO", "policy": "MultiInputPolicy"},
}


def _config(task: str):
    if task in SHIPPED:
        return load_config(CONFIGS / SHIPPED[task])
    if task in family_specs() and task not in UI_ELEMENTS:  # (typing, long presses: the suite's element action)
        return parse_config({"task": task, **ELEMENTS})
    return parse_config({"task": task, "action": {"type": "ui_elements", "max_elements": 16}})


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
