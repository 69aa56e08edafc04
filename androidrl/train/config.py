"""Training configuration: YAML in, a validated, typed config out; errors name the key path.

A config file (see ``configs/quickstart.yaml``)::

    experiment: quickstart
    seed: 0
    devices: {virtual: {count: 2, width: 360, height: 800, density: 160, content: {contacts: 20}}}
    task: tap-target
    observation: {shape: [84, 40]}
    action: {type: grid, rows: 7, cols: 3, swipes: false, back: false, home: false}
    algo:
      name: PPO
      policy: CnnPolicy
      policy_kwargs: {net_arch: [64]}
      hyperparams: {learning_rate: lin_3e-4, n_steps: 128, batch_size: 64}
    training: {total_timesteps: 30000, eval_freq: 5000, checkpoint_freq: 5000}

Numbers written like ``3e-4`` (which YAML reads as a string) become numbers; a learning
rate or clip range written ``lin_3e-4`` is a linear schedule from 3e-4 to 0. Unknown keys
anywhere are errors (``algo.policy_kwargs.net_arc: unknown key``), and so are hyper-
parameters the chosen algorithm does not take, a PPO batch size that does not divide
``n_steps * n_envs``, a phone listed twice (under any of its names), or an action space the
algorithm cannot use. Every number is finite and within its range (a timeout of a day is
already "never"), a boolean is never read as a number nor a number as a boolean.
``--set key.path=value`` overrides any key from the command line.

``task:`` is a task's name or file, a list of them (a suite, weights optional), or a suite of
task families (``{suite: all, tier: easy, split: train, eval_split: test, categories: [settings]}``).

``observation:`` takes the keyword arguments of
:class:`~androidrl.wrappers.ScreenshotObservation` (plus ``frame_stack``, ``instruction`` and
``elements``); ``action:`` takes
``type`` (``grid``, ``multidiscrete``, ``box``, ``ui_elements``, ``elements``) and the keyword arguments
of that wrapper's constructor — read from the constructors' signatures, so the config and
the wrappers cannot disagree.
"""

from __future__ import annotations

import copy
import inspect
import math
import re
import sys
import typing
from pathlib import Path
from typing import Annotated, Any, Literal

import yaml
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    ValidationError,
    create_model,
    field_validator,
    model_serializer,
    model_validator,
)

from androidrl.device.spec import DeviceSpec, parse_devices
from androidrl.env import AndroidEnv
from androidrl.errors import ConfigError, TaskError
from androidrl.plugins import PluginError, check_plugin, import_class, module_files, parse_plugin
from androidrl.screen import check_screen
from androidrl.tasks.registry import make_task
from androidrl.validation import (
    HOST,
    NestedErrors,
    StrictScalars,
    check_depth,
    check_expansion,
    error_items,
    format_errors,
    join_path,
    parse_yaml,
    read_yaml,
    shorten,
)
from androidrl.vector.cluster import check_ray_settings
from androidrl.vector.settings import VectorSettings
from androidrl.virtual.system.content.seed import check_content
from androidrl.virtual.ui.config import LOCALE, MAX_FONT_SCALE, MIN_FONT_SCALE
from androidrl.wrappers import ACTION_WRAPPERS, ElementObservation, InstructionObservation, ScreenshotObservation

_NUMBER = re.compile(r"^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$")
_SCHEDULE = re.compile(r"^lin_(" + _NUMBER.pattern.strip("^$") + r")$")
_SCHEDULABLE = ("learning_rate", "clip_range", "clip_range_vf")
#: SAC's learned entropy coefficient: auto, or auto_<initial value>.
_AUTO = re.compile(r"^auto(_" + _NUMBER.pattern.strip("^$") + r")?$")
#: The smallest image side SB3's NatureCNN takes (kernels 8/4, 4/2, 3/1).
NATURE_CNN_MIN = 36
#: Algorithms that need a Discrete action space, a Box one, and those with a replay buffer.
DISCRETE_ONLY = ("DQN", "QRDQN")
CONTINUOUS_ONLY = ("SAC", "TD3")
OFF_POLICY = ("DQN", "QRDQN", "SAC", "TD3")
#: Arguments of an SB3 algorithm that a config sets elsewhere than ``algo.hyperparams``.
_ELSEWHERE = {
    "verbose": "algo.verbose",
    "seed": "seed, at the top of the config",
    "device": "algo.device",
    "policy_kwargs": "algo.policy_kwargs",
    "tensorboard_log": "nothing: runs log to their run directory's tb/",
}
#: Hyperparameters with a range: (low, high, low inclusive) — SB3 would accept nonsense silently.
_RANGES = {
    "learning_rate": (0.0, 1.0, False),
    "gamma": (0.0, 1.0, False),
    "gae_lambda": (0.0, 1.0, True),
    "clip_range": (0.0, 10.0, False),
    "clip_range_vf": (0.0, 10.0, False),
    "target_kl": (0.0, 10.0, False),
    "ent_coef": (0.0, 10.0, True),
    "vf_coef": (0.0, 10.0, True),
    "max_grad_norm": (0.0, 1e6, False),
    "tau": (0.0, 1.0, False),
    "exploration_fraction": (0.0, 1.0, True),
    "exploration_initial_eps": (0.0, 1.0, True),
    "exploration_final_eps": (0.0, 1.0, True),
    "target_policy_noise": (0.0, 10.0, True),
    "target_noise_clip": (0.0, 10.0, True),
    "rms_prop_eps": (0.0, 1.0, False),
}
#: Integer hyperparameters: (lowest, highest, other values SB3 gives a meaning: -1 is "as many as steps").
_INTS = {
    "n_steps": (1, 10**7, ()),
    "batch_size": (1, 10**7, ()),
    "n_epochs": (1, 10_000, ()),
    "buffer_size": (1, 10**9, ()),
    "learning_starts": (0, 10**10, ()),
    "target_update_interval": (1, 10**9, ()),
    "policy_delay": (1, 1000, ()),
    "stats_window_size": (1, 10**6, ()),
    "gradient_steps": (1, 10_000, (-1,)),
    "sde_sample_freq": (1, 10**6, (-1,)),
}
_BOOLS = ("normalize_advantage", "use_sde", "use_sde_at_warmup", "optimize_memory_usage", "use_rms_prop")
#: Arguments that take Python objects (a class, an action noise), which a YAML config cannot hold.
_OBJECTS = ("action_noise", "rollout_buffer_class", "replay_buffer_class", "_init_setup_model")
#: The longest run name: it names a directory, with a timestamp and a seed after it.
MAX_EXPERIMENT = 100
#: The most devices a config lists (a cluster's count is bounded the same).
MAX_DEVICES = 4096
#: The largest suite weight (weights are relative: a million to one is already "never").
MAX_WEIGHT = 1e6


