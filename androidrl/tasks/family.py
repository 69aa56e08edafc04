"""The suite's task families: one YAML file each under ``androidrl/tasks/families/<category>/``.

A family is a task spec with a ``category``, three ``tiers`` (easy, medium, hard) and an
``oracle``; its file is named after it (``wifi-on`` in ``settings/wifi_on.yaml``). This module
finds and checks them, and gives what the harness builds on them: a task at a tier and split
(:func:`make_family_task`), a suite filtered by category, app, family and tier
(:func:`make_family_suite`), the families with their metadata (:func:`list_families`), and a
gym id per family and tier (:func:`family_gym_ids`).
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from androidrl.errors import TaskError
from androidrl.tasks.spec import CATEGORIES, TIERS, TaskSpec, load_spec
from androidrl.tasks.spec_task import SpecTask
from androidrl.tasks.suite import TaskSuite

FAMILIES_DIR = Path(__file__).with_name("families")
#: Named suites: the families each one holds (None: every family). A config names one in ``task: {suite: ...}``.
SUITES: dict[str, tuple[str, ...] | None] = {"all": None}


def check_family(spec: TaskSpec, path: Path) -> None:
    """Refuse a family file that breaks the suite's rules (category, tiers, oracle, file name, folder).

    Raises:
        TaskError: Naming the file and what is wrong.
    """
    problems = []
    if spec.category is None:
        problems.append(f"category: a family needs one of {list(CATEGORIES)}")
    elif path.parent.name != spec.category:
        problems.append(f"category: {spec.category!r}, but the file is in {path.parent.name}/")
    missing = [t for t in TIERS if t not in spec.tiers]
    if missing:
        problems.append(f"tiers: a family has all of {list(TIERS)}; missing {missing}")
    if not spec.oracle:
        problems.append("oracle: a family needs a scripted solution")
    if not spec.instruction:
        problems.append("instruction: a family says what to do")
    if path.stem.replace("_", "-") != spec.name:
        problems.append(
            f"name: {spec.name!r}, but the file is {path.name} (expected {spec.name.replace('-', '_')}.yaml)"
        )
    if problems:
        raise TaskError(f"{path}: not a valid family\n" + "\n".join(problems))


@functools.cache
def _load(directory: Path) -> dict[str, TaskSpec]:  # specs are frozen: read the files once per process
    specs: dict[str, TaskSpec] = {}
    for path in sorted(directory.glob("*/*.yaml")):
        spec = _load_file(path)
        if spec.name in specs:
            raise TaskError(f"{path}: a family named {spec.name!r} exists already")
        specs[spec.name] = spec
    return specs


@functools.cache
def _load_file(path: Path) -> TaskSpec:
    spec = load_spec(path)
    check_family(spec, path)
    return spec


def family_spec(name: str, directory: Path = FAMILIES_DIR) -> TaskSpec:
    """The spec of family ``name``, reading its file alone (every family's takes seconds; one, milliseconds).

    Raises:
        TaskError: No such family, two files of that name, or its file is invalid.
    """
    paths = [path for path in Path(directory).glob("*/*.yaml") if path.stem.replace("_", "-") == name]
    if not paths:
        raise TaskError(f"unknown family {name!r}; there are {family_names(directory)}")
    if len(paths) > 1:
        return family_specs(directory)[name]  # (which says which files clash)
    return _load_file(paths[0])


def family_specs(directory: Path = FAMILIES_DIR) -> dict[str, TaskSpec]:
    """Every family's spec by name (sorted by category, then name).

    Raises:
        TaskError: A family file is invalid (naming the file and the key path).
    """
    specs = _load(Path(directory))
    return dict(sorted(specs.items(), key=lambda item: (CATEGORIES.index(item[1].category), item[0])))


@dataclass(frozen=True)
class FamilyInfo:
    """What the catalogue, the CLI and the docs say about a family."""

    name: str
    category: str
    description: str
    apps: tuple[str, ...]
    stock_android: bool
    fields: tuple[str, ...]
    max_steps: dict[str, int]  # per tier
    path: Path


def list_families(
    categories: Iterable[str] | None = None,
    apps: Iterable[str] | None = None,
    families: Iterable[str] | None = None,
    stock_android: bool | None = None,
) -> list[FamilyInfo]:
    """The families that pass every filter given (a family uses one of ``apps`` to pass that one).

    Raises:
        TaskError: An unknown category, app or family name.
    """
    specs = family_specs()
    categories = _known("category", categories, CATEGORIES)
    names = _known("family", families, specs)
    apps = _known("app", apps, {app for spec in specs.values() for app in spec.apps})
    found = []
    for name, spec in specs.items():
        if categories is not None and spec.category not in categories:
            continue
        if names is not None and name not in names:
            continue
        if apps is not None and not apps & set(spec.apps):
            continue
        if stock_android is not None and spec.stock_android != stock_android:
            continue
        steps = {tier: spec.at_tier(tier).max_steps for tier in TIERS}
        path = FAMILIES_DIR / spec.category / f"{name.replace('-', '_')}.yaml"
        found.append(
            FamilyInfo(name, spec.category, spec.description, spec.apps, spec.stock_android, spec.fields, steps, path)
        )
    return found


def _known(what: str, given: Iterable[str] | None, known: Iterable[str]) -> set[str] | None:
    if given is None:
        return None
    given, known = set(given), set(known)
    unknown = sorted(given - known)
    if unknown:
        raise TaskError(f"unknown {what} {unknown}; there are {sorted(known)}")
    return given


def make_family_task(
    name: str,
    tier: str | None = None,
    split: str = "train",
    reward_mode: str = "shaped",
    device_config: str = "default",
) -> SpecTask:
    """The family ``name`` as a task at ``tier`` (None: its base), drawing values of ``split``.

    Raises:
        TaskError: No such family, tier, split, reward mode or device configuration choice.
    """
    return SpecTask(family_spec(name), tier, split, reward_mode, device_config)  # type: ignore[arg-type]


def make_family_suite(
    suite: str = "all",
    tier: str = "easy",
    split: str = "train",
    categories: Sequence[str] | None = None,
    apps: Sequence[str] | None = None,
    families: Sequence[str] | None = None,
    reward_mode: str = "shaped",
    device_config: str = "default",
    cycle: bool = False,
    offset: int = 0,
) -> TaskSuite:
    """The families of suite ``suite`` that pass the filters, as one task suite at one tier and split.

    Raises:
        TaskError: An unknown suite or tier, filters that leave no family or name unknown ones.
    """
    if suite not in SUITES:
        raise TaskError(f"unknown suite {suite!r}; there are {sorted(SUITES)}")
    if tier not in TIERS:
        raise TaskError(f"tier must be one of {list(TIERS)}, got {tier!r}")
    members = SUITES[suite]
    if families is not None and members is not None:
        families = [f for f in families if f in members]
    chosen = list_families(categories, apps, families if families is not None else members)
    if not chosen:
        raise TaskError(f"no family has categories={categories}, apps={apps}, families={families}")
    tasks = [make_family_task(info.name, tier, split, reward_mode, device_config) for info in chosen]
    return TaskSuite(tasks, cycle=cycle, offset=offset)


#: The arguments of :func:`make_family_suite`, as a mapping (a config's ``task:``) gives them.
FAMILY_SUITE_OPTIONS = tuple(inspect.signature(make_family_suite).parameters)


def family_gym_id(name: str, tier: str | None = None) -> str:
    """The gym id of a family at a tier on the virtual phone: ``androidrl/WifiOn-Easy-v0`` (no tier: ``WifiOn-v0``)."""
    stem = "".join(part.capitalize() for part in name.replace("_", "-").split("-"))
    return f"androidrl/{stem}{'-' + tier.capitalize() if tier else ''}-v0"


def family_names(directory: Path = FAMILIES_DIR) -> list[str]:
    """The families' names, from their file names alone (reading no file: cheap enough for import time)."""
    return sorted(path.stem.replace("_", "-") for path in Path(directory).glob("*/*.yaml"))


def family_gym_ids() -> list[tuple[str, dict[str, Any]]]:
    """(gym id, the ``task`` argument of its env) for every family and tier, from the file names alone.

    E.g. ``("androidrl/WifiOn-Easy-v0", {"task": {"family": "wifi-on", "tier": "easy"}})``.
    """
    return [
        (family_gym_id(name, tier), {"task": {"family": name, "tier": tier}})
        for name in family_names()
        for tier in TIERS
    ]
