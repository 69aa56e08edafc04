"""Bad inputs of every kind, and what androidrl answers to each: the table of tests/test_bad_inputs.py, and its tally.

A case is one input a user could give — a config key of every section and type, a flag of every
command, a task file's field, a device string, an action passed to ``env.step``, an env's or a
pixel env's keyword, YAML bombs and anchors, huge numbers, NaN, infinity, empty values, wrong
types, unicode — with the words a clear answer names (the key path, the flag, the field).
:func:`run_case` runs one in a child process (forked: every case starts from the same state, and
one that hangs is killed) and says what happened:

- ``clear``: refused with the error kind the input calls for, naming what the case expects, in at
  most :data:`MAX_LINES` lines and :data:`MAX_CHARS` characters;
- ``unclear``: refused, but the message does not name it, or is too long to read;
- ``silent``: accepted;
- ``traceback``: an exception of another kind escaped (a traceback, to a user), or the child died;
- ``hang``: no answer within the timeout.

``python tests/input_probes.py`` prints the tally (``-v``: and every case that is not clear).
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import resource
import select
import signal
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import yaml

#: A clear message fits on a screen.
MAX_LINES = 30
MAX_CHARS = 4000
#: Seconds a case may take before it counts as a hang.
TIMEOUT = 30.0
#: Memory a case may allocate beyond what its parent holds (a bomb fails, it does not take the machine).
MEMORY = 3 * 2**30

INF, NAN = math.inf, math.nan
HUGE = 10**5000 - 1  # (more digits than Python converts to text by default)


@dataclass(frozen=True)
class Case:
    """One bad input: its kind (how it is given), the input, and the words a clear answer names."""

    id: str
    kind: str
    data: Any
    expect: str


@dataclass(frozen=True)
class Outcome:
    """What androidrl answered: the verdict (clear, unclear, silent, traceback, hang) and the message."""

    verdict: str
    message: str


# ---------------------------------------------------------------------------- the table

#: The config every config case changes (a small, valid one).
BASE_CONFIG: dict[str, Any] = {
    "experiment": "probe",
    "task": "tap-target",
    "devices": {"virtual": {"count": 1, "width": 360, "height": 800, "density": 160}},
    "observation": {"shape": [84, 84]},
    "algo": {"hyperparams": {"n_steps": 64, "batch_size": 64}},
    "training": {"total_timesteps": 128, "eval_freq": 0, "checkpoint_freq": 0, "progress_bar": False},
}
#: The task every task case changes (a small, valid one).
BASE_TASK: dict[str, Any] = {"name": "probe", "success": {"shell": "echo 1", "equals": "1"}}
COND = {"shell": "echo 1", "equals": "1"}
#: A billion laughs: a flow mapping whose last anchor, once expanded, holds 10^9 strings (its text: 400 bytes).
BOMB = (
    "{"
    + ", ".join(
        [f"a: &a [{', '.join(['x'] * 10)}]"]
        + [f"{n}: &{n} [{', '.join(['*' + p] * 10)}]" for p, n in zip("abcdefgh", "bcdefghi")]
    )
    + "}"
)


class Replace:
    """A value that replaces a mapping of the base instead of merging into it."""

    def __init__(self, value: Any) -> None:
        self.value = value


#: Small off-policy hyperparameters (the default replay buffer would not fit in a test machine's memory).
OFF_POLICY = {"buffer_size": 1000, "learning_starts": 10, "batch_size": 32}


def _serials(*serials: str) -> dict:
    return {"devices": {"virtual": None, "serials": list(serials)}}


def _hp(expect_key: str, value: Any, algo: str | None = None, action: str | None = None) -> tuple:
    changes: dict[str, Any] = {"algo": {"hyperparams": {expect_key: value}}}
    if algo:
        changes["algo"]["name"] = algo
        base = OFF_POLICY if algo in ("DQN", "SAC", "TD3") else {}
        changes["algo"]["hyperparams"] = Replace({**base, expect_key: value})
        if algo in ("SAC", "TD3"):
            changes["action"] = {"type": "box"}
    if action:
        changes["action"] = {"type": action}
    return changes, f"algo.hyperparams.{expect_key}"


CONFIG: list[tuple[str, dict, str]] = [
    ("experiment 300 characters", {"experiment": "a" * 300}, "experiment"),
    ("experiment empty", {"experiment": ""}, "experiment"),
    ("experiment with a slash", {"experiment": "a/b"}, "experiment"),
    ("experiment unicode", {"experiment": "expérience"}, "experiment"),
    ("experiment a number", {"experiment": 5}, "experiment"),
    ("experiment null", {"experiment": None}, "experiment"),
    ("experiment a list", {"experiment": ["a"]}, "experiment"),
    ("seed negative", {"seed": -1}, "seed"),
    ("seed 2**32", {"seed": 2**32}, "seed"),
    ("seed true", {"seed": True}, "seed"),
    ("seed 1.5", {"seed": 1.5}, "seed"),
    ("seed text", {"seed": "abc"}, "seed"),
    ("seed null", {"seed": None}, "seed"),
    ("seed a list", {"seed": [1]}, "seed"),
    ("seed inf", {"seed": INF}, "seed"),
    ("seed nan", {"seed": NAN}, "seed"),
    ("seed 10**30", {"seed": 10**30}, "seed"),
    ("seed 5000 digits", {"seed": HUGE}, "seed"),
    ("run_dir empty", {"run_dir": ""}, "run_dir"),
    ("run_dir a number", {"run_dir": 5}, "run_dir"),
    ("run_dir with NUL", {"run_dir": "runs\x00x"}, "run_dir"),
    ("unknown top-level key", {"seeds": 1}, "seeds"),
    ("devices a string", {"devices": "virtual"}, "devices"),
    ("devices empty", {"devices": {"virtual": None}}, "devices"),
    ("devices two kinds", {"devices": {"serials": ["emulator-5554"]}}, "devices"),
    ("virtual count 0", {"devices": {"virtual": {"count": 0}}}, "devices.virtual.count"),
    ("virtual count -1", {"devices": {"virtual": {"count": -1}}}, "devices.virtual.count"),
    ("virtual count 65", {"devices": {"virtual": {"count": 65}}}, "devices.virtual.count"),
    ("virtual count true", {"devices": {"virtual": {"count": True}}}, "devices.virtual.count"),
    ("virtual count 1.5", {"devices": {"virtual": {"count": 1.5}}}, "devices.virtual.count"),
    ("virtual count inf", {"devices": {"virtual": {"count": INF}}}, "devices.virtual.count"),
    ("virtual count text", {"devices": {"virtual": {"count": "two"}}}, "devices.virtual.count"),
    ("virtual width 0", {"devices": {"virtual": {"width": 0}}}, "devices.virtual"),
    ("virtual width 1e9", {"devices": {"virtual": {"width": 10**9}}}, "devices.virtual"),
    ("virtual width true", {"devices": {"virtual": {"width": True}}}, "devices.virtual.width"),
    ("virtual height text", {"devices": {"virtual": {"height": "tall"}}}, "devices.virtual.height"),
    ("virtual density 0", {"devices": {"virtual": {"density": 0}}}, "devices.virtual"),
    ("virtual density nan", {"devices": {"virtual": {"density": NAN}}}, "devices.virtual.density"),
    ("virtual unknown key", {"devices": {"virtual": {"dpi": 160}}}, "devices.virtual.dpi"),
    ("virtual night a number", {"devices": {"virtual": {"night": 1}}}, "devices.virtual.night"),
    ("virtual night text", {"devices": {"virtual": {"night": "dark"}}}, "devices.virtual.night"),
    ("virtual font_scale 0", {"devices": {"virtual": {"font_scale": 0}}}, "devices.virtual.font_scale"),
    ("virtual font_scale 1e9", {"devices": {"virtual": {"font_scale": 1e9}}}, "devices.virtual.font_scale"),
    ("virtual font_scale nan", {"devices": {"virtual": {"font_scale": NAN}}}, "devices.virtual.font_scale"),
    ("virtual font_scale true", {"devices": {"virtual": {"font_scale": True}}}, "devices.virtual.font_scale"),
    ("virtual locale a word", {"devices": {"virtual": {"locale": "German"}}}, "devices.virtual.locale"),
    ("virtual locale 10k chars", {"devices": {"virtual": {"locale": "de" * 5000}}}, "devices.virtual.locale"),
    ("virtual locale a number", {"devices": {"virtual": {"locale": 7}}}, "devices.virtual.locale"),
    ("serials empty", _serials(), "devices.serials"),
    ("serials a string", {"devices": {"virtual": None, "serials": "emulator-5554"}}, "devices.serials"),
    ("serial empty", _serials(""), "devices.serials"),
    ("serial with a space", _serials("a b"), "devices.serials"),
    ("serial a number", {"devices": {"virtual": None, "serials": [5]}}, "devices.serials"),
    ("serial listed twice", _serials("emulator-5554", "emulator-5554"), "devices.serials"),
    ("serial aliases 127.0.0.1/localhost", _serials("127.0.0.1:6501", "localhost:6501"), "devices.serials"),
    ("serial aliases emulator/port", _serials("emulator-5554", "127.0.0.1:5555"), "devices.serials"),
    ("serial aliases tcp: prefix", _serials("tcp:127.0.0.1:6501", "127.0.0.1:6501"), "devices.serials"),
    ("serial aliases ::1", _serials("[::1]:6501", "127.0.0.1:6501"), "devices.serials"),
    ("serial aliases upper case", _serials("LOCALHOST:6501", "localhost:6501"), "devices.serials"),
    (
        "eval_devices alias of a training phone",
        {**_serials("127.0.0.1:6501"), "eval_devices": {"serials": ["localhost:6501"]}},
        "eval_devices.serials",
    ),
    ("serial 1000 characters", _serials("x" * 1000), "devices.serials"),
    ("serial port 70000", _serials("127.0.0.1:70000"), "devices.serials"),
    ("serials 5000 of them", _serials(*[f"10.0.{i // 250}.{i % 250}:5555" for i in range(5000)]), "devices.serials"),
    ("adb port 0", {"devices": {"adb": {"port": 0}}}, "devices.adb.port"),
    ("adb port 70000", {"devices": {"adb": {"port": 70000}}}, "devices.adb.port"),
    ("adb port true", {"devices": {"adb": {"port": True}}}, "devices.adb.port"),
    ("adb port text", {"devices": {"adb": {"port": "x"}}}, "devices.adb.port"),
    ("adb host empty", {"devices": {"adb": {"host": ""}}}, "devices.adb.host"),
    ("adb host with a space", {"devices": {"adb": {"host": "a b"}}}, "devices.adb.host"),
    ("adb host a URL", {"devices": {"adb": {"host": "http://x"}}}, "devices.adb.host"),
    ("cluster 0", {"devices": {"virtual": None, "cluster": 0}}, "devices.cluster"),
    ("cluster -1", {"devices": {"virtual": None, "cluster": -1}}, "devices.cluster"),
    ("cluster 5000", {"devices": {"virtual": None, "cluster": 5000}}, "devices.cluster"),
    ("cluster text", {"devices": {"virtual": None, "cluster": "some"}}, "devices.cluster"),
    ("cluster true", {"devices": {"virtual": None, "cluster": True}}, "devices.cluster"),
    ("cluster name twice", {"devices": {"virtual": None, "cluster": ["a/b", "a/b"]}}, "devices.cluster"),
    ("eval_devices serials empty", {"eval_devices": {"serials": []}}, "eval_devices"),
    ("eval_devices count 0", {"eval_devices": {"virtual": {"count": 0}}}, "eval_devices.virtual.count"),
    ("task empty", {"task": ""}, "task"),
    ("task unknown", {"task": "no-such-task"}, "no-such-task"),
    ("task a number", {"task": 5}, "task"),
    ("task list empty", {"task": []}, "task"),
    ("task weight -1", {"task": [{"name": "tap-target", "weight": -1}]}, "weight"),
    ("task weight inf", {"task": ["open-app", {"name": "tap-target", "weight": INF}]}, "weight"),
    ("task weight nan", {"task": ["open-app", {"name": "tap-target", "weight": NAN}]}, "weight"),
    (
        "task weights overflow their sum",
        {"task": [{"name": "open-app", "weight": 1e308}, {"name": "tap-target", "weight": 1e308}]},
        "weight",
    ),
    ("task weight text", {"task": [{"name": "tap-target", "weight": "heavy"}]}, "weight"),
    ("task weight true", {"task": [{"name": "tap-target", "weight": True}]}, "weight"),
    ("task weights all 0", {"task": [{"name": "tap-target", "weight": 0}]}, "weight"),
    ("task listed twice", {"task": ["tap-target", "tap-target"]}, "task"),
    ("task item unknown key", {"task": [{"name": "tap-target", "weight": 1, "bogus": 1}]}, "bogus"),
    ("task item without name", {"task": [{"weight": 1}]}, "name"),
    ("suite unknown", {"task": {"suite": "nope"}}, "nope"),
    ("suite tier", {"task": {"tier": "extreme"}}, "task.tier"),
    ("suite split", {"task": {"split": "dev"}}, "task.split"),
    ("suite eval_split", {"task": {"eval_split": "dev"}}, "task.eval_split"),
    ("suite category unknown", {"task": {"categories": ["games"]}}, "games"),
    ("suite family unknown", {"task": {"families": ["nope"]}}, "nope"),
    ("suite app unknown", {"task": {"apps": ["com.nope"]}}, "com.nope"),
    ("suite no category", {"task": {"categories": []}}, "categories"),
    ("suite reward_mode", {"task": {"reward_mode": "dense"}}, "task.reward_mode"),
    ("suite device_config", {"task": {"device_config": "x"}}, "task.device_config"),
    ("suite unknown key", {"task": {"suite": "all", "bogus": 1}}, "bogus"),
    ("env max_steps 0", {"env": {"max_steps": 0}}, "env.max_steps"),
    ("env max_steps -1", {"env": {"max_steps": -1}}, "env.max_steps"),
    ("env max_steps true", {"env": {"max_steps": True}}, "env.max_steps"),
    ("env max_steps inf", {"env": {"max_steps": INF}}, "env.max_steps"),
    ("env max_steps 1e12", {"env": {"max_steps": 10**12}}, "env.max_steps"),
    ("env max_steps text", {"env": {"max_steps": "many"}}, "env.max_steps"),
    ("env keep_files 0", {"env": {"keep_files": 0}}, "env.keep_files"),
    ("env keep_files 1e9", {"env": {"keep_files": 10**9}}, "env.keep_files"),
    ("env keep_files true", {"env": {"keep_files": True}}, "env.keep_files"),
    ("env reset_timeout 0", {"env": {"reset_timeout": 0}}, "env.reset_timeout"),
    ("env reset_timeout -1", {"env": {"reset_timeout": -1}}, "env.reset_timeout"),
    ("env reset_timeout inf", {"env": {"reset_timeout": INF}}, "env.reset_timeout"),
    ("env reset_timeout nan", {"env": {"reset_timeout": NAN}}, "env.reset_timeout"),
    ("env reset_timeout 1e12", {"env": {"reset_timeout": 1e12}}, "env.reset_timeout"),
    ("env reset_timeout true", {"env": {"reset_timeout": True}}, "env.reset_timeout"),
    ("env render_mode human", {"env": {"render_mode": "human"}}, "env.render_mode"),
    ("env dump_xml text", {"env": {"dump_xml": "sometimes"}}, "env.dump_xml"),
    ("env dump_xml 2", {"env": {"dump_xml": 2}}, "env.dump_xml"),
    ("env timings text", {"env": {"timings": "yes"}}, "env.timings"),
    ("env write_files 2", {"env": {"write_files": 2}}, "env.write_files"),
    ("env unknown key", {"env": {"bogus": 1}}, "env.bogus"),
    ("observation shape 0x0", {"observation": {"shape": [0, 0]}}, "observation.shape"),
    ("observation shape one number", {"observation": {"shape": [84]}}, "observation.shape"),
    ("observation shape three numbers", {"observation": {"shape": [84, 84, 3]}}, "observation.shape"),
    ("observation shape negative", {"observation": {"shape": [-1, 84]}}, "observation.shape"),
    ("observation shape huge", {"observation": {"shape": [10**9, 10**9]}}, "observation.shape"),
    ("observation shape text", {"observation": {"shape": "84x84"}}, "observation.shape"),
    ("observation shape 84.5", {"observation": {"shape": [84.5, 84]}}, "observation.shape"),
    ("observation shape true", {"observation": {"shape": [True, 84]}}, "observation.shape"),
    ("observation shape nan", {"observation": {"shape": [NAN, 84]}}, "observation.shape"),
    ("observation grayscale text", {"observation": {"grayscale": "yes"}}, "observation.grayscale"),
    ("observation channels_first 2", {"observation": {"channels_first": 2}}, "observation.channels_first"),
    ("observation fit", {"observation": {"fit": "stretch"}}, "observation.fit"),
    ("observation frame_stack 0", {"observation": {"frame_stack": 0}}, "observation.frame_stack"),
    ("observation frame_stack 17", {"observation": {"frame_stack": 17}}, "observation.frame_stack"),
    ("observation frame_stack true", {"observation": {"frame_stack": True}}, "observation.frame_stack"),
    ("observation frame_stack 2.5", {"observation": {"frame_stack": 2.5}}, "observation.frame_stack"),
    (
        "instruction max_tokens 0",
        {"observation": {"instruction": {"max_tokens": 0}}, "algo": {"policy": "MultiInputPolicy"}},
        "observation.instruction.max_tokens",
    ),
    (
        "instruction max_tokens 1e9",
        {"observation": {"instruction": {"max_tokens": 10**9}}, "algo": {"policy": "MultiInputPolicy"}},
        "observation.instruction.max_tokens",
    ),
    (
        "instruction vocab_size 1",
        {"observation": {"instruction": {"vocab_size": 1}}, "algo": {"policy": "MultiInputPolicy"}},
        "observation.instruction.vocab_size",
    ),
    (
        "instruction unknown key",
        {"observation": {"instruction": {"bogus": 1}}, "algo": {"policy": "MultiInputPolicy"}},
        "observation.instruction.bogus",
    ),
    (
        "elements max_elements 0",
        {"observation": {"elements": {"max_elements": 0}}, "algo": {"policy": "MultiInputPolicy"}},
        "observation.elements.max_elements",
    ),
    (
        "elements vocab_size inf",
        {"observation": {"elements": {"vocab_size": INF}}, "algo": {"policy": "MultiInputPolicy"}},
        "observation.elements.vocab_size",
    ),
    ("observation unknown key", {"observation": {"bogus": 1}}, "observation.bogus"),
    ("action type unknown", {"action": {"type": "tap"}}, "action.type"),
    ("action rows 0", {"action": {"rows": 0}}, "action.rows"),
    ("action rows -1", {"action": {"rows": -1}}, "action.rows"),
    ("action rows 1001", {"action": {"rows": 1001}}, "action.rows"),
    ("action rows true", {"action": {"rows": True}}, "action.rows"),
    ("action rows 1.5", {"action": {"rows": 1.5}}, "action.rows"),
    ("action rows inf", {"action": {"rows": INF}}, "action.rows"),
    ("action rows text", {"action": {"rows": "eight"}}, "action.rows"),
    ("action cols 0", {"action": {"cols": 0}}, "action.cols"),
    ("action region beyond the screen", {"action": {"region": [0, 0, 2, 2]}}, "action.region"),
    ("action region nan", {"action": {"region": [NAN, 0, 1, 1]}}, "action.region"),
    ("action region inverted", {"action": {"region": [1, 1, 0, 0]}}, "action.region"),
    ("action region three numbers", {"action": {"region": [0, 0, 1]}}, "action.region"),
    ("action region text", {"action": {"region": "full"}}, "action.region"),
    ("action texts untypable", {"action": {"texts": ["é"]}}, "action.texts"),
    ("action texts a string", {"action": {"texts": "abc"}}, "action.texts"),
    ("action texts a number", {"action": {"texts": [5]}}, "action.texts"),
    ("action texts 100k characters", {"action": {"texts": ["x" * 100_000]}}, "action.texts"),
    ("action texts 5000 of them", {"action": {"texts": ["x"] * 5000}}, "action.texts"),
    ("action swipes text", {"action": {"swipes": "yes"}}, "action.swipes"),
    ("action types unknown", {"action": {"type": "multidiscrete", "types": ["fly"]}}, "action.types"),
    ("action types empty", {"action": {"type": "multidiscrete", "types": []}}, "action.types"),
    ("action box types empty", {"action": {"type": "box", "types": []}}, "action.types"),
    (
        "action ui_elements max_elements 0",
        {"action": {"type": "ui_elements", "max_elements": 0}, "algo": {"name": "MaskablePPO", "policy": "CnnPolicy"}},
        "action.max_elements",
    ),
    (
        "action elements max_elements 300",
        {"action": {"type": "elements", "max_elements": 300}, "algo": {"name": "MaskablePPO", "policy": "CnnPolicy"}},
        "action.max_elements",
    ),
    ("action key of another type", {"action": {"max_elements": 5}}, "action.max_elements"),
    ("vector backend unknown", {"vector": {"backend": "mpi"}}, "vector.backend"),
    ("vector step_timeout inf", {"vector": {"step_timeout": INF}}, "vector.step_timeout"),
    ("vector step_timeout nan", {"vector": {"step_timeout": NAN}}, "vector.step_timeout"),
    ("vector step_timeout 0", {"vector": {"step_timeout": 0}}, "vector.step_timeout"),
    ("vector step_timeout -1", {"vector": {"step_timeout": -1}}, "vector.step_timeout"),
    ("vector step_timeout 1e12", {"vector": {"step_timeout": 1e12}}, "vector.step_timeout"),
    ("vector step_timeout text", {"vector": {"step_timeout": "soon"}}, "vector.step_timeout"),
    ("vector step_timeout true", {"vector": {"step_timeout": True}}, "vector.step_timeout"),
    ("vector envs_per_worker 0", {"vector": {"envs_per_worker": 0}}, "vector.envs_per_worker"),
    ("vector envs_per_worker 65", {"vector": {"envs_per_worker": 65}}, "vector.envs_per_worker"),
    ("vector start_method thread", {"vector": {"start_method": "thread"}}, "vector.start_method"),
    ("vector envs_per_worker true", {"vector": {"envs_per_worker": True}}, "vector.envs_per_worker"),
    ("vector fault_timeout inf", {"vector": {"fault_timeout": INF}}, "vector.fault_timeout"),
    ("vector max_restarts -1", {"vector": {"max_restarts": -1}}, "vector.max_restarts"),
    ("vector max_restarts 1e12", {"vector": {"max_restarts": 10**12}}, "vector.max_restarts"),
    ("vector max_restarts inf", {"vector": {"max_restarts": INF}}, "vector.max_restarts"),
    ("vector restart_window inf", {"vector": {"restart_window": INF}}, "vector.restart_window"),
    ("vector max_blank_share 2", {"vector": {"max_blank_share": 2}}, "vector.max_blank_share"),
    ("vector max_blank_share nan", {"vector": {"max_blank_share": NAN}}, "vector.max_blank_share"),
    ("vector retry_interval inf", {"vector": {"retry_interval": INF}}, "vector.retry_interval"),
    ("vector retry_interval 0", {"vector": {"retry_interval": 0}}, "vector.retry_interval"),
    ("vector probe_timeout inf", {"vector": {"probe_timeout": INF}}, "vector.probe_timeout"),
    ("vector max_down_seconds inf", {"vector": {"max_down_seconds": INF}}, "vector.max_down_seconds"),
    ("vector max_down_seconds 1e12", {"vector": {"max_down_seconds": 1e12}}, "vector.max_down_seconds"),
    ("vector placement_timeout inf", {"vector": {"placement_timeout": INF}}, "vector.placement_timeout"),
    ("vector unknown key", {"vector": {"bogus": 1}}, "vector.bogus"),
    ("algo name unknown", {"algo": {"name": "PPO2"}}, "algo.name"),
    ("algo policy unknown", {"algo": {"policy": "Cnn"}}, "algo.policy"),
    ("algo device unknown", {"algo": {"device": "banana"}}, "algo.device"),
    ("algo verbose 3", {"algo": {"verbose": 3}}, "algo.verbose"),
    ("algo verbose true", {"algo": {"verbose": True}}, "algo.verbose"),
    ("algo torch_threads 0", {"algo": {"torch_threads": 0}}, "algo.torch_threads"),
    ("algo torch_threads 1000", {"algo": {"torch_threads": 1000}}, "algo.torch_threads"),
    ("algo normalize_reward text", {"algo": {"normalize_reward": "yes"}}, "algo.normalize_reward"),
    ("algo unknown key", {"algo": {"bogus": 1}}, "algo.bogus"),
    ("net_arch -1", {"algo": {"policy_kwargs": {"net_arch": [-1]}}}, "algo.policy_kwargs.net_arch"),
    ("net_arch 0", {"algo": {"policy_kwargs": {"net_arch": [0]}}}, "algo.policy_kwargs.net_arch"),
    ("net_arch 1e9", {"algo": {"policy_kwargs": {"net_arch": [10**9]}}}, "algo.policy_kwargs.net_arch"),
    ("net_arch true", {"algo": {"policy_kwargs": {"net_arch": [True]}}}, "algo.policy_kwargs.net_arch"),
    ("net_arch 1.5", {"algo": {"policy_kwargs": {"net_arch": [1.5]}}}, "algo.policy_kwargs.net_arch"),
    ("net_arch text", {"algo": {"policy_kwargs": {"net_arch": "64"}}}, "algo.policy_kwargs.net_arch"),
    ("net_arch 1000 layers", {"algo": {"policy_kwargs": {"net_arch": [8] * 1000}}}, "algo.policy_kwargs.net_arch"),
    (
        "net_arch pi -1",
        {"algo": {"policy_kwargs": {"net_arch": {"pi": [-1], "vf": [64]}}}},
        "algo.policy_kwargs.net_arch",
    ),
    (
        "net_arch unknown head",
        {"algo": {"policy_kwargs": {"net_arch": {"pi": [64], "bogus": [1]}}}},
        "algo.policy_kwargs.net_arch",
    ),
    ("activation unknown", {"algo": {"policy_kwargs": {"activation_fn": "sigmoid"}}}, "activation_fn"),
    (
        "features_extractor unknown",
        {"algo": {"policy_kwargs": {"features_extractor": "no.such.Extractor"}}},
        "algo.policy_kwargs.features_extractor",
    ),
    (
        "features_extractor_kwargs text",
        {"algo": {"policy_kwargs": {"features_extractor_kwargs": "x"}}},
        "algo.policy_kwargs.features_extractor_kwargs",
    ),
    (
        "optimizer_kwargs eps inf",
        {"algo": {"policy_kwargs": {"optimizer_kwargs": {"eps": INF}}}},
        "algo.policy_kwargs.optimizer_kwargs",
    ),
    (
        "optimizer_kwargs eps nan",
        {"algo": {"policy_kwargs": {"optimizer_kwargs": {"eps": NAN}}}},
        "algo.policy_kwargs.optimizer_kwargs",
    ),
    (
        "optimizer_kwargs eps text",
        {"algo": {"policy_kwargs": {"optimizer_kwargs": {"eps": "x"}}}},
        "algo.policy_kwargs.optimizer_kwargs",
    ),
    (
        "optimizer_kwargs weight_decay -1",
        {"algo": {"policy_kwargs": {"optimizer_kwargs": {"weight_decay": -1}}}},
        "algo.policy_kwargs.optimizer_kwargs",
    ),
    (
        "optimizer_kwargs unknown key",
        {"algo": {"policy_kwargs": {"optimizer_kwargs": {"bogus": 1}}}},
        "algo.policy_kwargs.optimizer_kwargs",
    ),
    (
        "lstm_hidden_size 0",
        {"algo": {"name": "RecurrentPPO", "policy": "CnnLstmPolicy", "policy_kwargs": {"lstm_hidden_size": 0}}},
        "algo.policy_kwargs.lstm_hidden_size",
    ),
    (
        "lstm_hidden_size 1e9",
        {"algo": {"name": "RecurrentPPO", "policy": "CnnLstmPolicy", "policy_kwargs": {"lstm_hidden_size": 10**9}}},
        "algo.policy_kwargs.lstm_hidden_size",
    ),
    (
        "n_lstm_layers 1e6",
        {"algo": {"name": "RecurrentPPO", "policy": "CnnLstmPolicy", "policy_kwargs": {"n_lstm_layers": 10**6}}},
        "algo.policy_kwargs.n_lstm_layers",
    ),
    ("policy_kwargs unknown key", {"algo": {"policy_kwargs": {"net_arc": [64]}}}, "algo.policy_kwargs.net_arc"),
    ("learning_rate 0", *_hp("learning_rate", 0)),
    ("learning_rate -1", *_hp("learning_rate", -1)),
    ("learning_rate inf", *_hp("learning_rate", INF)),
    ("learning_rate nan", *_hp("learning_rate", NAN)),
    ("learning_rate text", *_hp("learning_rate", "fast")),
    ("learning_rate bad schedule", *_hp("learning_rate", "lin_x")),
    ("learning_rate true", *_hp("learning_rate", True)),
    ("n_steps 0", *_hp("n_steps", 0)),
    ("n_steps -1", *_hp("n_steps", -1)),
    ("n_steps 1.5", *_hp("n_steps", 1.5)),
    ("n_steps true", *_hp("n_steps", True)),
    ("n_steps 1e12", *_hp("n_steps", 10**12)),
    ("n_steps text", *_hp("n_steps", "many")),
    ("batch_size 0", *_hp("batch_size", 0)),
    ("batch_size not dividing", *_hp("batch_size", 100)),
    ("n_epochs 0", *_hp("n_epochs", 0)),
    ("n_epochs 1e9", *_hp("n_epochs", 10**9)),
    ("gamma 1.5", *_hp("gamma", 1.5)),
    ("gamma nan", *_hp("gamma", NAN)),
    ("gae_lambda -0.1", *_hp("gae_lambda", -0.1)),
    ("gae_lambda inf", *_hp("gae_lambda", INF)),
    ("clip_range 0", *_hp("clip_range", 0)),
    ("clip_range inf", *_hp("clip_range", INF)),
    ("clip_range_vf -1", *_hp("clip_range_vf", -1)),
    ("clip_range_vf inf", *_hp("clip_range_vf", INF)),
    ("clip_range_vf 0", *_hp("clip_range_vf", 0)),
    ("clip_range_vf schedule -1", *_hp("clip_range_vf", "lin_-1")),
    ("ent_coef inf", *_hp("ent_coef", INF)),
    ("ent_coef nan", *_hp("ent_coef", NAN)),
    ("vf_coef -1", *_hp("vf_coef", -1)),
    ("max_grad_norm inf", *_hp("max_grad_norm", INF)),
    ("max_grad_norm -1", *_hp("max_grad_norm", -1)),
    ("target_kl -1", *_hp("target_kl", -1)),
    ("target_kl 0", *_hp("target_kl", 0)),
    ("target_kl inf", *_hp("target_kl", INF)),
    ("target_kl nan", *_hp("target_kl", NAN)),
    ("target_kl text", *_hp("target_kl", "x")),
    ("normalize_advantage text", *_hp("normalize_advantage", "yes")),
    ("normalize_advantage 2", *_hp("normalize_advantage", 2)),
    ("use_sde text", *_hp("use_sde", "yes")),
    ("sde_sample_freq -5", *_hp("sde_sample_freq", -5)),
    ("sde_sample_freq 1.5", *_hp("sde_sample_freq", 1.5)),
    ("stats_window_size 0", *_hp("stats_window_size", 0)),
    ("stats_window_size 1e12", *_hp("stats_window_size", 10**12)),
    ("hyperparameter seed", *_hp("seed", 1)),
    ("hyperparameter policy_kwargs", *_hp("policy_kwargs", {})),
    ("hyperparameter unknown", *_hp("lr", 0.001)),
    ("hyperparams a list", {"algo": {"hyperparams": [1]}}, "algo.hyperparams"),
    ("DQN buffer_size 0", *_hp("buffer_size", 0, "DQN")),
    ("DQN buffer_size 1e12", *_hp("buffer_size", 10**12, "DQN")),
    ("DQN learning_starts -1", *_hp("learning_starts", -1, "DQN")),
    ("DQN train_freq 0", *_hp("train_freq", 0, "DQN")),
    ("DQN train_freq pair 0", *_hp("train_freq", [0, "step"], "DQN")),
    ("DQN train_freq bad unit", *_hp("train_freq", [4, "hour"], "DQN")),
    ("DQN train_freq text", *_hp("train_freq", "x", "DQN")),
    ("DQN target_update_interval 0", *_hp("target_update_interval", 0, "DQN")),
    ("DQN exploration_fraction 2", *_hp("exploration_fraction", 2, "DQN")),
    ("DQN exploration_final_eps -1", *_hp("exploration_final_eps", -1, "DQN")),
    ("DQN gradient_steps -5", *_hp("gradient_steps", -5, "DQN")),
    ("DQN gradient_steps 0", *_hp("gradient_steps", 0, "DQN")),
    ("DQN tau 2", *_hp("tau", 2, "DQN")),
    ("DQN optimize_memory_usage text", *_hp("optimize_memory_usage", "yes", "DQN")),
    ("SAC ent_coef text", *_hp("ent_coef", "much", "SAC")),
    ("SAC ent_coef auto_-1", *_hp("ent_coef", "auto_-1", "SAC")),
    ("SAC target_entropy text", *_hp("target_entropy", "x", "SAC")),
    ("SAC target_update_interval 0", *_hp("target_update_interval", 0, "SAC")),
    ("TD3 policy_delay 0", *_hp("policy_delay", 0, "TD3")),
    ("TD3 target_policy_noise -1", *_hp("target_policy_noise", -1, "TD3")),
    ("TD3 target_noise_clip -1", *_hp("target_noise_clip", -1, "TD3")),
    ("TD3 action_noise text", *_hp("action_noise", "x", "TD3")),
    ("A2C rms_prop_eps 0", *_hp("rms_prop_eps", 0, "A2C")),
    ("A2C use_rms_prop text", *_hp("use_rms_prop", "yes", "A2C")),
    ("training total_timesteps 0", {"training": {"total_timesteps": 0}}, "training.total_timesteps"),
    ("training total_timesteps 1e30", {"training": {"total_timesteps": 1e30}}, "training.total_timesteps"),
    ("training total_timesteps inf", {"training": {"total_timesteps": INF}}, "training.total_timesteps"),
    ("training total_timesteps true", {"training": {"total_timesteps": True}}, "training.total_timesteps"),
    ("training total_timesteps text", {"training": {"total_timesteps": "x"}}, "training.total_timesteps"),
    ("training eval_freq -1", {"training": {"eval_freq": -1}}, "training.eval_freq"),
    ("training eval_freq 1e20", {"training": {"eval_freq": 10**20}}, "training.eval_freq"),
    ("training eval_freq inf", {"training": {"eval_freq": INF}}, "training.eval_freq"),
    ("training eval_freq 1.5", {"training": {"eval_freq": 1.5}}, "training.eval_freq"),
    ("training eval_episodes 0", {"training": {"eval_episodes": 0}}, "training.eval_episodes"),
    ("training eval_episodes 1e9", {"training": {"eval_episodes": 10**9}}, "training.eval_episodes"),
    ("training checkpoint_freq -1", {"training": {"checkpoint_freq": -1}}, "training.checkpoint_freq"),
    ("training checkpoint_freq 1e20", {"training": {"checkpoint_freq": 10**20}}, "training.checkpoint_freq"),
    ("training keep_checkpoints 0", {"training": {"keep_checkpoints": 0}}, "training.keep_checkpoints"),
    ("training keep_checkpoints 1e9", {"training": {"keep_checkpoints": 10**9}}, "training.keep_checkpoints"),
    ("training keep_checkpoints true", {"training": {"keep_checkpoints": True}}, "training.keep_checkpoints"),
    ("training eval_deterministic text", {"training": {"eval_deterministic": "yes"}}, "training.eval_deterministic"),
    ("training progress_bar 2", {"training": {"progress_bar": 2}}, "training.progress_bar"),
    ("training callback unknown", {"training": {"callbacks": ["no.such.Callback"]}}, "training.callbacks"),
    ("training callback a number", {"training": {"callbacks": [5]}}, "training.callbacks"),
    ("training callbacks a string", {"training": {"callbacks": "x"}}, "training.callbacks"),
    ("training callback kwargs not a mapping", {"training": {"callbacks": [{"a.B": 5}]}}, "training.callbacks"),
    ("training unknown key", {"training": {"bogus": 1}}, "training.bogus"),
    ("wrapper unknown", {"wrappers": ["no.such.Wrapper"]}, "wrappers"),
    ("wrapper a module", {"wrappers": ["os.path"]}, "wrappers"),
    ("wrapper not a wrapper", {"wrappers": ["builtins.dict"]}, "wrappers"),
    ("wrapper bad kwargs", {"wrappers": [{"gymnasium.wrappers.ClipReward": {"bogus": 1}}]}, "wrappers"),
    ("wrappers a string", {"wrappers": "gymnasium.wrappers.ClipReward"}, "wrappers"),
    ("wrapper two paths in one item", {"wrappers": [{"a.B": {}, "c.D": {}}]}, "wrappers"),
    ("wrapper null", {"wrappers": [None]}, "wrappers"),
    ("wrapper empty", {"wrappers": [""]}, "wrappers"),
]

#: Whole config files (YAML text, or bytes), read by load_config.
CONFIG_YAML: list[tuple[str, str | bytes, str]] = [
    ("file empty", "", "empty"),
    ("file only a comment", "# nothing\n", "empty"),
    ("file a list", "- a\n- b\n", "mapping"),
    ("file a number", "42\n", "mapping"),
    ("file not YAML", "task: [unclosed\n", "line"),
    ("file a tab", "task:\n\t- tap-target\n", "line"),
    ("file a key twice", "task: tap-target\nseed: 1\nseed: 2\n", "seed"),
    ("file nested 5000 deep", "task: tap-target\nalgo: {hyperparams: {x: " + "[" * 5000 + "]" * 5000 + "}}\n", "deep"),
    ("file billion laughs at the top", f"task: tap-target\nbomb: {BOMB}\n", "alias"),
    (
        "file billion laughs in features_extractor_kwargs",
        "task: tap-target\nalgo: {policy_kwargs: {features_extractor: stable_baselines3.common.torch_layers.NatureCNN,"
        f" features_extractor_kwargs: {BOMB}}}}}\n",
        "alias",
    ),
    ("file billion laughs in hyperparams", f"task: tap-target\nalgo: {{hyperparams: {{bomb: {BOMB}}}}}\n", "alias"),
    (
        "file billion laughs in wrapper kwargs",
        f"task: tap-target\nwrappers: [{{gymnasium.wrappers.ClipReward: {BOMB}}}]\n",
        "alias",
    ),
    ("file billion laughs as the task", f"task: {BOMB}\n", "alias"),
    ("file a recursive anchor", "task: tap-target\nalgo: {hyperparams: {x: &a [*a]}}\n", "algo.hyperparams"),
    ("file seed 1.0e+999", "task: tap-target\nseed: 1.0e+999\n", "seed"),
    ("file seed .inf", "task: tap-target\nseed: .inf\n", "seed"),
    ("file seed .nan", "task: tap-target\nseed: .nan\n", "seed"),
    ("file seed 5000 digits", "task: tap-target\nseed: " + "9" * 5000 + "\n", "line 2"),
    ("file timesteps 5000 digits", "task: tap-target\ntraining: {total_timesteps: " + "9" * 5000 + "}\n", "line"),
    ("file a python tag", "task: tap-target\nseed: !!python/object/apply:os.system [echo pwned]\n", "python"),
    ("file a binary value", "task: tap-target\nexperiment: !!binary aGVsbG8=\n", "binary"),
    ("file a date for the seed", "task: tap-target\nseed: 2024-01-01\n", "seed"),
    ("file a date for the experiment", "task: tap-target\nexperiment: 2024-01-01\n", "experiment"),
    ("file a list as a key", "task: tap-target\n? [a, b]\n: c\n", "key"),
    ("file a number as a key", "task: tap-target\n1: 2\n", "1"),
    ("file a set", "task: tap-target\nalgo: !!set {a, b}\n", "set values"),
    ("file a merge key", "task: tap-target\nx: &x {bogus: 1}\nenv: {<<: *x}\n", "bogus"),
    ("file with a BOM and tabs", "\ufefftask: tap-target\nseed:\t-3\n", "line 2"),
    ("file with a NUL", "task: tap-target\nexperiment: a\x00b\n", "line"),
    ("file binary", bytes(range(256)), "UTF-8"),
    ("file 20 MB", "task: tap-target\n" + ("# " + "x" * 1000 + "\n") * 20_000, "MB"),
    ("file a 1 MB key", "task: tap-target\n" + "k" * 1_000_000 + ": 1\n", "line 2"),
    ("file a unicode key", "task: tap-target\nключ: 1\n", "ключ"),
    ("file 200000 unknown keys", "task: tap-target\n" + "".join(f"k{i}: 1\n" for i in range(200_000)), "k0"),
]

#: ``--set`` overrides on a good config file.
SET: list[tuple[str, list[str], str]] = [
    ("set without =", ["seed"], "--set"),
    ("set without a key", ["=5"], "--set"),
    ("set seed 5000 digits", ["seed=" + "9" * 5000], "seed"),
    ("set seed .inf", ["seed=.inf"], "seed"),
    ("set seed .nan", ["seed=.nan"], "seed"),
    ("set seed true", ["seed=true"], "seed"),
    ("set through a number", ["seed.x=1"], "seed"),
    ("set hyperparams a list", ["algo.hyperparams=[1]"], "algo.hyperparams"),
    ("set step_timeout .inf", ["vector.step_timeout=.inf"], "vector.step_timeout"),
    ("set experiment 300 characters", ["experiment=" + "a" * 300], "experiment"),
    ("set a python tag", ["seed=!!python/object/apply:os.system [echo]"], "--set"),
    ("set devices null", ["devices=null"], "devices"),
    ("set task empty", ["task="], "task"),
    ("set net_arch -1", ["algo.policy_kwargs.net_arch=[-1]"], "algo.policy_kwargs.net_arch"),
    ("set clip_range_vf -1", ["algo.hyperparams.clip_range_vf=-1"], "algo.hyperparams.clip_range_vf"),
    ("set target_kl -1", ["algo.hyperparams.target_kl=-1"], "algo.hyperparams.target_kl"),
    ("set total_timesteps 1e30", ["training.total_timesteps=1e30"], "training.total_timesteps"),
    ("set a billion laughs", ["algo.hyperparams.x=" + BOMB], "alias"),
    ("set a key and then through it", ["seed=1", "seed.x=2"], "seed"),
    ("set through a string", ["task.suite=all"], "task"),
    ("set a unicode key", ["ѕeed=1"], "ѕeed"),
    ("set not YAML", ["seed=[unclosed"], "--set"),
    ("set 200000 characters", ["experiment=" + "a" * 200_000], "experiment"),
]

#: Command lines (``{ws}`` is a folder with good.yaml, run/ (a run without a model), binary.yaml, dir/).
CLI: list[tuple[str, list[str], str]] = [
    ("no command", [], "required"),
    ("unknown command", ["nosuch"], "invalid choice"),
    ("rollout steps -1", ["rollout", "--steps", "-1"], "--steps"),
    ("rollout steps text", ["rollout", "--steps", "abc"], "--steps"),
    ("rollout steps 1e3", ["rollout", "--steps", "1e3"], "--steps"),
    ("rollout save -1", ["rollout", "--save", "-1"], "--save"),
    ("rollout seed -1", ["rollout", "--seed", "-1"], "--seed"),
    ("rollout seed 5000 digits", ["rollout", "--seed", "9" * 5000], "--seed"),
    ("rollout seed 2**64", ["rollout", "--seed", str(2**64)], "--seed"),
    ("rollout width 0", ["rollout", "--width", "0"], "screen"),
    ("rollout density 0", ["rollout", "--density", "0"], "density"),
    ("rollout out unwritable", ["rollout", "--steps", "1", "--out", "/dev/null/x"], "/dev/null/x"),
    ("tasks check without a file", ["tasks", "check"], "task file"),
    ("tasks check a missing file", ["tasks", "check", "{ws}/nonexist.yaml"], "nonexist.yaml"),
    ("tasks check a directory", ["tasks", "check", "{ws}/dir"], "dir"),
    ("tasks check a binary file", ["tasks", "check", "{ws}/binary.yaml"], "UTF-8"),
    ("tasks tier unknown", ["tasks", "--tier", "x"], "--tier"),
    ("tasks category unknown", ["tasks", "--category", "games"], "games"),
    ("tasks app unknown", ["tasks", "--app", "com.nope"], "com.nope"),
    ("record episodes 0", ["record", "--episodes", "0"], "--episodes"),
    ("record episodes -1", ["record", "--episodes", "-1"], "--episodes"),
    ("record task unknown", ["record", "--task", "nope", "--out", "rec"], "nope"),
    ("record seed -1", ["record", "--seed", "-1", "--out", "rec"], "--seed"),
    ("record shape 0 0", ["record", "--shape", "0", "0", "--out", "rec"], "shape"),
    ("record shape huge", ["record", "--shape", "100000", "100000", "--out", "rec"], "shape"),
    ("record device with a space", ["record", "--devices", "a b", "--out", "rec"], "a b"),
    ("record device virtual:0x0", ["record", "--devices", "virtual:0x0", "--out", "rec"], "virtual:0x0"),
    ("record out unwritable", ["record", "--episodes", "1", "--out", "/dev/null/x"], "/dev/null/x"),
    ("minari recording missing", ["minari", "{ws}/nonexist", "androidrl/tap-target/random-v0"], "nonexist"),
    ("minari dataset id bad", ["minari", "{ws}/dir", "bad id!!"], "bad id!!"),
    ("configs copy without a name", ["configs", "copy"], "config"),
    ("configs copy unknown", ["configs", "copy", "nope"], "nope"),
    ("configs copy unwritable", ["configs", "copy", "quickstart", "/dev/null/x"], "/dev/null/x"),
    ("virtual count 0", ["virtual", "--count", "0"], "--count"),
    ("virtual count -1", ["virtual", "--count", "-1"], "--count"),
    ("virtual seed -1", ["virtual", "--seed", "-1"], "--seed"),
    ("virtual width 0", ["virtual", "--width", "0"], "screen"),
    ("devices adb port 70000", ["devices", "--adb-port", "70000"], "--adb-port"),
    ("devices adb port 0", ["devices", "--adb-port", "0"], "--adb-port"),
    ("devices adb port -1", ["devices", "--adb-port", "-1"], "--adb-port"),
    ("devices adb host with a space", ["devices", "--adb-host", "a b"], "--adb-host"),
    ("doctor adb port 0", ["doctor", "--adb-port", "0"], "--adb-port"),
    ("doctor adb host a URL", ["doctor", "--adb-host", "http://x"], "--adb-host"),
    ("node without a role", ["node"], "--head"),
    ("train without a config", ["train"], "--config"),
    ("train config missing", ["train", "--config", "{ws}/nonexist.yaml"], "nonexist"),
    ("train config a directory", ["train", "--config", "{ws}/dir"], "dir"),
    ("train config binary", ["train", "--config", "{ws}/binary.yaml"], "UTF-8"),
    ("train config /dev/zero", ["train", "--config", "/dev/zero"], "/dev/zero"),
    ("tasks check /dev/zero", ["tasks", "check", "/dev/zero"], "/dev/zero"),
    ("tasks check /dev/urandom", ["tasks", "check", "/dev/urandom"], "/dev/urandom"),
    ("train resume missing", ["train", "--resume", "{ws}/nonexist"], "nonexist"),
    ("train resume not a run", ["train", "--resume", "{ws}/dir"], "run directory"),
    ("train resume and config", ["train", "--resume", "{ws}/run", "--config", "{ws}/good.yaml"], "--resume"),
    ("train seeds -1", ["train", "--config", "{ws}/good.yaml", "--seeds", "-1"], "seed"),
    ("train seeds empty", ["train", "--config", "{ws}/good.yaml", "--seeds"], "--seeds"),
    ("train seeds twice", ["train", "--config", "{ws}/good.yaml", "--seeds", "1", "1"], "--seeds"),
    ("train run-dir unwritable", ["train", "--config", "{ws}/good.yaml", "--run-dir", "/dev/null/x"], "/dev/null/x"),
    ("train init-from missing", ["train", "--config", "{ws}/good.yaml", "--init-from", "{ws}/nonexist"], "init-from"),
    ("train set without =", ["train", "--config", "{ws}/good.yaml", "--set", "seed"], "--set"),
    ("train set seed 5000 digits", ["train", "--config", "{ws}/good.yaml", "--set", "seed=" + "9" * 5000], "seed"),
    ("evaluate without a run", ["evaluate"], "--run"),
    ("evaluate run missing", ["evaluate", "--run", "{ws}/nonexist"], "nonexist"),
    ("evaluate episodes 0", ["evaluate", "--run", "{ws}/run", "--episodes", "0"], "--episodes"),
    ("evaluate episodes 1e7", ["evaluate", "--run", "{ws}/run", "--episodes", "10000000"], "--episodes"),
    ("evaluate seed -1", ["evaluate", "--run", "{ws}/run", "--seed", "-1"], "--seed"),
    ("evaluate seed 2**64", ["evaluate", "--run", "{ws}/run", "--seed", str(2**64)], "--seed"),
    ("evaluate checkpoint missing", ["evaluate", "--run", "{ws}/run", "--checkpoint", "{ws}/no.zip"], "no.zip"),
    ("evaluate device with a space", ["evaluate", "--run", "{ws}/run", "--devices", "a b"], "a b"),
    (
        "evaluate devices aliases",
        ["evaluate", "--run", "{ws}/run", "--devices", "127.0.0.1:6501", "localhost:6501"],
        "localhost:6501",
    ),
    ("evaluate a run without a model", ["evaluate", "--run", "{ws}/run"], "model"),
    ("watch fps 0", ["watch", "--run", "{ws}/run", "--fps", "0"], "--fps"),
    ("watch fps inf", ["watch", "--run", "{ws}/run", "--fps", "inf"], "--fps"),
    ("watch fps nan", ["watch", "--run", "{ws}/run", "--fps", "nan"], "--fps"),
    ("watch fps -1", ["watch", "--run", "{ws}/run", "--fps", "-1"], "--fps"),
    ("watch fps 1e9", ["watch", "--run", "{ws}/run", "--fps", "1e9"], "--fps"),
    ("watch episodes 0", ["watch", "--run", "{ws}/run", "--episodes", "0"], "--episodes"),
    ("watch episodes 1e7", ["watch", "--run", "{ws}/run", "--episodes", "10000000"], "--episodes"),
    ("watch out unwritable", ["watch", "--run", "{ws}/run", "--out", "/dev/null/x.mp4"], "/dev/null/x.mp4"),
    ("tune config missing", ["tune", "--config", "{ws}/nonexist.yaml"], "nonexist"),
    ("tune trials 0", ["tune", "--config", "{ws}/good.yaml", "--trials", "0"], "--trials"),
    ("tune trials -1", ["tune", "--config", "{ws}/good.yaml", "--trials", "-1"], "--trials"),
    ("tune timeout -1", ["tune", "--config", "{ws}/good.yaml", "--timeout", "-1"], "--timeout"),
    ("tune timeout nan", ["tune", "--config", "{ws}/good.yaml", "--timeout", "nan"], "--timeout"),
    ("tune timeout 0", ["tune", "--config", "{ws}/good.yaml", "--timeout", "0"], "--timeout"),
    ("tune seeds -1", ["tune", "--config", "{ws}/good.yaml", "--seeds", "-1"], "seed"),
    ("results nothing to do", ["results"], "configs"),
    ("results episodes 0", ["results", "{ws}/good.yaml", "--episodes", "0"], "--episodes"),
    ("results seeds -1", ["results", "{ws}/good.yaml", "--seeds", "-1", "--runs", "r"], "seed"),
    ("results merge binary", ["results", "--merge", "{ws}/binary.yaml"], "--merge"),
    ("bench rounds 0", ["bench", "--rounds", "0"], "--rounds"),
    ("bench density -1", ["bench", "--density", "-1"], "--density"),
    ("bench size 0x0", ["bench", "--size", "0x0"], "--size"),
]

#: Task files: a mapping merged into a small good task (written as YAML), or YAML text, then `tasks check`.
TASK: list[tuple[str, dict | str, str]] = [
    ("task name empty", {"name": ""}, "name"),
    ("task name with a space", {"name": "a b"}, "name"),
    ("task name 300 characters", {"name": "a" * 300}, "name"),
    ("task name missing", {"name": None}, "name"),
    ("task max_steps 0", {"max_steps": 0}, "max_steps"),
    ("task max_steps -1", {"max_steps": -1}, "max_steps"),
    ("task max_steps 1e9", {"max_steps": 10**9}, "max_steps"),
    ("task max_steps inf", {"max_steps": INF}, "max_steps"),
    ("task max_steps true", {"max_steps": True}, "max_steps"),
    ("task max_steps text", {"max_steps": "many"}, "max_steps"),
    ("task reset_retries -1", {"reset_retries": -1}, "reset_retries"),
    ("task reset_retries 100", {"reset_retries": 100}, "reset_retries"),
    ("task reset_retries true", {"reset_retries": True}, "reset_retries"),
    ("task start unknown", {"start": "fresh"}, "start"),
    ("reward success inf", {"reward": {"success": INF}}, "reward.success"),
    ("reward success nan", {"reward": {"success": NAN}}, "reward.success"),
    ("reward success 1e9", {"reward": {"success": 1e9}}, "reward.success"),
    ("reward success text", {"reward": {"success": "x"}}, "reward.success"),
    ("reward success true", {"reward": {"success": True}}, "reward.success"),
    ("reward step nan", {"reward": {"step": NAN}}, "reward.step"),
    ("reward failure -inf", {"reward": {"failure": -INF}}, "reward.failure"),
    ("subgoal reward inf", {"reward": {"subgoals": [{"name": "a", "reward": INF, "when": COND}]}}, "subgoals"),
    (
        "subgoal names twice",
        {"reward": {"subgoals": [{"name": "a", "reward": 1, "when": COND}, {"name": "a", "reward": 1, "when": COND}]}},
        "subgoals",
    ),
    ("subgoal without when", {"reward": {"subgoals": [{"name": "a", "reward": 1}]}}, "subgoals"),
    ("wait timeout 1e9", {"reset": [{"wait": {"until": COND, "timeout": 1e9}}]}, "reset[0].wait.timeout"),
    ("wait timeout inf", {"reset": [{"wait": {"until": COND, "timeout": INF}}]}, "reset[0].wait.timeout"),
    ("wait timeout nan", {"reset": [{"wait": {"until": COND, "timeout": NAN}}]}, "reset[0].wait.timeout"),
    ("wait timeout 0", {"reset": [{"wait": {"until": COND, "timeout": 0}}]}, "reset[0].wait.timeout"),
    ("wait timeout -1", {"reset": [{"wait": {"until": COND, "timeout": -1}}]}, "reset[0].wait.timeout"),
    ("wait timeout true", {"reset": [{"wait": {"until": COND, "timeout": True}}]}, "reset[0].wait.timeout"),
    ("wait interval 1e9", {"reset": [{"wait": {"until": COND, "interval": 1e9}}]}, "reset[0].wait.interval"),
    ("wait interval 0", {"reset": [{"wait": {"until": COND, "interval": 0}}]}, "reset[0].wait.interval"),
    ("wait interval nan", {"reset": [{"wait": {"until": COND, "interval": NAN}}]}, "reset[0].wait.interval"),
    ("wait interval inf", {"reset": [{"wait": {"until": COND, "interval": INF}}]}, "reset[0].wait.interval"),
    ("wait without until", {"reset": [{"wait": {"timeout": 1}}]}, "reset[0].wait.until"),
    ("sleep inf", {"reset": [{"sleep": INF}]}, "reset[0].sleep"),
    ("sleep -1", {"reset": [{"sleep": -1}]}, "reset[0].sleep"),
    ("sleep 1e9", {"reset": [{"sleep": 1e9}]}, "reset[0].sleep"),
    ("sleep nan", {"reset": [{"sleep": NAN}]}, "reset[0].sleep"),
    ("setup sleep inf", {"setup": [{"sleep": INF}]}, "setup[0].sleep"),
    ("tap x -1", {"reset": [{"tap": {"x": -1, "y": 5}}]}, "reset[0].tap.x"),
    ("tap x 1e12", {"reset": [{"tap": {"x": 10**12, "y": 5}}]}, "reset[0].tap.x"),
    ("tap x inf", {"reset": [{"tap": {"x": INF, "y": 5}}]}, "reset[0].tap.x"),
    ("tap x true", {"reset": [{"tap": {"x": True, "y": 5}}]}, "reset[0].tap.x"),
    ("tap without y", {"reset": [{"tap": {"x": 5}}]}, "reset[0].tap"),
    ("key unknown", {"reset": [{"key": "NOSUCHKEY"}]}, "reset[0]"),
    ("text untypable", {"reset": [{"text": "héllo"}]}, "reset[0]"),
    ("launch nothing", {"reset": [{"launch": {}}]}, "reset[0].launch"),
    ("shell empty", {"reset": [{"shell": ""}]}, "reset[0]"),
    ("file size 1e9", {"reset": [{"file": [{"path": "/sdcard/a", "size": 10**9}]}]}, "reset[0].file"),
    ("config density 5000", {"reset": [{"config": {"density": 5000}}]}, "reset[0].config"),
    ("config font_scale nan", {"reset": [{"config": {"font_scale": NAN}}]}, "reset[0].config.font_scale"),
    ("notify text empty", {"reset": [{"notify": {"text": ""}}]}, "reset[0].notify.text"),
    ("snapshot name with a path", {"reset": [{"snapshot": "../x"}]}, "reset[0].snapshot"),
    ("step unknown kind", {"reset": [{"bogus": 1}]}, "reset[0]"),
    ("step a number", {"reset": [5]}, "reset[0]"),
    ("reset a string", {"reset": "home,back"}, "reset"),
    ("step two kinds", {"reset": [{"home": True, "back": True}]}, "reset[0]"),
    (
        "insert a bad column",
        {"reset": [{"insert": {"uri": "content://x", "rows": [{"a b": 1}]}}]},
        "reset[0].insert.rows",
    ),
    ("success missing", {"success": None}, "success"),
    ("success empty", {"success": {}}, "success"),
    ("success shell empty", {"success": {"shell": "", "equals": "1"}}, "success"),
    ("success shell without a test", {"success": {"shell": "x"}}, "success"),
    ("success node empty", {"success": {"node": {}}}, "success.node"),
    ("success node min_count -1", {"success": {"node": {"text": "a"}, "min_count": -1}}, "success.min_count"),
    ("success content count 1e9", {"success": {"content": {"uri": "content://x", "count": 10**9}}}, "count"),
    (
        "success setting namespace",
        {"success": {"setting": {"namespace": "x", "key": "a", "equals": "1"}}},
        "success.setting.namespace",
    ),
    ("success logcat bad regex", {"success": {"logcat": {"matches": "("}}}, "success.logcat.matches"),
    ("success logcat priority", {"success": {"logcat": {"matches": "a", "priority": "Z"}}}, "success.logcat.priority"),
    ("success dumpsys service", {"success": {"dumpsys": {"service": "a b", "matches": "x"}}}, "success.dumpsys"),
    ("success file relative", {"success": {"file": {"path": "relative", "exists": True}}}, "success.file.path"),
    ("success foreground empty", {"success": {"foreground": {}}}, "success.foreground"),
    ("success all empty", {"success": {"all": []}}, "success.all"),
    ("success not a number", {"success": {"not": 5}}, "success.not"),
    ("success unknown key", {"success": {"shell": "x", "equals": "1", "bogus": 1}}, "success.bogus"),
    ("success exit_code 1e30", {"success": {"shell": "x", "exit_code": 10**30}}, "success.exit_code"),
    ("success exit_code true", {"success": {"shell": "x", "exit_code": True}}, "success.exit_code"),
    ("param randint huge", {"params": {"n": {"randint": [0, 10**30]}}}, "params.n.randint"),
    ("param randint reversed", {"params": {"n": {"randint": [5, 1]}}}, "params.n"),
    ("param randint nan", {"params": {"n": {"randint": [0, NAN]}}}, "params.n.randint"),
    ("param choice empty", {"params": {"n": {"choice": []}}}, "params.n.choice"),
    ("param number range inf", {"params": {"n": {"number": {"range": [0, INF]}}}}, "params.n.number.range"),
    ("param number step nan", {"params": {"n": {"number": {"range": [0, 1], "step": NAN}}}}, "params.n.number.step"),
    ("param no kind", {"params": {"n": {}}}, "params.n"),
    ("param word pool", {"params": {"n": {"word": {"pool": "x"}}}}, "params.n.word.pool"),
    ("param words count 1e6", {"params": {"n": {"words": {"count": 10**6}}}}, "params.n.words.count"),
    ("param name with a space", {"params": {"a b": {"randint": [0, 1]}}}, "params"),
    ("tier unknown", {"tiers": {"extreme": {}}}, "tiers"),
    ("tier max_steps 0", {"tiers": {"easy": {"max_steps": 0}}}, "tiers.easy.max_steps"),
    ("tier unknown key", {"tiers": {"easy": {"bogus": 1}}}, "tiers.easy.bogus"),
    ("instruction unknown placeholder", {"instruction": "Tap {nope}"}, "instruction"),
    ("fields unknown", {"fields": ["nope"]}, "fields[0]"),
    ("category unknown", {"category": "games"}, "category"),
    ("apps a string", {"apps": "com.x"}, "apps"),
    ("side effect unknown", {"side_effects": [{"bogus": 1}]}, "side_effects[0]"),
    ("oracle unknown step", {"oracle": [{"bogus": 1}]}, "oracle[0]"),
    ("unknown top-level key", {"sucess": COND}, "sucess"),
    ("task YAML empty", "", "mapping"),
    ("task YAML a list", "[1, 2]\n", "mapping"),
    ("task YAML not YAML", "name: t\nsuccess: [unclosed\n", "line"),
    ("task YAML a key twice", "name: t\nname: u\nsuccess: {shell: x, equals: '1'}\n", "name"),
    ("task YAML max_steps .inf", "name: t\nmax_steps: .inf\nsuccess: {shell: x, equals: '1'}\n", "max_steps"),
    (
        "task YAML max_steps 5000 digits",
        "name: t\nmax_steps: " + "9" * 5000 + "\nsuccess: {shell: x, equals: '1'}\n",
        "line 2",
    ),
    (
        "task YAML billion laughs in a choice",
        f"name: t\nparams: {{n: {{choice: [{BOMB}]}}}}\nsuccess: {{shell: x, equals: '1'}}\n",
        "alias",
    ),
    ("task YAML a python tag", "name: !!python/name:os.system\nsuccess: {shell: x, equals: '1'}\n", "python"),
]

#: Device strings, for DeviceSpec.parse.
DEVICE: list[tuple[str, Any, str]] = [
    ("device empty", "", "device"),
    ("device blank", " ", "device"),
    ("device with a space", "a b", "a b"),
    ("device with a newline", "emu\nlator", "emu"),
    ("device virtual 0x0", "virtual:0x0", "virtual:0x0"),
    ("device virtual text size", "virtual:abc", "virtual:abc"),
    ("device virtual density 0", "virtual:360x800@0", "virtual:360x800@0"),
    ("device virtual 20 digits", "virtual:99999999999999999999x800", "virtual:9999"),
    ("device virtual density 99999", "virtual:360x800@99999", "virtual:360x800@99999"),
    ("device virtualx", "virtualx", "virtualx"),
    ("device virtual one side", "virtual:360", "virtual:360"),
    ("device virtual no density", "virtual:360x800@", "virtual:360x800@"),
    ("device 1000 characters", "x" * 1000, "device"),
    ("device with NUL", "tel\x00", "tel"),
    ("device a number", 5, "device"),
    ("device None", None, "device"),
    ("device bytes", b"emulator-5554", "device"),
    ("device a list", ["a"], "device"),
    ("device port 70000", "127.0.0.1:70000", "127.0.0.1:70000"),
    ("device port 0", "127.0.0.1:0", "127.0.0.1:0"),
    ("device without a host", ":5555", ":5555"),
    ("device without a port", "host:", "host:"),
    ("device unclosed bracket", "[::1:5555", "[::1:5555"),
    ("device negative port", "localhost:-1", "localhost:-1"),
]

#: Device lists, for parse_devices.
DEVICES: list[tuple[str, Any, str]] = [
    ("devices empty", [], "devices"),
    ("devices a string", "emulator-5554", "devices"),
    ("devices None in the list", [None], "device"),
    ("devices a serial twice", ["emulator-5554", "emulator-5554"], "emulator-5554"),
    ("devices 127.0.0.1 and localhost", ["127.0.0.1:6501", "localhost:6501"], "localhost:6501"),
    ("devices emulator and its adb port", ["emulator-5554", "127.0.0.1:5555"], "emulator-5554"),
    ("devices emulator and localhost", ["emulator-5556", "localhost:5557"], "emulator-5556"),
    ("devices tcp: prefix", ["tcp:127.0.0.1:6501", "127.0.0.1:6501"], "127.0.0.1:6501"),
    ("devices ::1", ["[::1]:6501", "localhost:6501"], "6501"),
    ("devices upper-case host", ["LOCALHOST:6501", "localhost:6501"], "6501"),
    ("devices a trailing dot", ["phone.lan.:5555", "phone.lan:5555"], "phone.lan"),
    ("devices 0.0.0.0", ["0.0.0.0:6501", "127.0.0.1:6501"], "6501"),
    ("devices one bad", ["emulator-5554", "virtual:0x0"], "virtual:0x0"),
    ("devices 5000", [f"10.0.{i // 250}.{i % 250}:5555" for i in range(5000)], "devices"),
]

#: AndroidEnv keywords.
ENV: list[tuple[str, dict, str]] = [
    ("env max_steps 0", {"max_steps": 0}, "max_steps"),
    ("env max_steps -1", {"max_steps": -1}, "max_steps"),
    ("env max_steps true", {"max_steps": True}, "max_steps"),
    ("env max_steps inf", {"max_steps": INF}, "max_steps"),
    ("env max_steps 1.5", {"max_steps": 1.5}, "max_steps"),
    ("env max_steps 1e12", {"max_steps": 10**12}, "max_steps"),
    ("env keep_files 0", {"keep_files": 0}, "keep_files"),
    ("env keep_files true", {"keep_files": True}, "keep_files"),
    ("env keep_files 1e9", {"keep_files": 10**9}, "keep_files"),
    ("env reset_timeout 0", {"reset_timeout": 0}, "reset_timeout"),
    ("env reset_timeout -1", {"reset_timeout": -1}, "reset_timeout"),
    ("env reset_timeout inf", {"reset_timeout": INF}, "reset_timeout"),
    ("env reset_timeout nan", {"reset_timeout": NAN}, "reset_timeout"),
    ("env reset_timeout text", {"reset_timeout": "x"}, "reset_timeout"),
    ("env reset_timeout true", {"reset_timeout": True}, "reset_timeout"),
    ("env reset_timeout 1e12", {"reset_timeout": 1e12}, "reset_timeout"),
    ("env render_mode human", {"render_mode": "human"}, "render_mode"),
    ("env dump_xml text", {"dump_xml": "x"}, "dump_xml"),
    ("env task unknown", {"task": "nope"}, "nope"),
    ("env task a number", {"task": 5}, "task"),
    ("env task without success", {"task": {"name": "t"}}, "success"),
    ("env screen_size 0x0", {"screen_size": (0, 0)}, "screen_size"),
    ("env screen_size text", {"screen_size": "big"}, "screen_size"),
    ("env screen_size huge", {"screen_size": (10**9, 10**9)}, "screen_size"),
    ("env device not a device", {"device": "emulator-5554"}, "device"),
]

#: Actions for env.step on a reset AndroidEnv with a 360x800 phone.
STEP: list[tuple[str, Any, str]] = [
    ("tap without coord", {"action_type": 2}, "coord"),
    ("long press without coord", {"action_type": 4}, "coord"),
    ("swipe without coord", {"action_type": 5}, "coord"),
    ("swipe_to without tgt_coord", {"action_type": 6, "coord": [1, 1]}, "tgt_coord"),
    ("input without text", {"action_type": 3}, "input_txt"),
    ("action_type 99", {"action_type": 99}, "action_type"),
    ("action_type -1", {"action_type": -1}, "action_type"),
    ("action_type text", {"action_type": "fly"}, "action_type"),
    ("action_type true", {"action_type": True}, "action_type"),
    ("action_type 2.5", {"action_type": 2.5}, "action_type"),
    ("action_type None", {"action_type": None}, "action_type"),
    ("coord negative", {"action_type": 2, "coord": [-1, -1]}, "coord"),
    ("coord 1e9", {"action_type": 2, "coord": [1e9, 1e9]}, "coord"),
    ("coord nan", {"action_type": 2, "coord": [NAN, NAN]}, "coord"),
    ("coord inf", {"action_type": 2, "coord": [INF, 0]}, "coord"),
    ("coord 1e30", {"action_type": 2, "coord": [1e30, 0]}, "coord"),
    ("coord text", {"action_type": 2, "coord": "10,10"}, "coord"),
    ("coord three numbers", {"action_type": 2, "coord": [1, 2, 3]}, "coord"),
    ("coord nested", {"action_type": 2, "coord": [[1, 2]]}, "coord"),
    ("coord booleans", {"action_type": 2, "coord": [True, False]}, "coord"),
    ("coord strings", {"action_type": 2, "coord": ["a", "b"]}, "coord"),
    ("coord None", {"action_type": 2, "coord": None}, "coord"),
    ("coord off the screen", {"action_type": 2, "coord": [360, 800]}, "coord"),
    ("tgt_coord off the screen", {"action_type": 6, "coord": [1, 1], "tgt_coord": [5000, 1]}, "tgt_coord"),
    ("input_txt a number", {"action_type": 3, "input_txt": 5}, "input_txt"),
    ("input_txt 1M characters", {"action_type": 3, "input_txt": "x" * 1_000_000}, "input_txt"),
    ("input_txt NUL", {"action_type": 3, "input_txt": "\x00"}, "cannot type"),
    ("input_txt untypable", {"action_type": 3, "input_txt": "é"}, "é"),
    ("orient unknown", {"action_type": 5, "coord": [5, 5], "orient": "diagonal"}, "orient"),
    ("orient 9", {"action_type": 5, "coord": [5, 5], "orient": 9}, "orient"),
    ("dist unknown", {"action_type": 5, "coord": [5, 5], "dist": "far"}, "dist"),
    ("dist -1", {"action_type": 5, "coord": [5, 5], "dist": -1}, "dist"),
    ("unknown key", {"action_type": 0, "bogus": 1}, "bogus"),
    ("action None", None, "action"),
    ("action a number", 5, "action"),
    ("action text", "tap", "action"),
    ("action a list", [2, 10, 10], "action"),
    ("action an array", np.array([2]), "action"),
]

#: Keywords of make_pixel_env (what gym.make of a pixel id passes).
MAKE: list[tuple[str, dict, str]] = [
    ("make shape 0x0", {"observation": {"shape": [0, 0]}}, "shape"),
    ("make observation unknown key", {"observation": {"bogus": 1}}, "bogus"),
    ("make action type unknown", {"action": {"type": "fly"}}, "fly"),
    ("make action rows 0", {"action": {"rows": 0}}, "rows"),
    ("make wrapper unknown", {"wrappers": ["no.such.Wrapper"]}, "no.such"),
    ("make width 0", {"width": 0}, "screen"),
    ("make density 0", {"density": 0}, "density"),
    ("make task unknown", {"task": "nope"}, "nope"),
    ("make device with a space", {"device": "a b"}, "a b"),
    ("make frame_stack 4", {"observation": {"frame_stack": 4}}, "frame_stack"),
    ("make max_steps 0", {"max_steps": 0}, "max_steps"),
    ("make reset_timeout inf", {"reset_timeout": INF}, "reset_timeout"),
    ("make seed -1", {"seed": -1}, "seed"),
    ("make unknown keyword", {"bogus": 1}, "bogus"),
]


def cases() -> list[Case]:
    """Every case of the table."""
    table = [
        ("config", CONFIG),
        ("config_yaml", CONFIG_YAML),
        ("set", SET),
        ("cli", CLI),
        ("task", TASK),
        ("device", DEVICE),
        ("devices", DEVICES),
        ("env", ENV),
        ("step", STEP),
        ("make", MAKE),
    ]
    return [Case(name, kind, data, expect) for kind, rows in table for name, data, expect in rows]


# ---------------------------------------------------------------------------- running a case


def merge(base: dict, changes: dict) -> dict:
    """``base`` with ``changes`` merged in (mappings key by key; anything else replaces)."""
    out = dict(base)
    for key, value in changes.items():
        both = isinstance(value, dict) and isinstance(out.get(key), dict) and value
        out[key] = value.value if isinstance(value, Replace) else merge(out[key], value) if both else value
    return out


def make_workspace(folder: Path) -> Path:
    """The files the command-line cases name: good.yaml, run/ (a run without a model), binary.yaml, dir/."""
    from androidrl.train.config import dump_config, parse_config

    folder.mkdir(parents=True, exist_ok=True)
    (folder / "good.yaml").write_text(yaml.safe_dump(BASE_CONFIG))
    (folder / "run").mkdir(exist_ok=True)
    (folder / "run" / "config.yaml").write_text(dump_config(parse_config(BASE_CONFIG)))
    (folder / "binary.yaml").write_bytes(bytes(range(256)))
    (folder / "dir").mkdir(exist_ok=True)
    return folder


def _config(data: dict, ws: Path) -> None:
    from androidrl.train.config import parse_config

    parse_config(merge(BASE_CONFIG, data), "probe.yaml")


def _config_yaml(text: str | bytes, ws: Path) -> None:
    from androidrl.train.config import load_config

    path = Path("probe.yaml")
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    load_config(path)


def _set(overrides: list[str], ws: Path) -> None:
    from androidrl.train.config import load_config

    load_config(ws / "good.yaml", overrides)


def _cli(argv: list[str], ws: Path) -> int:
    from androidrl.cli import main

    try:
        return main([a.replace("{ws}", str(ws)) for a in argv])
    except SystemExit as stop:  # (argparse's way out)
        return stop.code if isinstance(stop.code, int) else 1


def _task(data: dict | str, ws: Path) -> int:
    path = Path("task.yaml")
    if isinstance(data, dict):
        task = {k: v for k, v in {**BASE_TASK, **data}.items() if v is not None}
        path.write_text(yaml.safe_dump(task, allow_unicode=True))
    else:
        path.write_text(data)
    return _cli(["tasks", "check", str(path)], ws)


def _device(text: Any, ws: Path) -> None:
    from androidrl.device.spec import DeviceSpec

    DeviceSpec.parse(text)


def _devices(items: Any, ws: Path) -> None:
    from androidrl.device.spec import parse_devices

    parse_devices(items)


def _phone():
    from androidrl import VirtualDevice

    return VirtualDevice(width=360, height=800, density=160)


def _env(kwargs: dict, ws: Path) -> None:
    from androidrl import AndroidEnv

    kwargs = dict(kwargs)
    device = kwargs.pop("device", None) or _phone()
    AndroidEnv(device, **kwargs).close()


def _step(action: Any, ws: Path) -> str:
    from androidrl import AndroidEnv

    env = AndroidEnv(_phone())
    try:
        env.reset(seed=0)
        *_, info = env.step(action)
        return info["action_error"]  # (text Android cannot type is a no-op, reported here)
    finally:
        env.close()


def _make(kwargs: dict, ws: Path) -> None:
    from androidrl.registration import make_pixel_env

    make_pixel_env(**{"task": "tap-target", "width": 360, "height": 800, "density": 160, **kwargs}).close()


RUNNERS = {
    "config": _config,
    "config_yaml": _config_yaml,
    "set": _set,
    "cli": _cli,
    "task": _task,
    "device": _device,
    "devices": _devices,
    "env": _env,
    "step": _step,
    "make": _make,
}


def _expected_errors(kind: str) -> tuple[type[BaseException], ...]:
    from androidrl.errors import AndroidRLError, ConfigError

    if kind in ("config", "config_yaml", "set"):
        return (ConfigError,)
    return (ValueError, TypeError, AndroidRLError)


def _attempt(case: Case, ws: Path) -> tuple[str, str]:
    """(verdict, message) of one case, run here (in the child)."""
    out = Path("output.txt")
    with out.open("w+") as capture:
        os.dup2(capture.fileno(), 1)
        os.dup2(capture.fileno(), 2)
        sys.stdout = open(1, "w", closefd=False, buffering=1)  # noqa: SIM115
        sys.stderr = open(2, "w", closefd=False, buffering=1)  # noqa: SIM115
        try:
            result = RUNNERS[case.kind](case.data, ws)
        except _expected_errors(case.kind) as err:
            return _judge(f"{type(err).__name__}: {err}", case)
        except Exception as err:  # noqa: BLE001  (what a user would see as a traceback)
            return "traceback", f"{type(err).__name__}: {str(err)[:2000]}"
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
    printed = out.read_text(errors="replace")
    if "Traceback (most recent call last)" in printed:
        return "traceback", printed[-2000:]
    if case.kind in ("cli", "task"):
        return ("silent", printed[-2000:]) if result == 0 else _judge(printed, case)
    if isinstance(result, str) and result:  # a step that reported its action's error
        return _judge(result, case)
    return "silent", printed[-2000:]


def _judge(message: str, case: Case) -> tuple[str, str]:
    lines = message.strip().splitlines()
    readable = len(lines) <= MAX_LINES and len(message) <= MAX_CHARS
    verdict = "clear" if case.expect.lower() in message.lower() and readable else "unclear"
    shown = message if len(message) <= 2000 else message[:1000] + f"\n... ({len(lines)} lines) ...\n" + message[-500:]
    return verdict, shown


def run_case(case: Case, workspace: Path, timeout: float = TIMEOUT) -> Outcome:
    """Run ``case`` in a forked child (in a folder of its own, its memory capped) and judge what it answered.

    Args:
        case: The case.
        workspace: The folder of :func:`make_workspace`.
        timeout: Seconds before the case counts as a hang (the child is killed).
    """
    folder = Path(tempfile.mkdtemp(prefix="probe-"))
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: run, report, and leave without running the parent's exit handlers
        code = 0
        try:
            os.close(read)
            os.chdir(folder)
            with contextlib.suppress(ValueError, OSError):
                resource.setrlimit(resource.RLIMIT_AS, (_address_space() + MEMORY, resource.RLIM_INFINITY))
            verdict, message = _attempt(case, workspace)
            os.write(write, json.dumps([verdict, message]).encode())
        except BaseException:  # noqa: BLE001
            code = 1
        finally:
            os._exit(code)
    os.close(write)
    data, deadline = b"", time.monotonic() + timeout
    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([read], [], [], left)[0]:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                return Outcome("hang", f"no answer within {timeout:g} s")
            chunk = os.read(read, 1 << 16)
            if not chunk:
                break
            data += chunk
        _, status = os.waitpid(pid, 0)
    finally:
        os.close(read)
        _remove(folder)
    if not data:
        return Outcome("traceback", f"the child died (wait status {status})")
    verdict, message = json.loads(data)
    return Outcome(verdict, message)


def _address_space() -> int:
    """This process's virtual memory size in bytes."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmSize:"):
            return int(line.split()[1]) * 1024
    return 0


