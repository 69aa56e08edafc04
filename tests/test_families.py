"""Every family of the suite, every tier, on the in-process virtual phone at 360x800.

Seeds 0..5 per tier (and three of each tier's test split), so the whole suite stays fast as families grow;
``ANDROIDRL_FAMILY_SEEDS=20 python -m pytest tests/test_families.py`` checks more.

For each episode: the goal does not hold after the reset (and no redraw was needed); the oracle,
acting through the element wrappers, succeeds; a policy that waits never succeeds over the whole
budget; a second reset with the same seed gives the same screen, UI dump and watched state. And
every tier's budget is at least twice the oracle's longest episode.
"""

import hashlib
import os

import numpy as np
import pytest

from androidrl import AndroidEnv, VirtualDevice
from androidrl.solvers import play_oracle, solver_for
from androidrl.tasks import family_specs, make_family_task
from androidrl.tasks.conditions import holds
from androidrl.tasks.generators import Draw, draw_params
from androidrl.tasks.spec import TIERS
from androidrl.wrappers.elements import ElementAction, ElementObservation

SEEDS = range(int(os.environ.get("ANDROIDRL_FAMILY_SEEDS", "6")))
TEST_SEEDS = range(100, 100 + max(1, len(SEEDS) // 2))  # the test split: fewer episodes, other seeds
DRAWS = 50  # the test split's parameters drawn alone (no phone: cheap)


def _env(device, name, tier, split="train"):
    android = AndroidEnv(
        device, make_family_task(name, tier, split), screen_size=(360, 800), dump_xml=False, write_files=False
    )
    return ElementAction(ElementObservation(android, max_elements=32), max_elements=32)


def _frame_hash(frame: np.ndarray) -> str:
    # The phone's frame is an RGB view of its RGBX memory: hash that memory as it is (a strided copy costs ms).
    pixels = frame.base if frame.base is not None and frame.base.flags.c_contiguous else np.ascontiguousarray(frame)
    return hashlib.blake2b(pixels, digest_size=16).hexdigest()


def _start_state(env):
    """What a reset produced: the screen, the UI dump and the watched state."""
    android = env.unwrapped
    snapshot = android.current_snapshot()
    return _frame_hash(android.frame), snapshot.xml, android.task.watched_state(snapshot)


@pytest.mark.parametrize("name", sorted(family_specs()))
def test_the_family_is_sound_at_every_tier(name):
    device = VirtualDevice(width=360, height=800, density=160, seed=0)
    solve = solver_for("suite")
    for tier in TIERS:
        env = _env(device, name, tier)
        task = env.unwrapped.task
        wait = env.key_index("wait")
        longest = 0
        for seed in SEEDS:
            where = f"{name} {tier} seed {seed}"
            _, info = env.reset(seed=seed)
            assert info["redraws"] == 0, where
            assert not holds(task.episode_spec.success, env.unwrapped.current_snapshot(), task.log_since), where
            start = _start_state(env)

            succeeded, steps, last = play_oracle(env, solve)
            assert succeeded and not last["side_effect"], f"{where}: the oracle failed: {last}"
            longest = max(longest, steps)

            env.reset(seed=seed)
            assert _start_state(env) == start, f"{where}: the same seed reset to another state"
            for step in range(task.max_steps):
                *_, terminated, truncated, info = env.step(wait)
                assert not info["is_success"], f"{where}: waiting succeeded at step {step + 1}"
                if terminated or truncated:
                    break
            assert truncated and info["episode_step"] == task.max_steps, where
        assert task.max_steps >= 2 * longest, f"{name} {tier}: max_steps {task.max_steps} < 2 x {longest}"
        env.close()


@pytest.mark.parametrize("name", sorted(family_specs()))
def test_the_family_plays_its_test_split(name):
    """The held-out values (and device configurations) draw, reset cleanly and are solvable at every tier."""
    device = VirtualDevice(width=360, height=800, density=160, seed=0)
    solve = solver_for("suite")
    for tier in TIERS:
        env = _env(device, name, tier, "test")
        task = env.unwrapped.task
        for seed in range(DRAWS):  # every parameter has values in the held-out split, whatever came before
            draw_params(task.spec.params, Draw(np.random.default_rng(seed), "test"))
        for seed in TEST_SEEDS:
            where = f"{name} {tier} test split seed {seed}"
            _, info = env.reset(seed=seed)
            assert info["redraws"] == 0, where
            assert not holds(task.episode_spec.success, env.unwrapped.current_snapshot(), task.log_since), where
            succeeded, _, last = play_oracle(env, solve)
            assert succeeded and not last["side_effect"], f"{where}: the oracle failed: {last}"
        env.close()
