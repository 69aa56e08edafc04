"""VectorSettings: how a vector env over devices lays out its workers and survives faults — each setting once.

One typed object holds every setting and its default; the training config's ``vector:``
section extends it, and :func:`~androidrl.vector.async_env.make_vector_env`,
:class:`~androidrl.vector.async_env.DeviceVectorEnv`, the per-worker
:class:`~androidrl.vector.guard.DeviceFaultGuard` and the Ray builder
(:func:`~androidrl.vector.cluster.make_cluster_vector_env`) all read it, so none of them
keeps a default or a list of the others' arguments of its own. A wrong value is refused
here, naming the setting (``step_timeout: Input should be greater than 0``).
"""

from __future__ import annotations

from typing import Literal

from pydantic import ConfigDict, Field

from androidrl.validation import StrictScalars

#: The longest wait any setting asks for (a timeout of a day is already "never"; infinity would overflow a timer).
DAY = 86_400.0


class VectorSettings(StrictScalars):
    """The layout and fault settings of a vector env over devices (see :mod:`androidrl.vector.async_env`).

    Attributes:
        step_timeout: Seconds a worker may stay silent before it is killed and restarted.
        envs_per_worker: Envs stepped one after the other in each worker process (more
            devices than cores: 2 or more). The ray backend runs one actor per device (1).
        fault_timeout: Seconds, on top of twice its slowest recent answer, a worker may be
            late before its envs' episodes end and the others step on without it.
        max_restarts: Restarts of one worker allowed within ``restart_window`` seconds.
        restart_window: See ``max_restarts``.
        max_blank_share: While more than this share of the envs are down, stepping waits for devices.
        retry_interval: Seconds between reconnection attempts while a device is down (the guard).
        probe_timeout: How long one reconnection attempt waits for the device (the guard).
        max_down_seconds: A device down longer than this is an error naming it.
        placement_timeout: (ray) Seconds every worker's actor has to be placed on its device's host.
        start_method: How worker processes start (async and subproc backends): None for the
            platform's default — fork on Linux (Python < 3.14): quick, and a worker shares the trainer's
            pages; its RSS counts them (400–630 MB beside a trainer with torch) though what it adds is its
            own, ~20 MB with a virtual phone — or ``forkserver`` / ``spawn``: a worker that maps nothing of
            the trainer's and loads no torch (~80 MB RSS, ~54 MB its own), where forking is unsafe; the
            script that starts them must do so under ``if __name__ == "__main__":``.
    """

    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)

    step_timeout: float = Field(default=120.0, gt=0, le=DAY)
    envs_per_worker: int = Field(default=1, ge=1, le=64)
    fault_timeout: float = Field(default=0.75, gt=0, le=DAY)
    max_restarts: int = Field(default=3, ge=0, le=10_000)
    restart_window: float = Field(default=300.0, gt=0, le=7 * DAY)
    max_blank_share: float = Field(default=0.5, ge=0, le=1)
    retry_interval: float = Field(default=5.0, gt=0, le=DAY)
    probe_timeout: float = Field(default=3.0, gt=0, le=DAY)
    max_down_seconds: float = Field(default=300.0, gt=0, le=7 * DAY)
    placement_timeout: float = Field(default=60.0, gt=0, le=DAY)
    start_method: Literal["fork", "forkserver", "spawn"] | None = None

    def vector_settings(self) -> VectorSettings:
        """These settings alone, without what a subclass adds (the training config's backend and address)."""
        return VectorSettings.model_validate(self.model_dump(include=set(VectorSettings.model_fields)))