class _Model(StrictScalars):
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)


class Plugin(_Model):
    """A class of your own by import path, with keyword arguments (see :mod:`androidrl.plugins`)."""

    path: str
    kwargs: dict[str, Any] = Field(default_factory=dict)

    @model_validator(mode="before")
    @classmethod
    def _zoo_form(cls, data: Any) -> Any:
        if isinstance(data, dict) and set(data) <= {"path", "kwargs"} and "path" in data:
            return data
        try:
            path, kwargs = parse_plugin(data)
        except PluginError as err:
            raise ValueError(str(err)) from None
        return {"path": path, "kwargs": kwargs}

    @model_serializer
    def _dump(self) -> Any:
        return {self.path: dict(self.kwargs)} if self.kwargs else self.path


class VirtualDevices(_Model):
    """Virtual phones, one per worker process, and their configuration (train on one, evaluate on another).

    ``content`` is what each phone starts with, drawn from its seed: ``{contacts: 20, events: 10,
    messages: 15, calls: 10, files: 8, photos: 6, alarms: 3}`` (any of them). ``night`` (the dark
    theme), ``font_scale`` (0.5-3.0) and ``locale`` (``de-DE``) are its configuration.
    """

    count: int = Field(default=2, ge=1, le=64)
    width: int = 360
    height: int = 800
    density: int = 160
    night: bool = False  # the dark theme
    font_scale: float = Field(default=1.0, ge=MIN_FONT_SCALE, le=MAX_FONT_SCALE)
    locale: str = Field(default="en-US", max_length=10, pattern=f"^{LOCALE.pattern}$")
    content: dict[str, int] | None = None

    @model_validator(mode="after")
    def _screen(self) -> VirtualDevices:
        check_screen(self.width, self.height, self.density)  # (a ValueError: pydantic names the key path)
        return self

    @field_validator("content")
    @classmethod
    def _content(cls, content: dict[str, int] | None) -> dict[str, int] | None:
        return None if content is None else check_content(content)


class AdbServer(_Model):
    """Where the adb server runs."""

    host: str = "127.0.0.1"
    port: int | None = Field(default=None, ge=1, le=65535)

    @field_validator("host")
    @classmethod
    def _host(cls, value: str) -> str:
        if not re.fullmatch(HOST, value):
            raise ValueError(f"expected a host name or an IP address (no scheme, port or spaces), got {shorten(value)}")
        return value


class Devices(_Model):
    """Adb serials, a number of virtual phones, or devices of a Ray cluster; :meth:`specs` gives the first two typed.

    ``cluster`` (with ``vector.backend: ray``) takes devices that ``androidrl node`` advertises:
    ``all`` the free ones, a count, or names (``<node>/<serial>``, as ``androidrl devices --cluster``
    lists them); they are looked up when the envs are made.
    """

    serials: list[str] | None = Field(default=None, max_length=MAX_DEVICES)
    virtual: VirtualDevices | None = None
    cluster: Literal["all"] | Annotated[int, Field(ge=1, le=MAX_DEVICES)] | list[str] | None = None
    adb: AdbServer = Field(default_factory=AdbServer)
    _specs: list[DeviceSpec] = PrivateAttr(default_factory=list)

    @field_validator("cluster", mode="before")
    @classmethod
    def _cluster(cls, value: Any) -> Any:
        # (one message for a count or a word, rather than one per form the union allows)
        whole = isinstance(value, int) and not isinstance(value, bool)
        if (whole and not 1 <= value <= MAX_DEVICES) or (isinstance(value, str) and value != "all"):
            raise ValueError(
                f"expected all, a number of devices in 1..{MAX_DEVICES} or a list of their names, got {shorten(value)}"
            )
        return value

    @model_validator(mode="after")
    def _one_kind(self) -> Devices:
        if sum(kind is not None for kind in (self.serials, self.virtual, self.cluster)) != 1:
            raise ValueError(
                "give one of serials (adb devices), virtual (a number of virtual phones) or cluster (Ray devices)"
            )
        if self.cluster is not None:
            if isinstance(self.cluster, list) and len(set(self.cluster)) != len(self.cluster):
                raise NestedErrors([("cluster", f"a device is listed twice: {self.cluster}")])
        elif self.serials is not None:
            try:  # the vector env's own rules: well-formed specs, no adb serial twice
                self._specs = parse_devices(self.serials, self.adb.host, self.adb.port)
            except ValueError as err:
                raise NestedErrors([("serials", str(err))]) from None
        else:
            v = self.virtual
            self._specs = [
                DeviceSpec.virtual_phone(v.width, v.height, v.density, v.night, v.font_scale, v.locale, v.content)
            ] * v.count
        return self

    def specs(self) -> list[DeviceSpec]:
        """One :class:`~androidrl.device.spec.DeviceSpec` per worker."""
        return list(self._specs)


