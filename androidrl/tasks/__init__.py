"""Tasks: episode start state, reward and termination, from YAML specs or code; the suite's families."""

from androidrl.tasks.base import Evaluation, IdleTask, Needs, Task
from androidrl.tasks.family import (
    family_gym_id,
    family_gym_ids,
    family_names,
    family_spec,
    family_specs,
    list_families,
    make_family_suite,
    make_family_task,
)
from androidrl.tasks.registry import builtin_specs, gym_id, make_task
from androidrl.tasks.spec import TaskSpec, load_spec, parse_spec
from androidrl.tasks.spec_task import SpecTask
from androidrl.ui import Snapshot

__all__ = [
    "Evaluation",
    "IdleTask",
    "Needs",
    "Snapshot",
    "SpecTask",
    "Task",
    "TaskSpec",
    "builtin_specs",
    "family_gym_id",
    "family_gym_ids",
    "family_names",
    "family_spec",
    "family_specs",
    "gym_id",
    "list_families",
    "load_spec",
    "make_family_suite",
    "make_family_task",
    "make_task",
    "parse_spec",
]
