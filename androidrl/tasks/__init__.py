"""Tasks: episode start state, reward and termination."""

from androidrl.tasks.base import Evaluation, IdleTask, Snapshot, Task

__all__ = ["Evaluation", "IdleTask", "Snapshot", "Task"]