class SuiteTask(_Model):
    """A task of a suite with its weight (how often it is drawn, relative to the others)."""

    name: str
    weight: float = Field(default=1.0, ge=0, le=MAX_WEIGHT)


class FamilySuite(_Model):
    """A suite of task families (``androidrl tasks list``): which families, at which tier, on which split.

    Training draws the split ``split``; evaluations take every family in turn on ``eval_split``
    (default: the same split), so a run can train on the train split and be judged on the test one.
    """

    suite: str = "all"
    tier: Literal["easy", "medium", "hard"] = "easy"
    split: Literal["train", "test"] = "train"
    eval_split: Literal["train", "test"] | None = None
    categories: list[str] | None = None
    families: list[str] | None = None
    apps: list[str] | None = None
    reward_mode: Literal["shaped", "binary", "time"] = "shaped"
    device_config: Literal["default", "split"] = "default"


def settings_model(
    cls: type, name: str, exclude: tuple[str, ...] = ("env",), defaults: dict[str, Any] | None = None, **more: Any
) -> type[BaseModel]:
    """A model of ``cls``'s keyword settings: names, types and defaults exactly as its constructor declares them.

    The constructors of the env and the wrappers are the one definition of their settings;
    the config's sections are made from them, so a new option is one edit. ``exclude``
    leaves out what the harness passes itself; ``defaults`` replaces a default for training;
    ``more`` adds fields (``name=(type, default or Field)``) that are not the constructor's.
    """
    hints = typing.get_type_hints(cls.__init__, include_extras=True)
    kinds = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    fields: dict[str, Any] = {
        key: (hints[key], (defaults or {}).get(key, param.default))
        for key, param in inspect.signature(cls.__init__).parameters.items()
        if key != "self" and key not in exclude and param.kind in kinds
    }
    return create_model(name, __base__=_Model, __doc__=f"{cls.__name__} settings.", **fields, **more)


#: The ``env:`` section: :class:`~androidrl.env.AndroidEnv`'s keyword arguments, but for those each
#: worker sets itself (its device, the task, its screen size). Training writes no XML files by default.
EnvSettings = settings_model(
    AndroidEnv, "EnvSettings", exclude=("device", "task", "screen_size", "save_dir"), defaults={"dump_xml": False}
)


#: The ``observation:`` section: :class:`~androidrl.wrappers.ScreenshotObservation`'s settings, plus frame stacking.
#: The ``observation.instruction`` section: :class:`~androidrl.wrappers.InstructionObservation`'s settings.
Instruction = settings_model(InstructionObservation, "Instruction")
#: The ``observation.elements`` section: :class:`~androidrl.wrappers.ElementObservation`'s settings.
Elements = settings_model(ElementObservation, "Elements")
Observation = settings_model(
    ScreenshotObservation,
    "Observation",
    frame_stack=(int, Field(default=1, ge=1, le=16)),
    instruction=(Instruction | None, None),
    elements=(Elements | None, None),
)

_ACTION_SETTINGS = {kind: settings_model(cls, f"{cls.__name__}Settings") for kind, cls in ACTION_WRAPPERS.items()}