def _remove(folder: Path) -> None:
    import shutil

    shutil.rmtree(folder, ignore_errors=True)


def warm_up(workspace: Path) -> None:
    """Import and run once what the cases use, so each child starts from a warm parent (fast forks)."""
    from androidrl.cli import build_parser
    from androidrl.registration import make_pixel_env  # noqa: F401
    from androidrl.train import evaluation, training, tuning, watch  # noqa: F401
    from androidrl.train.config import load_config

    build_parser()
    load_config(workspace / "good.yaml")
    env = _phone()
    env.close()


def main(argv: list[str] | None = None) -> int:
    """Print the tally of every case (``-v``: and each case that is not clear)."""
    argv = sys.argv[1:] if argv is None else argv
    verbose = "-v" in argv
    with tempfile.TemporaryDirectory(prefix="probes-") as tmp:
        workspace = make_workspace(Path(tmp))
        warm_up(workspace)
        tally: Counter = Counter()
        by_kind: dict[str, Counter] = {}
        started = time.monotonic()
        for case in cases():
            outcome = run_case(case, workspace)
            tally[outcome.verdict] += 1
            by_kind.setdefault(case.kind, Counter())[outcome.verdict] += 1
            if verbose and outcome.verdict != "clear":
                first = outcome.message.strip().splitlines()[:3]
                print(f"{outcome.verdict:<9} {case.kind:<11} {case.id}: {' | '.join(first)[:300]}")
    verdicts = ("clear", "unclear", "silent", "traceback", "hang")
    print(f"\n{'kind':<12}" + "".join(f"{v:>10}" for v in verdicts) + f"{'total':>8}")
    for kind, counts in by_kind.items():
        print(f"{kind:<12}" + "".join(f"{counts[v]:>10}" for v in verdicts) + f"{sum(counts.values()):>8}")
    print(f"{'all':<12}" + "".join(f"{tally[v]:>10}" for v in verdicts) + f"{sum(tally.values()):>8}")
    print(f"({time.monotonic() - started:.0f} s)")
    return 0 if tally["clear"] == sum(tally.values()) else 1


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    sys.exit(main())
