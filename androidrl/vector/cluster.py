"""Devices on many hosts: each env worker a Ray actor on the host that owns its device.

A host running ``androidrl node`` advertises each of its devices to the Ray cluster as a
custom resource of one unit, ``androidrl/device:<node>/<serial>``. An actor asks for
exactly its device's unit, so Ray places it on that host, where it builds the env and its
wrappers against the host's own adb server and sends back only the wrapped observation
(an 84x84 image is 21 KB; the 1080x2400 frame it came from is 10 MB). A second actor for
the same device finds no free unit and stays pending: that is the "already driven" error.
Virtual phones need no host: their actors take a CPU each, spread over the cluster.

The actors are a transport of :class:`~androidrl.vector.async_env.DeviceVectorEnv`, so
the Ray backend steps, fails and recovers exactly as the local one: a step is never
replayed (``max_task_retries=0``); an actor that dies is restarted by Ray and its env comes
back with a fresh episode; an env whose host is gone reports ``device_down`` until the
host is back, or until ``max_down_seconds`` end the training with an error naming it.

Importing androidrl never imports Ray; this module imports it only when used.
"""

from __future__ import annotations

import socket
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import gymnasium as gym

from androidrl.device.spec import DeviceSpec
from androidrl.errors import AndroidRLError
from androidrl.vector.async_env import DeviceVectorEnv
from androidrl.vector.transport import Transport, Worker, WorkerGone
from androidrl.vector.workers import Wrap, answer, env_factory

DEVICE_RESOURCE = "androidrl/device:"
HOST_RESOURCE = "androidrl/host:"


class ClusterError(AndroidRLError):
    """The cluster cannot be reached, or does not have the devices asked for."""


def require_ray() -> Any:
    """The ``ray`` module.

    Raises:
        ClusterError: Ray is not installed (naming the extra that installs it).
    """
    try:
        import ray
    except ImportError:
        raise ClusterError('the ray backend needs Ray: pip install "androidrl[ray]"') from None
    return ray


def connect(address: str = "auto") -> Any:
    """Join the Ray cluster at ``address`` as a driver (once per process); return ``ray``.

    Raises:
        ClusterError: No cluster answers there.
    """
    ray = require_ray()
    if not ray.is_initialized():
        host, sep, port = address.rpartition(":")
        if sep and port.isdigit():  # Ray itself would retry a dead address for minutes: ask once
            try:
                socket.create_connection((host, int(port)), timeout=5).close()
            except OSError as err:
                raise ClusterError(
                    f"no Ray cluster at {address} ({err.strerror or err}); start one with `androidrl node --head` "
                    "(and `androidrl node --address HEAD:PORT` on the other hosts)"
                ) from None
        try:
            ray.init(address=address, logging_level="WARNING", log_to_driver=False)
        except (ConnectionError, RuntimeError, ValueError) as err:
            raise ClusterError(
                f"no Ray cluster at {address!r} ({err}); start one with `androidrl node --head` "
                "(and `androidrl node --address HEAD:PORT` on the other hosts)"
            ) from None
    return ray


@dataclass(frozen=True)
class ClusterDevice:
    """A device a node advertises: its name (``<node>/<serial>``), host and whether a worker drives it."""

    name: str
    host: str
    node_id: str
    in_use: bool

    @property
    def serial(self) -> str:
        """The adb serial on its host."""
        return self.name.split("/", 1)[1] if "/" in self.name else self.name


def cluster_devices(ray: Any) -> list[ClusterDevice]:
    """Every device the live nodes of the cluster advertise, by name."""
    found = []
    for node in ray.nodes():
        if not node.get("Alive"):
            continue
        total = node.get("Resources", {})
        for key in total:
            if key.startswith(DEVICE_RESOURCE):
                name = key[len(DEVICE_RESOURCE) :]
                host = next((k[len(HOST_RESOURCE) :] for k in total if k.startswith(HOST_RESOURCE)), "")
                found.append(ClusterDevice(name, host or node["NodeManagerAddress"], node["NodeID"], False))
    available = ray.available_resources()
    return sorted(
        (ClusterDevice(d.name, d.host, d.node_id, available.get(DEVICE_RESOURCE + d.name, 0) < 1) for d in found),
        key=lambda d: d.name,
    )