class Action(_Model):
    """Which action wrapper (``type``), and its settings: the keyword arguments its constructor takes."""

    model_config = ConfigDict(extra="allow")
    type: Literal[tuple(ACTION_WRAPPERS)] = "grid"  # type: ignore[valid-type]

    @model_validator(mode="before")
    @classmethod
    def _settings(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        kind = data.get("type", "grid")
        if kind not in _ACTION_SETTINGS:
            return data  # the Literal reports it
        settings = {k: v for k, v in data.items() if k != "type"}
        try:
            checked = _ACTION_SETTINGS[kind].model_validate(settings)
        except ValidationError as err:
            raise NestedErrors(error_items(err)) from None
        return {"type": kind, **checked.model_dump()}

    @property
    def discrete(self) -> bool:
        """Whether the action space is Discrete (what DQN needs)."""
        return self.type in ("grid", "ui_elements", "elements")


class Vector(VectorSettings):
    """The ``vector:`` section: the backend, and the layout and fault settings (:class:`VectorSettings`'s own)."""

    backend: Literal["async", "subproc", "dummy", "ray"] = "async"
    address: str = "auto"  # the Ray cluster (ray backend): auto, or HOST:PORT of its head

    @model_validator(mode="after")
    def _ray(self) -> Vector:
        if self.backend == "ray":
            try:
                check_ray_settings(self)
            except ValueError as err:
                key, _, message = str(err).partition(": ")
                raise NestedErrors([(key, message)]) from None
        return self


#: The widest layer and the most layers a policy network may have (a typo, not a network, beyond them).
MAX_WIDTH = 65_536
MAX_LAYERS = 64
#: A network's hidden layers: their widths.
Layers = Annotated[list[Annotated[int, Field(ge=1, le=MAX_WIDTH)]], Field(max_length=MAX_LAYERS)]


class PolicyKwargs(_Model):
    """The policy's keyword arguments SB3 takes (a typo is an error, not a silent default)."""

    net_arch: Layers | dict[Literal["pi", "vf", "qf"], Layers] | None = None
    activation_fn: Literal["relu", "tanh", "elu", "leaky_relu", "gelu"] | None = None
    normalize_images: bool | None = None
    ortho_init: bool | None = None
    share_features_extractor: bool | None = None
    features_extractor: str | None = None  # instruction (androidrl.train.extractors), or an import path
    features_extractor_kwargs: dict[str, Any] | None = None
    optimizer_kwargs: dict[Literal["eps", "weight_decay"], Annotated[float, Field(ge=0, le=1e3)]] | None = None
    lstm_hidden_size: int | None = Field(default=None, ge=1, le=MAX_WIDTH)
    n_lstm_layers: int | None = Field(default=None, ge=1, le=MAX_LAYERS)
    enable_critic_lstm: bool | None = None

    @field_validator("net_arch", mode="before")
    @classmethod
    def _net_arch(cls, value: Any) -> Any:
        """A list of layer widths, or one per head (``{pi: [...], vf: [...]}``), checked here to say which is wrong."""
        if value is None:
            return value
        heads = value if isinstance(value, dict) else {"": value} if isinstance(value, list) else None
        if heads is None:
            raise ValueError(f"expected a list of layer widths, or {{pi: [...], vf: [...]}}, got {shorten(value)}")
        errors = []
        for head, layers in heads.items():
            if head not in ("", "pi", "vf", "qf"):
                errors.append((str(head), "unknown head; the heads are pi, vf (and qf for SAC and TD3)"))
            elif not isinstance(layers, list) or len(layers) > MAX_LAYERS:
                errors.append((head, f"expected a list of at most {MAX_LAYERS} layer widths, got {shorten(layers)}"))
            else:
                errors += [
                    (join_path(head, f"[{i}]"), f"expected a layer width in 1..{MAX_WIDTH:,}, got {shorten(width)}")
                    for i, width in enumerate(layers)
                    if isinstance(width, bool) or not isinstance(width, int) or not 1 <= width <= MAX_WIDTH
                ]
        if errors:
            raise NestedErrors(errors)
        return value

    def resolved(self) -> dict[str, Any]:
        """The kwargs for SB3, with the activation name turned into the torch module."""
        kwargs = self.model_dump(exclude_none=True)
        if "activation_fn" in kwargs:
            import torch.nn as nn

            kwargs["activation_fn"] = {
                "relu": nn.ReLU,
                "tanh": nn.Tanh,
                "elu": nn.ELU,
                "leaky_relu": nn.LeakyReLU,
                "gelu": nn.GELU,
            }[kwargs["activation_fn"]]
        if "features_extractor_kwargs" in kwargs:
            kwargs["features_extractor_kwargs"] = dict(kwargs["features_extractor_kwargs"])
        if "features_extractor" in kwargs:
            kwargs["features_extractor_class"] = extractor_class(kwargs.pop("features_extractor"))
        return kwargs


def extractor_class(name: str) -> type:
    """A features extractor: a built-in by name (``instruction``) or a class by import path."""
    from androidrl.train.extractors import EXTRACTORS

    return EXTRACTORS[name] if name in EXTRACTORS else import_class(name)


class Algo(_Model):
    """The SB3 (or sb3-contrib) algorithm, policy and hyperparameters."""

    name: Literal["PPO", "A2C", "DQN", "SAC", "TD3", "MaskablePPO", "RecurrentPPO", "QRDQN"] = "PPO"
    policy: str = "CnnPolicy"
    policy_kwargs: PolicyKwargs = Field(default_factory=PolicyKwargs)
    hyperparams: dict[str, Any] = Field(default_factory=dict)
    normalize_reward: bool = False
    device: str = Field(default="cpu", pattern=r"^(cpu|cuda(:\d+)?|mps|auto)$")
    verbose: int = Field(default=0, ge=0, le=2)  # SB3's: 1 prints its training tables
    torch_threads: int | None = Field(default=None, ge=1, le=256)  # default: the cores the env workers leave free

    @field_validator("hyperparams", mode="before")
    @classmethod
    def _numbers(cls, value: Any) -> Any:
        if not isinstance(value, dict):
            return value
        return {k: _coerce(v) for k, v in value.items()}


#: The most episodes an evaluation plays (the command line's --episodes is bounded the same).
MAX_EPISODES = 100_000


class Training(_Model):
    """How long to train, and how often to evaluate and checkpoint (in total env steps)."""

    total_timesteps: int = Field(default=50_000, ge=1, le=10**10)
    eval_freq: int = Field(default=5_000, ge=0, le=10**10)
    eval_episodes: int = Field(default=20, ge=1, le=MAX_EPISODES)
    eval_deterministic: bool = True
    checkpoint_freq: int = Field(default=10_000, ge=0, le=10**10)
    keep_checkpoints: int = Field(default=3, ge=1, le=1000)
    progress_bar: bool = True
    callbacks: list[Plugin] = Field(default_factory=list)  # SB3 callbacks of your own, by import path


#: The largest seed (NumPy's and torch's take 32 bits).
MAX_SEED = 2**32 - 1


class Config(_Model):
    """The whole training configuration."""

    experiment: str = Field(default="experiment", pattern=r"^[A-Za-z0-9_.-]+$", max_length=MAX_EXPERIMENT)
    seed: int = Field(default=0, ge=0, le=MAX_SEED)
    run_dir: str = Field(default="runs", min_length=1, max_length=4096, pattern=r"^[^\x00]+$")
    devices: Devices = Field(default_factory=lambda: Devices(virtual=VirtualDevices()))
    eval_devices: Devices | None = None
    # One task, a suite (a list, weights optional), or a suite of task families.
    task: str | list[str | SuiteTask] | FamilySuite = "tap-target"
    env: EnvSettings = Field(default_factory=EnvSettings)
    observation: Observation = Field(default_factory=Observation)
    action: Action = Field(default_factory=Action)
    vector: Vector = Field(default_factory=Vector)
    algo: Algo = Field(default_factory=Algo)
    training: Training = Field(default_factory=Training)
    wrappers: list[Plugin] = Field(default_factory=list)  # gymnasium wrappers of your own, after androidrl's

    @field_validator("task", mode="before")
    @classmethod
    def _task(cls, value: Any) -> Any:
        """Each form of ``task`` validated as itself (a union's errors would list what every form expects)."""
        if isinstance(value, dict):
            try:
                return FamilySuite.model_validate(value)
            except ValidationError as err:
                raise NestedErrors(error_items(err)) from None
        if isinstance(value, list):
            items, errors = [], []
            for i, item in enumerate(value):
                if isinstance(item, str):
                    items.append(item)
                elif isinstance(item, dict):
                    try:
                        items.append(SuiteTask.model_validate(item))
                    except ValidationError as err:
                        errors += [(join_path(f"[{i}]", path), message) for path, message in error_items(err)]
                else:
                    wanted = "expected a task's name or {name: ..., weight: ...}"
                    errors.append((f"[{i}]", f"{wanted}, got {shorten(item)}"))
            if errors:
                raise NestedErrors(errors)
            if not items:
                raise ValueError("a suite needs at least one task")
            return items
        if not isinstance(value, str) or not value.strip():
            raise ValueError(
                "expected a task's name or file, a list of them (a suite), or a mapping (a suite of families), "
                f"got {shorten(value)}"
            )
        return value

    @model_validator(mode="after")
    def _consistent(self) -> Config:
        algo, action = self.algo, self.action
        errors = []
        if algo.name in DISCRETE_ONLY and not action.discrete:
            errors.append(
                (
                    "algo.name",
                    f"{algo.name} needs a Discrete action space; action.type {action.type!r} is not "
                    "(use grid, elements or ui_elements)",
                )
            )
        if algo.name in CONTINUOUS_ONLY and action.type != "box":
            errors.append(("algo.name", f"{algo.name} needs a continuous (Box) action space; set action.type to box"))
        if algo.name == "MaskablePPO" and action.type not in ("ui_elements", "elements"):
            errors.append(("algo.name", "MaskablePPO needs action masks; set action.type to elements or ui_elements"))
        if algo.name == "RecurrentPPO" and "Lstm" not in algo.policy:
            errors.append(("algo.policy", f"RecurrentPPO takes CnnLstmPolicy or MlpLstmPolicy, got {algo.policy!r}"))
        if self.observation.clickable_mask and algo.policy != "MultiInputPolicy":
            errors.append(("algo.policy", "a clickable_mask observation is a Dict: use MultiInputPolicy"))
        if self.observation.elements is not None and algo.policy != "MultiInputPolicy":
            errors.append(("algo.policy", "an observation with the elements is a Dict: use MultiInputPolicy"))
        elements = self.observation.elements
        slots = getattr(action, "max_elements", None)
        if elements is not None and action.type == "elements" and elements.max_elements != slots:
            errors.append(
                (
                    "action.max_elements",
                    f"the element action has {slots} slots but observation.elements has {elements.max_elements}: "
                    "slot k of one is slot k of the other, so they must be equal",
                )
            )
        if self.observation.instruction is not None and algo.policy != "MultiInputPolicy":
            errors.append(("algo.policy", "an observation with the instruction is a Dict: use MultiInputPolicy"))
        if algo.policy_kwargs.features_extractor == "instruction" and self.observation.instruction is None:
            errors.append(
                (
                    "algo.policy_kwargs.features_extractor",
                    "the instruction extractor needs the instruction in the observation (observation.instruction)",
                )
            )
        if self.devices.virtual is None and self.eval_devices is None and self.training.eval_freq:
            errors.append(
                (
                    "training.eval_freq",
                    "evaluating needs phones the training does not use: list them in eval_devices, "
                    "or set training.eval_freq: 0",
                )
            )
        if self.devices.serials is not None and self.eval_devices is not None and self.eval_devices.serials:
            training = {spec.phone() for spec in self.devices.specs() if not spec.virtual}
            evaluating = [spec for spec in self.eval_devices.specs() if not spec.virtual]
            shared = [spec.serial for spec in evaluating if spec.phone() in training]
            if shared:
                errors.append(
                    (
                        "eval_devices.serials",
                        f"{', '.join(shared)} also train (devices.serials): evaluations would drive a phone "
                        "a worker is stepping; evaluate on other phones",
                    )
                )
        ray = self.vector.backend == "ray"
        if self.devices.cluster is not None and not ray:
            errors.append(("devices.cluster", "devices of a Ray cluster need vector.backend: ray"))
        if ray and self.devices.serials is not None:
            errors.append(
                (
                    "devices.serials",
                    "with the ray backend, workers run on the hosts that own the devices, which this machine's "
                    "adb serials are not known to: run `androidrl node` on each host and take its devices with "
                    "devices: {cluster: all} (or a count, or their names)",
                )
            )
        if errors:
            raise NestedErrors(errors)
        return self

    def task_spec(self, evaluation: bool = False) -> str | list | dict:
        """What ``make_task`` takes for the config's task: a name, or a suite (in turn for evaluations)."""
        data = self.model_dump(mode="json")["task"]
        if isinstance(data, list) and evaluation:  # evaluations cover every task of the suite evenly
            return {"suite": data, "cycle": True}
        if isinstance(data, dict):  # a family suite: evaluations take each family in turn, on eval_split
            eval_split = data.pop("eval_split") or data["split"]
            return {**data, "split": eval_split, "cycle": True} if evaluation else data
        return data

    @property
    def n_envs(self) -> int | None:
        """Number of training workers (None: all the free devices of the cluster, known once there)."""
        cluster = self.devices.cluster
        if cluster is not None:
            return None if cluster == "all" else cluster if isinstance(cluster, int) else len(cluster)
        return len(self.devices.specs())


def _coerce(value: Any) -> Any:
    """YAML reads ``3e-4`` as a string: make numeric strings numbers, keep schedules."""
    if isinstance(value, str) and _NUMBER.match(value.strip()):
        number = float(value)
        return int(number) if number.is_integer() and "." not in value and "e" not in value.lower() else number
    return value


# ---------------------------------------------------------------------------- checks needing SB3


def algo_class(name: str) -> type:
    """The algorithm class for ``name`` (SB3 or sb3-contrib)."""
    if name in ("MaskablePPO", "RecurrentPPO", "QRDQN"):
        import sb3_contrib

        return getattr(sb3_contrib, name)
    import stable_baselines3

    return getattr(stable_baselines3, name)


def hyperparams(config: Config) -> dict[str, Any]:
    """The algorithm's keyword arguments, with ``lin_X`` schedules resolved.

    Raises:
        ConfigError: A hyperparameter the algorithm does not take, a bad value, or a PPO
            batch size that does not divide ``n_steps * n_envs``.
    """
    cls = algo_class(config.algo.name)
    accepted = set(inspect.signature(cls.__init__).parameters) - {
        "self",
        "policy",
        "env",
        "policy_kwargs",
        "tensorboard_log",
        "seed",
        "device",
        "verbose",
    }
    params = {}
    for key, value in config.algo.hyperparams.items():
        path = f"algo.hyperparams.{key}"
        if key in _ELSEWHERE:
            raise ConfigError(f"{path}: {key} is not a hyperparameter here: set {_ELSEWHERE[key]}")
        if key not in accepted:
            close = [a for a in sorted(accepted) if a.startswith(key[:3])]
            hint = f" (did you mean {close[0]}?)" if close else ""
            raise ConfigError(f"{path}: {config.algo.name} takes no hyperparameter {key!r}{hint}")
        params[key] = _hyperparameter(key, value, path)
    check_rollout(config, params, config.n_envs)
    _check_policy(config, cls)
    _check_memory(config, params)
    return params


def _hyperparameter(key: str, value: Any, path: str) -> Any:
    """``value`` checked for its kind and range (a ``lin_X`` schedule made the function SB3 takes).

    Raises:
        ConfigError: A value of the wrong kind, out of range, or not finite.
    """
    if key in _OBJECTS:
        raise ConfigError(f"{path}: takes a Python object, which a YAML config cannot hold; leave it out")
    if key in _BOOLS:
        if not isinstance(value, bool):
            raise ConfigError(f"{path}: expected true or false, got {shorten(value)}")
        return value
    if key.endswith("_kwargs"):  # rollout_buffer_kwargs, replay_buffer_kwargs
        if not isinstance(value, dict):
            raise ConfigError(f"{path}: expected a mapping of keyword arguments, got {shorten(value)}")
        return value
    if key == "train_freq":
        return _train_freq(value, path)
    if key == "ent_coef" and isinstance(value, str) and _AUTO.fullmatch(value):
        if value != "auto" and not 0 < float(value[5:]) <= 10:
            raise ConfigError(f"{path}: an initial entropy coefficient auto_X takes X in (0, 10], got {value!r}")
        return value  # (SAC learns it)
    if key == "target_entropy" and value == "auto":
        return value
    start = value
    if isinstance(value, str):
        if key not in _SCHEDULABLE:
            raise ConfigError(f"{path}: expected a number, got {shorten(value)}")
        value = _schedule(value, path)
        start = value(1.0)
    if isinstance(start, bool) or not isinstance(start, (int, float)):
        raise ConfigError(f"{path}: expected a number, got {shorten(start)}")
    if not math.isfinite(start):
        raise ConfigError(f"{path}: expected a finite number, got {shorten(start)}")
    if key in _INTS:
        low, high, also = _INTS[key]
        if not isinstance(start, int) or not (low <= start <= high or start in also):
            other = "".join(f" or {v}" for v in also)
            wanted = {0: "a non-negative int", 1: "a positive int"}[low] + other
            if isinstance(start, int) and start > high:
                wanted = f"an int of at most {high:,}"
            raise ConfigError(f"{path}: expected {wanted}, got {shorten(start)}")
    if key in _RANGES:
        low, high, closed = _RANGES[key]
        if not (low <= start <= high) or (start == low and not closed):
            where = f"{'[' if closed else '('}{low:g}, {high:g}]"
            raise ConfigError(f"{path}: expected a number in {where}, got {shorten(start)}")
    return value


def _train_freq(value: Any, path: str) -> int | tuple[int, str]:
    """An off-policy ``train_freq``: N (steps), or [N, step|episode]."""
    pair = isinstance(value, (list, tuple)) and len(value) == 2
    count, unit = value if pair else (value, "step")
    whole = isinstance(count, int) and not isinstance(count, bool)
    if not whole or not 1 <= count <= 10**6 or unit not in ("step", "episode"):
        raise ConfigError(f"{path}: expected an int in 1..1,000,000 or [N, step|episode], got {shorten(value)}")
    return (count, unit) if pair else count


def check_rollout(config: Config, params: dict[str, Any], n_envs: int | None) -> None:
    """A PPO batch size divides ``n_steps * n_envs`` (checked once ``n_envs`` is known).

    Raises:
        ConfigError: It does not.
    """
    if n_envs is not None and config.algo.name in ("PPO", "MaskablePPO", "RecurrentPPO"):
        n_steps = params.get("n_steps", 2048)
        batch = params.get("batch_size", 64)
        rollout = n_steps * n_envs
        if rollout % batch:
            raise ConfigError(
                f"algo.hyperparams.batch_size: {batch} does not divide n_steps * n_envs = "
                f"{n_steps} * {n_envs} = {rollout}; SB3 would drop part of every rollout"
            )


def _check_policy(config: Config, cls: type) -> None:
    """The policy is one the algorithm has, and the device one this machine has."""
    aliases = sorted(getattr(cls, "policy_aliases", {}))
    if aliases and config.algo.policy not in aliases:
        raise ConfigError(
            f"algo.policy: {config.algo.name} has no policy {config.algo.policy!r}; choose from {aliases}"
        )
    shape = config.observation.shape
    cnn = config.algo.policy.startswith("Cnn") or config.algo.policy == "MultiInputPolicy"
    if cnn and config.algo.policy_kwargs.features_extractor is None and min(shape) < NATURE_CNN_MIN:
        raise ConfigError(
            f"observation.shape: {list(shape)} is too small for SB3's default CNN (NatureCNN), which needs "
            f"at least {NATURE_CNN_MIN}x{NATURE_CNN_MIN}; use a larger shape or another features_extractor"
        )
    device = config.algo.device
    if device.startswith("cuda") or device == "mps":
        import torch

        available = torch.cuda.is_available() if device.startswith("cuda") else torch.backends.mps.is_available()
        if not available:
            raise ConfigError(f"algo.device: {device!r} is not available on this machine; use cpu (or auto)")


def _check_memory(config: Config, params: dict[str, Any]) -> None:
    """The observation buffer the algorithm will allocate fits in this machine's memory."""
    shape = config.observation.shape
    channels = 1 if config.observation.grayscale else 3
    obs_bytes = shape[0] * shape[1] * channels * config.observation.frame_stack
    if config.algo.name in OFF_POLICY:  # a replay buffer of uint8 observations (and the next ones)
        items, what = 2 * params.get("buffer_size", 1_000_000), "buffer_size"
    else:  # SB3's rollout buffer keeps observations as float32
        envs = config.n_envs or 1
        items, what = 4 * params.get("n_steps", 2048 if config.algo.name != "A2C" else 5) * envs, "n_steps"
    needed = items * obs_bytes
    available = _available_memory()
    if available is not None and needed > 0.8 * available:
        raise ConfigError(
            f"algo.hyperparams.{what}: with observations of {shape[0]}x{shape[1]}x{channels}"
            f"{f' x{config.observation.frame_stack} frames' if config.observation.frame_stack > 1 else ''}, "
            f"the buffer would take {needed / 2**30:.1f} GiB; this machine has {available / 2**30:.1f} GiB available "
            "(use a smaller observation.shape or a smaller buffer)"
        )


def _available_memory() -> int | None:
    """Bytes of memory available (Linux ``MemAvailable``), or None when unknown."""
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError):
        pass
    return None


