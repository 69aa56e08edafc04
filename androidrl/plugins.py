"""Your own classes in a config: wrappers, callbacks and features extractors named by import path.

A config names them as rl-zoo3 does, each an import path alone or with its keyword arguments::

    wrappers:                                  # after androidrl's own, in each worker, in order
      - gymnasium.wrappers.TimeAwareObservation
      - my_project.wrappers.Crop: {top: 40}
    training:
      callbacks:
        - my_project.callbacks.LogActions: {every: 100}
    algo:
      policy_kwargs:
        features_extractor: my_project.nets.Small    # or the built-in: instruction
        features_extractor_kwargs: {features_dim: 128}

Each is imported and its arguments checked against its signature when the config is read,
so a typo is an error before any phone starts. Modules are found as ``python -m`` finds
them, the current directory included, whichever way androidrl was started (the installed
``androidrl`` command puts only its own directory on the path). Importing runs the
module's code: name only modules you trust, as you would import them yourself.
"""

from __future__ import annotations

import importlib
import inspect
import os
import sys
from typing import Any


class PluginError(ValueError):
    """A class named in a config that cannot be imported, is of the wrong kind, or does not take its arguments."""


def parse_plugin(item: Any) -> tuple[str, dict[str, Any]]:
    """``"pkg.mod.Class"`` or ``{"pkg.mod.Class": {kwargs}}`` (also ``pkg.mod:Class``) as ``(path, kwargs)``.

    Raises:
        PluginError: Neither form.
    """
    if isinstance(item, str):
        return item, {}
    if isinstance(item, dict) and len(item) == 1:
        ((path, kwargs),) = item.items()
        if isinstance(path, str) and (kwargs is None or isinstance(kwargs, dict)):
            return path, dict(kwargs or {})
    raise PluginError(f"expected an import path, or {{import.path: {{keyword: value}}}}, got {item!r}")


def import_class(path: str) -> type:
    """The class at ``pkg.module.Name`` (or ``pkg.module:Name``).

    Raises:
        PluginError: The module or the name cannot be found, or it is not a class.
    """
    module_name, sep, name = path.partition(":") if ":" in path else path.rpartition(".")
    if not sep or not module_name or not name:
        raise PluginError(f"{path!r} is not an import path (write package.module.ClassName)")
    if "" not in sys.path and os.getcwd() not in sys.path:  # as `python -m` does; last, so it shadows nothing
        sys.path.append(os.getcwd())
    try:
        module = importlib.import_module(module_name)
    except ImportError as err:
        raise PluginError(f"cannot import {module_name!r} (for {path}): {err}") from None
    found = getattr(module, name, None)
    if not inspect.isclass(found):
        what = "nothing" if found is None else f"a {type(found).__name__}, not a class"
        raise PluginError(f"{path}: {module_name} has {what} named {name!r}")
    return found


def check_plugin(
    path: str, kwargs: dict[str, Any], base: type, given: tuple[str, ...] = (), cls: type | None = None
) -> type:
    """The class at ``path``, checked to subclass ``base`` and to take ``kwargs``.

    Args:
        path: Its import path.
        kwargs: The keyword arguments the config gives it.
        base: The class it must extend (``gymnasium.Wrapper``, SB3's ``BaseCallback``...).
        given: Names of the arguments the harness passes itself (the env, the observation space...).
        cls: The class, if already imported (a built-in by name).

    Raises:
        PluginError: It does not.
    """
    cls = cls or import_class(path)
    if not issubclass(cls, base):
        raise PluginError(f"{path} is not a {base.__module__}.{base.__qualname__}")
    signature = inspect.signature(cls.__init__)
    params = [p for p in signature.parameters.values() if p.name != "self"]
    passed = {p.name: None for p in params[: len(given)] if p.kind is not p.VAR_KEYWORD}
    clash = sorted(set(kwargs) & set(passed))
    if clash:
        raise PluginError(f"{path}: {', '.join(clash)} is passed by androidrl, not by the config")
    try:
        signature.bind(None, **passed, **kwargs)
    except TypeError as err:
        accepted = [p.name for p in params[len(given) :] if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
        raise PluginError(f"{path}: {err} (it takes {', '.join(accepted) or 'no arguments'})") from None
    return cls
