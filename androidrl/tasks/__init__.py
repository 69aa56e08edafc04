"""Tasks: episode start state, reward and termination, from YAML specs or code."""

from androidrl.tasks.base import Evaluation, IdleTask, Needs, Task
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
    "gym_id",
    "load_spec",
    "make_task",
    "parse_spec",
]