def _schedule(text: str, path: str):
    match = _SCHEDULE.match(text)
    if match is None:
        raise ConfigError(f"{path}: a schedule is written lin_<start>, e.g. lin_3e-4; got {text!r}")
    start = float(match.group(1))

    def linear(progress_remaining: float) -> float:
        return progress_remaining * start

    linear.__name__ = f"linear_{start:g}"
    return linear


# ---------------------------------------------------------------------------- loading


def apply_overrides(data: dict[str, Any], overrides: list[str]) -> dict[str, Any]:
    """A copy of a raw config mapping with ``key.path=value`` overrides applied (values parsed as YAML).

    Raises:
        ConfigError: An override without ``=`` or through a key that is not a mapping.
    """
    data = copy.deepcopy(data)
    for item in overrides:
        if "=" not in item:
            raise ConfigError(f"--set {item!r}: expected key.path=value")
        path, raw = item.split("=", 1)
        keys = [k for k in path.strip().split(".") if k]
        if not keys:
            raise ConfigError(f"--set {item!r}: empty key path")
        node = data
        for depth, key in enumerate(keys[:-1]):
            child = node.setdefault(key, {})
            if not isinstance(child, dict):
                raise ConfigError(f"--set {item!r}: {'.'.join(keys[: depth + 1])} is not a mapping")
            node = child
        shown = item if len(item) <= 60 else item[:57] + "..."
        node[keys[-1]] = parse_yaml(raw, ConfigError, f"--set {shown!r}") if raw.strip() else ""
    return data