def pick_devices(ray: Any, wanted: str | int | Sequence[str]) -> list[ClusterDevice]:
    """The cluster devices a config asks for: ``"all"``, a count (the first N free), or names.

    Raises:
        ClusterError: Names no node advertises, or fewer devices than asked for (listing what there is).
    """
    devices = cluster_devices(ray)
    listing = ", ".join(f"{d.name} ({d.host}{', in use' if d.in_use else ''})" for d in devices) or "none"
    if wanted == "all":
        chosen = [d for d in devices if not d.in_use]
    elif isinstance(wanted, int):
        chosen = [d for d in devices if not d.in_use][:wanted]
        if len(chosen) < wanted:
            raise ClusterError(
                f"devices.cluster: {wanted} devices asked for, {len(chosen)} free; the cluster has: {listing}"
            )
    else:
        by_name = {d.name: d for d in devices}
        unknown = [n for n in wanted if n not in by_name]
        if unknown:
            raise ClusterError(f"devices.cluster: no node advertises {unknown}; the cluster has: {listing}")
        chosen = [by_name[n] for n in wanted]
    if not chosen:
        raise ClusterError(f"devices.cluster: no free device in the cluster; it has: {listing}")
    return chosen


class _EnvActor:
    """The Ray actor of one worker: builds its envs on its host and answers commands (see ``workers.answer``)."""

    def __init__(self, env_fns: list[Callable[[], gym.Env]], slots: list[int]) -> None:
        self.envs = [fn() for fn in env_fns]
        self.slots = slots

    def where(self) -> tuple[str, str]:
        """(node id, host name) of the actor."""
        import ray

        return ray.get_runtime_context().get_node_id(), socket.gethostname()

    def run(self, command: str, data: Any) -> tuple[str, Any]:
        return answer(self.envs, self.slots, None, command, data)

    def close(self) -> None:
        for env in self.envs:
            env.close()


@dataclass
class _Handle:
    actor: Any
    refs: deque = field(default_factory=deque)  # calls in flight, oldest first
    node_id: str = ""
    host: str = ""


class RayActors(Transport):
    """Workers as Ray actors, each placed where its device is.

    Args:
        placements: Per worker, the actor's Ray options (``resources`` naming its device, or
            ``num_cpus`` and a spread strategy for virtual phones).
        names: Per worker, the device names, for messages.
        placement_timeout: Seconds every actor has to be placed before the vector env gives up.
    """

    restarts_itself = True

    def __init__(self, placements: Sequence[dict[str, Any]], names: Sequence[str], placement_timeout: float = 60.0):
        self.ray = require_ray()
        self.placements = list(placements)
        self.names = list(names)
        self.placement_timeout = placement_timeout
        self._actor_class = self.ray.remote(_EnvActor)

    def start(self, worker: Worker) -> None:
        options = {"max_restarts": -1, "max_task_retries": 0, **self.placements[worker.index]}
        worker.handle = _Handle(self._actor_class.options(**options).remote(worker.env_fns, worker.slots))

    def started(self, workers: Sequence[Worker]) -> None:
        """Wait until every actor is placed; one that stays pending is an error naming its device.

        Raises:
            ClusterError: A device has no free unit (another worker drives it) or no node at all.
        """
        refs = {w.handle.actor.where.remote(): w for w in workers}
        ready, pending = self.ray.wait(list(refs), num_returns=len(refs), timeout=self.placement_timeout)
        for ref in ready:
            worker = refs[ref]
            try:
                worker.handle.node_id, worker.handle.host = self.ray.get(ref)
            except Exception as err:  # noqa: BLE001 (the actor failed to build its env: say so)
                raise ClusterError(f"the worker of {self.names[worker.index]} failed to start: {err}") from None
        if pending:
            advertised = {d.name: d for d in cluster_devices(self.ray)}
            problems = []
            for ref in pending:
                name = self.names[refs[ref].index]
                if name in advertised:
                    problems.append(f"device {name} is already driven by another worker (its actor waited "
                                    f"{self.placement_timeout:g} s for it)")  # fmt: skip
                else:
                    problems.append(f"no node can take the worker of {name}")
            raise ClusterError("; ".join(problems))

    def stop(self, worker: Worker) -> None:
        if worker.handle is not None:
            self.ray.kill(worker.handle.actor, no_restart=True)
            worker.handle = None

    def close(self, workers: Sequence[Worker]) -> None:
        calls = [w.handle.actor.close.remote() for w in workers if w.handle is not None]
        self.ray.wait(calls, num_returns=len(calls), timeout=5)  # the envs release their devices
        for worker in workers:
            self.stop(worker)

    def send(self, worker: Worker, command: str, data: Any) -> None:
        worker.handle.refs.append(worker.handle.actor.run.remote(command, data))

    def receive(self, worker: Worker) -> tuple[str, Any]:
        ref = worker.handle.refs.popleft()
        try:
            return self.ray.get(ref)
        except (self.ray.exceptions.RayActorError, self.ray.exceptions.ActorUnavailableError):
            worker.handle.refs.clear()  # what was sent to the dead actor is lost with it
            raise WorkerGone from None

    def ready(self, workers: Sequence[Worker], timeout: float) -> list[Worker]:
        first = {w.handle.refs[0]: w for w in workers if w.handle is not None and w.handle.refs}
        if not first:
            return []
        ready, rest = self.ray.wait(list(first), num_returns=1, timeout=timeout)
        if ready and rest:
            more, _ = self.ray.wait(rest, num_returns=len(rest), timeout=0)
            ready += more
        return [first[ref] for ref in ready]

    def where(self, worker: Worker) -> str:
        return worker.handle.host if worker.handle is not None else ""


