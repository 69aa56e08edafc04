"""Devices on many hosts: each env worker a Ray actor on the host that owns its device.

A host running ``androidrl node`` advertises each of its devices to the Ray cluster as a
custom resource of one unit, ``androidrl/device:<host>/<serial>``. An actor asks for
exactly its device's unit, so Ray places it on that host, where it builds the env and its
wrappers against the host's own adb server and sends back only the wrapped observation
(an 84x84 image is 21 KB; the 1080x2400 frame it came from is 10 MB). A second actor for
the same device finds no free unit and stays pending: that is the "already driven" error.
Virtual phones need no host: their actors take a CPU each, spread over the cluster.

The actors are a transport of :class:`~androidrl.vector.async_env.DeviceVectorEnv`, so
the Ray backend steps, fails and recovers exactly as the local one: a step is never
replayed (``max_task_retries=0``); an actor that dies is restarted by Ray and its env comes
back with a fresh episode; an env whose host is gone reports ``device_down`` until the
host is back, or until ``max_down_seconds`` end the training with an error naming it. Every
fault message names the device and its host (``127.0.0.1:5555 on host lab-2: ...``), and each
death of an actor is logged once, with its device, host, process id and Ray's reason.

Importing androidrl never imports Ray; this module imports it only when used.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import socket
import sys
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np

from androidrl.device.spec import DeviceSpec
from androidrl.errors import AndroidRLError
from androidrl.vector.async_env import DeviceVectorEnv
from androidrl.vector.settings import VectorSettings
from androidrl.vector.transport import Transport, Worker, WorkerGone
from androidrl.vector.workers import Wrap, answer, env_factory

logger = logging.getLogger(__name__)

DEVICE_RESOURCE = "androidrl/device:"
HOST_RESOURCE = "androidrl/host:"
_START_ONE = "start one with `androidrl node --head` (and `androidrl node --address HEAD:PORT` on the other hosts)"


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


def _auth_refused(address: str, detail: str) -> ClusterError:
    return ClusterError(
        f"could not authenticate to the Ray cluster at {address} ({detail}); Ray's token "
        "authentication needs the cluster's token here too: set RAY_AUTH_MODE=token and give the token "
        "(in ~/.ray/auth_token, in a file named by RAY_AUTH_TOKEN_PATH, or in RAY_AUTH_TOKEN; "
        "`ray get-auth-token` on the head prints it)"
    )


def ray_temp_dir() -> Path:
    """Ray's default temporary directory on this host, where ``ray start`` records the cluster it joined.

    As Ray's ``get_default_ray_temp_dir`` (``ray/_common/utils.py``): ``$RAY_TMPDIR``, else
    ``$TMPDIR`` on Linux, else ``/tmp``; then ``ray``.
    """
    base = os.environ.get("RAY_TMPDIR") or (os.environ.get("TMPDIR") if sys.platform.startswith("linux") else None)
    return Path(base or "/tmp") / "ray"


def address_file() -> Path:
    """The file in which Ray (and ``androidrl node``) record the cluster this host belongs to, for ``auto``."""
    return ray_temp_dir() / "ray_current_cluster"


def auth_token_path() -> Path | None:
    """The file Ray reads the cluster's token from (``RAY_AUTH_TOKEN_PATH``, else ``~/.ray/auth_token``).

    None when the token is given in ``RAY_AUTH_TOKEN`` itself.
    """
    if os.environ.get("RAY_AUTH_TOKEN"):
        return None
    named = os.environ.get("RAY_AUTH_TOKEN_PATH")
    return Path(named) if named else Path.home() / ".ray" / "auth_token"


def token_available() -> bool:
    """Whether this process has a Ray token to give (in ``RAY_AUTH_TOKEN`` or a non-empty token file)."""
    path = auth_token_path()
    try:
        return path is None or bool(path.read_text().strip())
    except OSError:
        return False


def resolve_address(address: str) -> tuple[str, str]:
    """The cluster's ``HOST:PORT`` and where it came from (for messages; "" when given as such).

    ``auto`` is ``$RAY_ADDRESS``, else the cluster recorded in :func:`address_file` by the
    ``androidrl node`` (or ``ray start``) running on this host; never a cluster found by
    looking at the processes of the machine (another user's, perhaps).

    Raises:
        ClusterError: ``auto``, and this host is in no cluster.
    """
    if address != "auto":
        return address, ""
    named = os.environ.get("RAY_ADDRESS", "")
    if named and named != "auto":
        return named, "from RAY_ADDRESS"
    path = address_file()
    try:
        recorded = path.read_text().strip()
    except OSError:
        recorded = ""
    if not recorded:
        raise ClusterError(
            f"address auto: this host is in no Ray cluster (RAY_ADDRESS is not set and {path} does not exist; "
            "`androidrl node` writes it while it runs); give the head's address as HOST:PORT, or "
            f"{_START_ONE}"
        )
    return recorded, f"recorded in {path} by the last node started on this host"


def _enable_token_auth() -> None:
    """Turn Ray's token authentication on for this process when it has a token and nothing says otherwise.

    Ray turns it on by itself only for a cluster it starts; a driver joining one would send no
    token. Ray reads ``RAY_AUTH_MODE`` when it is imported, so this runs before.
    """
    if "RAY_AUTH_MODE" not in os.environ and "ray" not in sys.modules and token_available():
        os.environ["RAY_AUTH_MODE"] = "token"


def connect(address: str = "auto") -> Any:
    """Join the Ray cluster at ``address`` as a driver (once per process); return ``ray``.

    ``address`` is ``HOST:PORT`` or ``auto`` (see :func:`resolve_address`). Token authentication
    is on when this process has a token (see :func:`auth_token_path`), unless ``RAY_AUTH_MODE``
    says otherwise.

    Raises:
        ClusterError: No cluster answers there (at once: Ray itself would retry for minutes), this
            host is in none (``auto``), or it refuses this process's authentication token.
    """
    _enable_token_auth()
    ray = require_ray()
    if not ray.is_initialized():
        target, source = resolve_address(address)
        host, sep, port = target.rpartition(":")
        if sep and port.isdigit():  # Ray itself would retry a dead address for minutes: ask once
            try:
                socket.create_connection((host, int(port)), timeout=5).close()
            except OSError as err:
                stale = f" (the address {source}: that cluster has stopped)" if source else ""
                raise ClusterError(f"no Ray cluster at {target} ({err.strerror or err}){stale}; {_START_ONE}") from None
        try:
            ray.init(address=target, logging_level="WARNING", log_to_driver=False)
        except ray.exceptions.AuthenticationError as err:  # no token here, or an unreadable one
            raise _auth_refused(target, err.message.split(". ")[0]) from None
        except (ConnectionError, RuntimeError, ValueError) as err:
            causes = f"{err} {err.__cause__}"  # (Ray says why only in the error under its ConnectionError)
            if "Unauthenticated" in causes or "InvalidAuthToken" in causes:  # a token the cluster does not take
                raise _auth_refused(target, "it refused this process's token, or the lack of one") from None
            raise ClusterError(f"no Ray cluster at {target!r} ({err}); {_START_ONE}") from None
    return ray


@dataclass(frozen=True)
class ClusterDevice:
    """A device a node advertises: its name (``<host>/<serial>``), host and whether a worker drives it."""

    name: str
    host: str
    node_id: str
    in_use: bool

    @property
    def serial(self) -> str:
        """The adb serial on its host."""
        return self.name.split("/", 1)[1] if "/" in self.name else self.name


def _host_of(node: dict[str, Any]) -> str:
    """A node's host name: the one ``androidrl node`` advertises, else Ray's idea of it."""
    advertised = [k[len(HOST_RESOURCE) :] for k in node.get("Resources", {}) if k.startswith(HOST_RESOURCE)]
    return advertised[0] if advertised else node.get("NodeManagerHostname") or node.get("NodeManagerAddress", "")


def node_hosts(ray: Any) -> dict[str, str]:
    """The host name of every live node of the cluster, by Ray node id."""
    return {node["NodeID"]: _host_of(node) for node in ray.nodes() if node.get("Alive")}


def cluster_devices(ray: Any) -> list[ClusterDevice]:
    """Every device the live nodes of the cluster advertise, by name."""
    found = []
    for node in ray.nodes():
        if not node.get("Alive"):
            continue
        for key in node.get("Resources", {}):
            if key.startswith(DEVICE_RESOURCE):
                found.append(ClusterDevice(key[len(DEVICE_RESOURCE) :], _host_of(node), node["NodeID"], False))
    available = ray.available_resources()
    return sorted(
        (ClusterDevice(d.name, d.host, d.node_id, available.get(DEVICE_RESOURCE + d.name, 0) < 1) for d in found),
        key=lambda d: d.name,
    )


def _listing(devices: Sequence[ClusterDevice]) -> str:
    return ", ".join(f"{d.name} ({d.host}{', in use' if d.in_use else ''})" for d in devices) or "none"


def pick_devices(ray: Any, wanted: str | int | Sequence[str]) -> list[ClusterDevice]:
    """The cluster devices a config asks for: ``"all"``, a count (the first N free), or names.

    Raises:
        ClusterError: Names no node advertises, or fewer devices than asked for (listing what there is).
    """
    devices = cluster_devices(ray)
    listing = _listing(devices)
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


def resolve_devices(ray: Any, devices: Sequence[ClusterDevice | DeviceSpec | str]) -> list[ClusterDevice | DeviceSpec]:
    """Each device as a cluster device (found by name or by serial) or a virtual-phone spec.

    Strings are ``"virtual[:WxH[@DPI]]"`` specs, names ``<host>/<serial>`` as ``androidrl devices
    --cluster`` lists them, or serials that one node advertises.

    Raises:
        ClusterError: A device no node advertises (a serial only this host's adb server knows cannot
            be reached by the actors), a serial on several hosts, or a device listed twice.
        ValueError: A malformed virtual spec.
    """
    if isinstance(devices, (str, DeviceSpec, ClusterDevice)) or not devices:
        raise ValueError(f"devices must be a non-empty list of cluster devices or virtual specs, got {devices!r}")
    advertised = cluster_devices(ray)
    by_name = {d.name: d for d in advertised}
    resolved: list[ClusterDevice | DeviceSpec] = []
    for device in devices:
        if isinstance(device, str) and device not in by_name and "/" in device:
            raise ClusterError(f"no node advertises {device!r}; the cluster has: {_listing(advertised)}")
        if isinstance(device, str):
            device = by_name.get(device) or DeviceSpec.parse(device)
        if isinstance(device, DeviceSpec) and not device.virtual:
            hosts = [d for d in advertised if d.serial == device.serial]
            if not hosts:
                raise ClusterError(
                    f"device {device.serial}: no node of the Ray cluster advertises it, and the ray backend's "
                    "workers reach a device only through the adb server of the host that runs `androidrl node` "
                    f"(a device only this host's adb server lists needs `androidrl node` here too); "
                    f"the cluster has: {_listing(advertised)}"
                )
            if len(hosts) > 1:
                raise ClusterError(
                    f"device {device.serial} is on several hosts ({', '.join(d.name for d in hosts)}): "
                    "name one as <host>/<serial>"
                )
            device = hosts[0]
        resolved.append(device)
    names = [d.name for d in resolved if isinstance(d, ClusterDevice)]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise ClusterError(
            f"device {twice[0]} is listed twice: two workers would drive the same phone and corrupt each "
            "other's episodes; list each device once (use 'virtual' for more virtual phones)"
        )
    return resolved


def _writable(value: Any) -> Any:
    """``value`` with each read-only array in it copied (what Ray returns is read-only, zero-copy)."""
    if isinstance(value, np.ndarray):
        return value if value.flags.writeable else value.copy()
    if isinstance(value, dict):
        return {k: _writable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)) and not hasattr(value, "_fields"):
        return type(value)(_writable(v) for v in value)
    return value


class _EnvActor:
    """The Ray actor of one worker: builds its envs on its host and answers commands (see ``workers.answer``)."""

    def __init__(self, env_fns: list[Callable[[], gym.Env]], slots: list[int]) -> None:
        self.envs = [fn() for fn in env_fns]
        self.slots = slots

    def where(self) -> tuple[str, int]:
        """(Ray node id, process id) of the actor."""
        import ray

        return ray.get_runtime_context().get_node_id(), os.getpid()

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
    pid: int = 0
    located: Any = None  # a `where` call after a restart: where the actor came back
    dead: bool = False  # its death was reported and it has not answered since


@dataclass(frozen=True)
class Location:
    """Where a worker's actor runs, as last seen: its host, Ray node id and process id."""

    host: str
    node_id: str
    pid: int


class RayActors(Transport):
    """Workers as Ray actors, each placed where its device is.

    Args:
        placements: Per worker, the actor's Ray options (``resources`` naming its device, or
            ``num_cpus`` and a spread strategy for virtual phones).
        names: Per worker, the device names, for messages.
        placement_timeout: Seconds every actor has to be placed before the vector env gives up.
        hosts: Per worker, the host of its device ("" for a virtual phone: wherever Ray places it).
    """

    restarts_itself = True

    def __init__(
        self,
        placements: Sequence[dict[str, Any]],
        names: Sequence[str],
        placement_timeout: float,
        hosts: Sequence[str] | None = None,
    ) -> None:
        self.ray = require_ray()
        self.placements = list(placements)
        self.names = list(names)
        self.hosts = list(hosts) if hosts is not None else [""] * len(self.names)
        self.placement_timeout = placement_timeout
        self._actor_class = self.ray.remote(_EnvActor)
        self._handles: dict[int, _Handle] = {}

    def start(self, worker: Worker) -> None:
        options = {"max_restarts": -1, "max_task_retries": 0, **self.placements[worker.index]}
        actor = self._actor_class.options(**options).remote(worker.env_fns, worker.slots)
        worker.handle = self._handles[worker.index] = _Handle(actor, host=self.hosts[worker.index])

    def started(self, workers: Sequence[Worker]) -> None:
        """Wait until every actor is placed; one that stays pending is an error naming its device.

        Raises:
            ClusterError: A device has no free unit (another worker drives it) or no node at all.
        """
        refs = {w.handle.actor.where.remote(): w for w in workers}
        ready, pending = self.ray.wait(list(refs), num_returns=len(refs), timeout=self.placement_timeout)
        hosts = node_hosts(self.ray) if ready else {}
        for ref in ready:
            worker = refs[ref]
            try:
                self._locate(worker.index, self.ray.get(ref), hosts)
            except Exception as err:  # noqa: BLE001 (the actor failed to build its env: say so)
                raise ClusterError(f"the worker of {self._label(worker.index)} failed to start: {err}") from None
        if pending:
            advertised = {d.name for d in cluster_devices(self.ray)}
            problems = []
            for ref in pending:
                index = refs[ref].index
                units = [r[len(DEVICE_RESOURCE) :] for r in self.placements[index].get("resources", {})]
                if units and units[0] in advertised:
                    problems.append(f"device {self._label(index)} is already driven by another worker (its actor "
                                    f"waited {self.placement_timeout:g} s for it)")  # fmt: skip
                elif units:
                    problems.append(f"device {self._label(index)}: no live node advertises {units[0]} any more")
                else:
                    problems.append(f"no node has a free CPU for the worker of {self._label(index)}")
            raise ClusterError("; ".join(problems))

    def _locate(self, index: int, where: tuple[str, int], hosts: dict[str, str]) -> None:
        """Record where worker ``index``'s actor answered from (a virtual phone's host is wherever Ray put it)."""
        handle = self._handles[index]
        handle.node_id, handle.pid = where
        handle.host = self.hosts[index] or hosts.get(handle.node_id, handle.host)

    def _label(self, index: int) -> str:
        host = self.hosts[index]
        return f"{self.names[index]} on host {host}" if host else self.names[index]

    def stop(self, worker: Worker) -> None:
        if worker.handle is not None:
            self.ray.kill(worker.handle.actor, no_restart=True)
            worker.handle = None
            self._handles.pop(worker.index, None)

    def close(self, workers: Sequence[Worker]) -> None:
        calls = [w.handle.actor.close.remote() for w in workers if w.handle is not None]
        self.ray.wait(calls, num_returns=len(calls), timeout=5)  # the envs release their devices
        for worker in workers:
            self.stop(worker)

    def send(self, worker: Worker, command: str, data: Any) -> None:
        worker.handle.refs.append(worker.handle.actor.run.remote(command, data))

    def receive(self, worker: Worker) -> tuple[str, Any]:
        handle = worker.handle
        ref = handle.refs.popleft()
        try:
            answer = _writable(self.ray.get(ref))  # (Ray's arrays are read-only: SB3 and users write to theirs)
        except (self.ray.exceptions.RayActorError, self.ray.exceptions.ActorUnavailableError) as err:
            handle.refs.clear()  # what was sent to the dead actor is lost with it
            if not handle.dead:  # (once per death: calls to it while Ray restarts it fail too)
                handle.dead = True
                logger.warning(
                    "worker %d (%s on host %s, pid %d): its Ray actor died: %s; Ray restarts it",
                    worker.index, self.names[worker.index], handle.host or "?", handle.pid, _death_cause(err),
                )  # fmt: skip
            handle.located = handle.actor.where.remote()  # answered once Ray has restarted it
            raise WorkerGone from None
        handle.dead = False
        return answer

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
        """The host of the worker's actor (the one it was last seen on, while Ray restarts it)."""
        return self.location(worker.index).host

    def location(self, index: int) -> Location:
        """Where worker ``index``'s actor runs, as last seen (updated once a restarted actor answers)."""
        handle = self._handles.get(index)
        if handle is None:
            return Location(self.hosts[index], "", 0)
        if handle.located is not None and self.ray.wait([handle.located], timeout=0)[0]:
            located, handle.located = handle.located, None
            with contextlib.suppress(self.ray.exceptions.RayError):  # it died again: its next failure asks anew
                self._locate(index, self.ray.get(located), node_hosts(self.ray))
                handle.dead = False
        return Location(handle.host, handle.node_id, handle.pid)


def _death_cause(err: Exception) -> str:
    """Why Ray says an actor died, in one line (its message lists the actor's ids first)."""
    text = re.sub(r"The actor [0-9a-f]+ is unavailable: ", "", str(err))
    text = text.replace(" The task may or may not have been executed on the actor.", "")
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    because = [line for line in lines if "because" in line or "unavailable" in line]
    cause = (because or lines or [type(err).__name__])[0].rstrip(".")
    return cause if len(cause) <= 300 else cause[:297] + "..."


def placements_for(devices: Sequence[ClusterDevice | None]) -> list[dict[str, Any]]:
    """Actor options per device: its resource unit, or (None: a virtual phone) a CPU anywhere, spread."""
    return [
        {"resources": {DEVICE_RESOURCE + d.name: 1}, "num_cpus": 0}
        if d is not None
        else {"num_cpus": 1, "scheduling_strategy": "SPREAD"}
        for d in devices
    ]


def check_ray_settings(settings: VectorSettings) -> None:
    """The settings the ray backend can honour: one actor per device (Ray places each where its device is).

    Raises:
        ValueError: ``envs_per_worker`` is not 1.
    """
    if settings.envs_per_worker != 1:
        raise ValueError(
            f"envs_per_worker: the ray backend runs one actor per device, on the host that owns it; "
            f"got {settings.envs_per_worker} (set it to 1, or use the async backend)"
        )


def make_cluster_vector_env(
    devices: Sequence[ClusterDevice | DeviceSpec | str],
    task: Any = None,
    wrap: Wrap | None = None,
    *,
    settings: VectorSettings | None = None,
    env_kwargs: dict[str, Any] | None = None,
    seed: int = 0,
    address: str = "auto",
) -> DeviceVectorEnv:
    """A :class:`~androidrl.vector.async_env.DeviceVectorEnv` whose workers are Ray actors next to their devices.

    Args:
        devices: Cluster devices (:func:`pick_devices`, or their names ``<host>/<serial>``, or serials
            one node advertises), and/or virtual phones (``"virtual[:WxH[@DPI]]"`` or
            :class:`~androidrl.device.spec.DeviceSpec`), each made in an actor anywhere in the cluster.
        task: The task of every env.
        wrap: Observation and action wrappers, applied in the actor.
        settings: Fault handling and ``placement_timeout`` (seconds every actor has to be placed), as
            :class:`~androidrl.vector.settings.VectorSettings`; ``envs_per_worker`` must be 1.
        env_kwargs: More AndroidEnv arguments.
        seed: Seeds the virtual phones (``seed + env index``).
        address: The Ray cluster: ``"auto"`` (the one this host belongs to) or ``HOST:PORT``.

    Raises:
        ValueError: ``envs_per_worker`` is not 1.
        ClusterError: Ray is missing, or a device cannot be had (already driven, or advertised by no node).
    """
    settings = settings or VectorSettings()
    check_ray_settings(settings)
    ray = connect(address)
    devices = resolve_devices(ray, devices)
    specs = [d if isinstance(d, DeviceSpec) else DeviceSpec(d.serial) for d in devices]
    fns = [env_factory(s, i, task, wrap, env_kwargs, None, seed, settings) for i, s in enumerate(specs)]
    names = [s.worker_serial(i) for i, s in enumerate(specs)]  # (the host is named beside it in messages)
    hosts = [d.host if isinstance(d, ClusterDevice) else "" for d in devices]
    places = placements_for([d if isinstance(d, ClusterDevice) else None for d in devices])
    transport = RayActors(places, names, settings.placement_timeout, hosts)
    return DeviceVectorEnv(fns, names, settings, transport=transport)