def parse_config(
    data: Any,
    source: str = "config",
    overrides: list[str] | None = None,
    *,
    run_dir: str | Path | None = None,
    trust_plugins: bool = False,
) -> Config:
    """A validated :class:`Config` from a mapping (plus ``--set`` overrides).

    Args:
        data: The config's mapping.
        source: Where it comes from (for messages).
        overrides: ``key.path=value`` overrides.
        run_dir: The run directory it comes from, if any: the classes it names by import path are
            printed with the files they would run (:func:`vet_plugins`) before anything is imported.
        trust_plugins: Import them even from files inside ``run_dir``.

    Raises:
        ConfigError: Naming ``source`` and each offending key path (or a class that would run code
            from inside ``run_dir``, without ``trust_plugins``).
    """
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise ConfigError(f"{source}: a config must be a mapping, got {type(data).__name__}")
    data = apply_overrides(data, overrides or [])
    check_depth(data, ConfigError, source)
    check_expansion(data, ConfigError, source)
    if not data:  # nothing said at all is a mistake, not a wish for every default
        raise ConfigError(f"{source}: the config is empty; start from one in configs/ (e.g. configs/quickstart.yaml)")
    try:
        config = Config.model_validate(data)
    except ValidationError as err:
        raise ConfigError(f"{source}: invalid config\n{format_errors(err)}") from None
    try:
        make_task(config.task_spec())
    except TaskError as err:
        raise ConfigError(f"{source}: task: {err}") from None
    try:
        hyperparams(config)
        if run_dir is not None:
            vet_plugins(config, source, Path(run_dir), trust_plugins)
        check_plugins(config)
    except ConfigError as err:
        raise ConfigError(f"{source}: {err}") from None
    return config


