"""Built-in tasks (the suite's families, at their base), and turning whatever a user passes as ``task=`` into a Task."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from androidrl.errors import TaskError
from androidrl.tasks.base import IdleTask, Task
from androidrl.tasks.family import (
    FAMILY_SUITE_OPTIONS,
    family_names,
    family_spec,
    family_specs,
    make_family_suite,
    make_family_task,
)
from androidrl.tasks.spec import TaskSpec, load_spec, parse_spec
from androidrl.tasks.spec_task import SpecTask
from androidrl.tasks.suite import TaskSuite


def builtin_specs() -> dict[str, TaskSpec]:
    """Every built-in task spec by name (every family of the suite), easiest first (as listed in the README)."""
    return dict(_ordered())


@functools.cache
def _ordered() -> dict[str, TaskSpec]:
    specs = family_specs()
    order = [
        "tap-target",
        "open-app",
        "open-any-app",
        "wifi-on",
        "wifi-off",
        "bluetooth-on",
        "bluetooth-off",
        "airplane-off",
        "settings-page",
        "airplane-home",
        "airplane-clock",
        "notes-word",
        "find-about-phone",
    ]
    return {name: specs[name] for name in sorted(specs, key=lambda n: (order.index(n) if n in order else 99, n))}


def gym_id(name: str) -> str:
    """The Gymnasium id of a built-in task on the virtual phone, e.g. ``androidrl/WifiOn-v0``."""
    return "androidrl/" + "".join(part.capitalize() for part in name.replace("_", "-").split("-")) + "-v0"


def make_task(task: Task | TaskSpec | dict[str, Any] | str | Path | Sequence[Any] | None) -> Task:
    """A Task from a Task, a spec (model or mapping), a built-in name, a YAML path, or a list of them (a suite).

    A mapping with ``family`` is a family of the suite with its options
    (``{family: wifi-on, tier: hard, split: test, reward_mode: time}``); one whose ``suite`` is a
    name is a suite of families (:func:`~androidrl.tasks.family.make_family_suite`'s arguments).

    Raises:
        TaskError: The name is neither built in nor a file, or the spec is invalid.
    """
    if task is None:
        return IdleTask()
    if isinstance(task, Task):
        return task
    if isinstance(task, TaskSpec):
        return SpecTask(task)

    if isinstance(task, (list, tuple)):
        return make_suite(task)
    if isinstance(task, dict) and isinstance(task.get("suite"), str):  # a suite of families by name, filtered
        unknown = sorted(set(task) - set(FAMILY_SUITE_OPTIONS))
        if unknown:
            raise TaskError(f"a suite of families takes {', '.join(FAMILY_SUITE_OPTIONS)}; got {unknown}")
        return make_family_suite(**task)
    if isinstance(task, dict) and "suite" in task:  # {suite: [...], cycle: true}: every task in turn
        return make_suite(task["suite"], cycle=bool(task.get("cycle")), offset=int(task.get("offset", 0)))
    if isinstance(task, dict) and "family" in task:
        options = {k: v for k, v in task.items() if k != "family"}
        unknown = sorted(set(options) - {"tier", "split", "reward_mode", "device_config"})
        if unknown:
            raise TaskError(f"a family task takes tier, split, reward_mode, device_config; got {unknown}")
        return make_family_task(str(task["family"]), **options)
    if isinstance(task, dict):
        return SpecTask(parse_spec(task))
    if isinstance(task, (str, Path)):
        builtins = family_names()
        if str(task) in builtins:
            return SpecTask(family_spec(str(task)))  # (its file alone: reading every family's takes seconds)
        path = Path(task)
        if path.suffix in (".yaml", ".yml") or path.exists():
            return SpecTask(load_spec(path))
        raise TaskError(f"unknown task {str(task)!r}: not a built-in ({', '.join(builtins)}) and not a YAML file")
    raise TypeError(
        f"task must be a Task, a TaskSpec, a mapping, a built-in name, a path or a list of them (a suite), "
        f"got {type(task).__name__}"
    )


def make_suite(items: Sequence[Any], cycle: bool = False, offset: int = 0) -> TaskSuite:
    """A :class:`~androidrl.tasks.suite.TaskSuite` from a list of tasks, each a task or ``{name: ..., weight: w}``.

    Raises:
        TaskError: A task that does not exist (the error lists the built-ins), or a bad weight.
    """
    tasks, weights = [], []
    for item in items:
        if isinstance(item, dict) and "weight" in item:
            task, weight = item.get("name"), item["weight"]
        else:
            task, weight = item, 1.0
        if isinstance(weight, bool) or not isinstance(weight, (int, float)):
            raise TaskError(f"a suite weight is a number, got {weight!r} for {task!r}")
        tasks.append(make_task(task))
        weights.append(float(weight))
    return TaskSuite(tasks, weights, cycle=cycle, offset=offset)