def placements_for(devices: Sequence[ClusterDevice | None]) -> list[dict[str, Any]]:
    """Actor options per device: its resource unit, or (None: a virtual phone) a CPU anywhere, spread."""
    return [
        {"resources": {DEVICE_RESOURCE + d.name: 1}, "num_cpus": 0}
        if d is not None
        else {"num_cpus": 1, "scheduling_strategy": "SPREAD"}
        for d in devices
    ]


def make_cluster_vector_env(
    devices: Sequence[ClusterDevice | DeviceSpec],
    task: Any = None,
    wrap: Wrap | None = None,
    *,
    env_kwargs: dict[str, Any] | None = None,
    seed: int = 0,
    guard: dict[str, float] | None = None,
    placement_timeout: float = 60.0,
    **options: Any,
) -> DeviceVectorEnv:
    """A :class:`~androidrl.vector.async_env.DeviceVectorEnv` whose workers are Ray actors next to their devices.

    Args:
        devices: Cluster devices (:func:`pick_devices`), and/or virtual-phone specs (made in an actor anywhere).
        task: The task of every env.
        wrap: Observation and action wrappers, applied in the actor.
        env_kwargs: More AndroidEnv arguments.
        seed: Seeds the virtual phones (``seed + env index``).
        guard: Settings of each env's :class:`~androidrl.vector.guard.DeviceFaultGuard`.
        placement_timeout: Seconds every actor has to be placed.
        **options: More :class:`~androidrl.vector.async_env.DeviceVectorEnv` settings
            (``step_timeout``, ``fault_timeout``, ``max_down_seconds``, ``max_blank_share``...).

    Raises:
        ClusterError: Ray is missing, or a device cannot be had (already driven, or advertised by no node).
    """
    connect(options.pop("address", "auto"))
    specs = [d if isinstance(d, DeviceSpec) else DeviceSpec(d.serial) for d in devices]
    fns = [env_factory(s, i, task, wrap, env_kwargs, None, seed, guard, episodes=True) for i, s in enumerate(specs)]
    names = [d.name if isinstance(d, ClusterDevice) else f"virtual-{i}" for i, d in enumerate(devices)]
    places = placements_for([d if isinstance(d, ClusterDevice) else None for d in devices])
    options.pop("envs_per_worker", None)  # (an actor per device: Ray places each where its device is)
    transport = RayActors(places, names, placement_timeout)
    return DeviceVectorEnv(
        fns, names, transport=transport, max_down_seconds=(guard or {}).get("max_down_seconds", 300.0), **options
    )