def check_plugins(config: Config) -> None:
    """Every class the config names by import path imports, is of its kind and takes its arguments.

    Raises:
        ConfigError: Naming the key path of the first that does not.
    """
    import gymnasium as gym
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.torch_layers import BaseFeaturesExtractor

    bases = {"wrappers": (gym.Wrapper, ("env",)), "training": (BaseCallback, ())}
    bases["algo"] = (BaseFeaturesExtractor, ("observation_space",))
    for key, path, kwargs in named_plugins(config):
        base, given = bases[key.split(".")[0]]
        try:
            check_plugin(
                path, kwargs, base, given, cls=extractor_class(path) if base is BaseFeaturesExtractor else None
            )
        except PluginError as err:
            raise ConfigError(f"{key}: {err}") from None


def named_plugins(config: Config) -> list[tuple[str, str, dict[str, Any]]]:
    """(key path, import path or built-in name, keyword arguments) of each class of your own the config names."""
    named = [(f"wrappers.{i}", p.path, p.kwargs) for i, p in enumerate(config.wrappers)]
    named += [(f"training.callbacks.{i}", p.path, p.kwargs) for i, p in enumerate(config.training.callbacks)]
    policy = config.algo.policy_kwargs
    if policy.features_extractor is not None:
        extractor = policy.features_extractor
        named.append(("algo.policy_kwargs.features_extractor", extractor, policy.features_extractor_kwargs or {}))
    return named


