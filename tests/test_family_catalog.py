"""The families folder: its rules, listings and filters, suites, gym ids per tier, and the generated docs page."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

from androidrl import AndroidEnv, TaskError, VirtualDevice
from androidrl.tasks import (
    SpecTask,
    builtin_specs,
    family_gym_ids,
    family_names,
    family_specs,
    gym_id,
    list_families,
    make_family_suite,
    make_task,
)
from androidrl.tasks.catalog import render_tasks_page
from androidrl.tasks.spec import TIERS

DOCS = Path(__file__).parents[1] / "docs" / "tasks.md"
FAMILY = """name: {name}
category: {category}
instruction: Turn on Wi-Fi
tiers: {tiers}
success: {{setting: {{namespace: global, key: wifi_on, equals: "1"}}}}
oracle: {oracle}
"""


def write(folder: Path, directory: str, file: str, **fields: str) -> None:
    values = {"name": file.removesuffix(".yaml").replace("_", "-"), "category": directory, "oracle": "[{key: back}]"}
    values["tiers"] = "{easy: {}, medium: {}, hard: {}}"
    values.update(fields)
    (folder / directory).mkdir(parents=True, exist_ok=True)
    (folder / directory / file).write_text(FAMILY.format(**values))


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"category": "gestures"}, "category: 'gestures', but the file is in settings/"),
        (
            {"tiers": "{easy: {}, hard: {}}"},
            "tiers: a family has all of ['easy', 'medium', 'hard']; missing ['medium']",
        ),
        ({"oracle": "[]"}, "oracle: a family needs a scripted solution"),
        ({"name": "wifi-on"}, "name: 'wifi-on', but the file is wifi_up.yaml (expected wifi_on.yaml)"),
        ({"tiers": "{easy: {max_steps: 0}, medium: {}, hard: {}}"}, "tiers.easy.max_steps: Input should be greater"),
    ],
)
def test_a_family_file_that_breaks_the_rules_is_refused_by_name(tmp_path, fields, message):
    write(tmp_path, "settings", "wifi_up.yaml", **fields)
    with pytest.raises(TaskError, match=re.escape(message)) as info:
        family_specs(tmp_path)
    assert "wifi_up.yaml" in str(info.value)


def test_the_shipped_families_are_the_builtins_and_keep_their_names_and_ids():
    specs = family_specs()
    assert set(specs) == set(builtin_specs()) and len(specs) >= 14
    assert {s.category for s in specs.values()} >= {"navigation", "gestures", "text-entry", "settings", "cross-app"}
    assert gym_id("wifi-on") == "androidrl/WifiOn-v0" and make_task("wifi-on").tier is None
    assert all(set(spec.tiers) == set(TIERS) and spec.oracle for spec in specs.values())


def test_import_reads_no_family_file_and_one_named_task_reads_its_own_alone():
    # Every family's spec read and checked takes seconds; `import androidrl` (each worker, each CLI call) must not.
    code = (
        "import androidrl, gymnasium as gym\n"
        "from androidrl.tasks import family\n"
        "assert 'androidrl/WifiOn-Hard-v0' in gym.registry, 'ids come from the file names'\n"
        "print(family._load_file.cache_info().currsize)\n"
        "androidrl.make_virtual_env(360, 800, 160, task='wifi-on').close()\n"
        "print(family._load_file.cache_info().currsize)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True).stdout
    assert out.split() == ["0", "1"]
    with pytest.raises(TaskError, match="unknown family 'wifi-onn'; there are .*'wifi-on'"):
        make_task({"family": "wifi-onn"})


def test_families_are_listed_and_filtered_by_category_app_and_stock():
    texts, practice, ours = (
        list_families(categories=["text-entry"]),
        list_families(apps=["com.androidrl.practice"]),
        list_families(stock_android=False),
    )
    assert "notes-word" in {f.name for f in texts} and {f.category for f in texts} == {"text-entry"}
    assert "tap-target" in {f.name for f in practice} and all("com.androidrl.practice" in f.apps for f in practice)
    assert {"tap-target", "notes-word"} <= {f.name for f in ours} and not any(f.stock_android for f in ours)
    assert len(ours) < len(family_specs())
    (wifi,) = list_families(families=["wifi-on"])
    assert wifi.max_steps == {"easy": 10, "medium": 30, "hard": 30} and wifi.path.exists()
    with pytest.raises(TaskError, match=r"unknown category \['sports'\]"):
        list_families(categories=["sports"])


def test_suites_gym_ids_and_task_mappings_of_families():
    suite = make_family_suite(tier="hard", categories=["gestures"], reward_mode="time")
    assert sorted(suite.names) == sorted(f.name for f in list_families(categories=["gestures"]))
    assert {"find-about-phone", "tap-target"} <= set(suite.names)
    assert all(t.tier == "hard" and t.reward_mode == "time" for t in suite.tasks)
    with pytest.raises(TaskError, match="no family has"):
        make_family_suite(categories=["settings"], apps=["com.androidrl.notes"])
    with pytest.raises(TaskError, match="tier must be one of"):
        make_family_suite(tier="expert")
    with pytest.raises(TaskError, match=r"unknown suite 'android-world'; there are \['all'\]"):
        make_family_suite("android-world")
    ids = dict(family_gym_ids())
    assert len(ids) == 3 * len(family_specs()) and family_names() == sorted(family_specs())
    assert ids["androidrl/WifiOn-Easy-v0"] == {"task": {"family": "wifi-on", "tier": "easy"}}
    env = AndroidEnv(VirtualDevice(width=360, height=800, density=160), **ids["androidrl/TapTarget-Hard-v0"])
    _, info = env.reset(seed=0)
    assert isinstance(env.task, SpecTask) and info["tier"] == "hard" and env.max_steps == 10
    task = make_task({"family": "notes-word", "tier": "medium", "split": "test"})
    assert (task.tier, task.split) == ("medium", "test")
    with pytest.raises(
        TaskError, match=r"a family task takes tier, split, reward_mode, device_config; got \['level'\]"
    ):
        make_task({"family": "wifi-on", "level": 3})


def test_the_docs_page_is_generated_from_the_family_files():
    page = DOCS.read_text(encoding="utf-8")
    lengths = {}
    for row in re.finditer(
        r"^\| \[([a-z0-9-]+)\]\(#[a-z0-9-]+\) \|.*\| ([0-9?]+) / ([0-9?]+) / ([0-9?]+) \|$", page, re.M
    ):
        lengths.update({(row[1], tier): int(n) for tier, n in zip(TIERS, row.groups()[1:]) if n != "?"})
    assert len(lengths) == 3 * len(family_specs())
    assert render_tasks_page(lengths) == page, "docs/tasks.md is out of date: run python scripts/tasks_doc.py"


def test_a_config_names_a_suite_of_families_and_evaluates_on_its_eval_split(tmp_path):
    from androidrl.train.config import ConfigError, parse_config

    base = {"devices": {"virtual": {"count": 1}}, "training": {"eval_freq": 0}}
    config = parse_config(
        {**base, "task": {"suite": "all", "categories": ["settings"], "tier": "medium", "eval_split": "test"}}
    )
    train, evaluation = make_task(config.task_spec()), make_task(config.task_spec(evaluation=True))
    assert sorted(train.names) == sorted(f.name for f in list_families(categories=["settings"]))
    assert {(t.tier, t.split) for t in train.tasks} == {("medium", "train")}
    assert {(t.tier, t.split) for t in evaluation.tasks} == {("medium", "test")} and evaluation.cycle
    with pytest.raises(ConfigError, match=r"task: unknown category \['sports'\]"):
        parse_config({**base, "task": {"suite": "all", "categories": ["sports"]}})
    with pytest.raises(ConfigError, match=r"\ntask\.tier: Input should be"):
        parse_config({**base, "task": {"suite": "all", "tier": "expert"}})
    with pytest.raises(TaskError, match=r"a suite of families takes suite, tier, .*got \['level'\]"):
        make_task({"suite": "all", "level": 2})


def test_a_config_observes_and_acts_on_elements_with_equal_slots():
    import gymnasium as gym

    from androidrl.device.spec import DeviceSpec
    from androidrl.train.compose import run_spec
    from androidrl.train.config import ConfigError, parse_config

    config = {
        "devices": {"virtual": {"count": 1, "width": 360, "height": 800, "density": 160}},
        "training": {"eval_freq": 0},
        "task": {"suite": "all", "families": ["wifi-on"]},
        "observation": {"shape": [64, 36], "elements": {"max_elements": 16}},
        "action": {"type": "elements", "max_elements": 16, "fields": 0},
        "algo": {"name": "MaskablePPO", "policy": "MultiInputPolicy"},
    }
    env = gym.make(run_spec(parse_config(config), DeviceSpec.virtual_phone(360, 800, 160)))
    obs, _ = env.reset(seed=0)
    assert obs["element_boxes"].shape == (16, 4) and obs["screen"].shape == (64, 36, 3)
    assert env.action_space.n == env.get_wrapper_attr("index")(15, "slide_100") + 1 + 4  # back home enter wait
    assert env.get_wrapper_attr("action_masks")().any()
    env.close()
    with pytest.raises(ConfigError, match="action.max_elements: the element action has 16 slots but"):
        parse_config({**config, "observation": {"shape": [64, 36], "elements": {"max_elements": 8}}})
    with pytest.raises(ConfigError, match="algo.policy: an observation with the elements is a Dict"):
        parse_config({**config, "algo": {"name": "PPO", "policy": "CnnPolicy"}})


def test_tasks_list_filters_by_app_category_and_tier(capsys):
    from androidrl.cli import main

    assert main(["tasks", "list", "--category", "settings", "--tier", "hard"]) == 0
    out = capsys.readouterr().out
    assert "androidrl/WifiOn-Hard-v0" in out and "tap-target" not in out
    assert f"{len(list_families(categories=['settings']))} families." in out
    assert main(["tasks", "--app", "com.androidrl.practice"]) == 0
    assert "androidrl/TapTarget-v0" in capsys.readouterr().out
    assert main(["tasks", "--category", "sports"]) == 2
    assert "unknown category ['sports']" in capsys.readouterr().err