def vet_plugins(config: Config, source: str, run_dir: Path, trusted: bool = False) -> None:
    """Say which modules the classes a run's config names will import, and from where; refuse the run's own code.

    A run directory may come from someone else, and may carry modules of its own; importing runs
    them. So the classes its config names by import path are printed (to stderr) with the files
    they would run, found without running them, and a file inside ``run_dir`` is refused unless
    ``trusted`` (``--trust-plugins``). A config flag would not do: the run's own config could set it.

    Raises:
        ConfigError: A class whose import would run a file inside ``run_dir``, and not ``trusted``.
    """
    from androidrl.train.extractors import EXTRACTORS

    named = [(key, path) for key, path, _ in named_plugins(config) if path not in EXTRACTORS]
    if not named:
        return
    lines, inside = [], []
    for key, path in named:
        try:
            files = module_files(path)
        except PluginError:
            files = []  # (check_plugins says what is wrong with it)
        lines.append(f"  {key}: {path} from {files[-1] if files else '(not found)'}")
        inside += [(key, path, f) for f in files if run_dir.resolve() in f.resolve().parents]
    note = " (trusted: --trust-plugins)" if trusted and inside else ""
    print(f"{source} names classes to import, which runs their modules{note}:\n" + "\n".join(lines), file=sys.stderr)
    if inside and not trusted:
        key, path, file = inside[0]
        raise ConfigError(
            f"{key}: {path} would run {file}, which is inside the run directory {run_dir}: code that came with "
            "the run. Read it; if you trust it, pass --trust-plugins (trust_plugins=True from Python)"
        )


#: The configs shipped with the package (``androidrl configs`` lists them; ``configs/`` in the repository).
SHIPPED = Path(__file__).resolve().parents[1] / "configs"


def shipped_configs() -> dict[str, Path]:
    """The shipped configs by name (``quickstart``...)."""
    return {path.stem: path for path in sorted(SHIPPED.glob("*.yaml"))}


def config_path(name: str | Path) -> Path:
    """A config file: ``name`` itself if it exists, else the shipped config of that name (``quickstart``).

    Raises:
        ConfigError: Neither (listing the shipped configs).
    """
    path = Path(name)
    if path.exists() or path.suffix in (".yaml", ".yml") and path.parent != Path("."):
        return path
    shipped = shipped_configs()
    stem = path.stem if path.suffix in (".yaml", ".yml") else str(name)
    if stem in shipped:
        return shipped[stem]
    raise ConfigError(f"{name}: no such config file, and no shipped config of that name ({', '.join(shipped)})")


def load_config(
    path: str | Path,
    overrides: list[str] | None = None,
    *,
    run_dir: str | Path | None = None,
    trust_plugins: bool = False,
) -> Config:
    """Read and validate a YAML config file (or a shipped config by name, e.g. ``quickstart``).

    ``run_dir`` and ``trust_plugins``: the config is a run directory's (see :func:`parse_config`).

    Raises:
        ConfigError: The file is missing, not YAML, or not a valid config.
    """
    path = config_path(path)
    data = read_yaml(path, ConfigError, "config")
    return parse_config(data, str(path), overrides, run_dir=run_dir, trust_plugins=trust_plugins)


def dump_config(config: Config) -> str:
    """The resolved config as YAML (every default written out)."""
    return yaml.safe_dump(config.model_dump(mode="json"), sort_keys=False)
