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

A run directory's config is not always yours (a run shared with you, downloaded...), and a run
directory can carry modules of its own. :func:`module_files` finds the files an import path would
run, without running them, so that reading a run's config can say what it will import and from
where, and refuse code that lies inside the run directory unless told to trust it.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
import inspect
import os
import sys
from pathlib import Path
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
    module_name, name = _split(path)
    _find_as_python_m()
    try:
        module = importlib.import_module(module_name)
    except ImportError as err:
        raise PluginError(f"cannot import {module_name!r} (for {path}): {err}") from None
    found = getattr(module, name, None)
    if not inspect.isclass(found):
        what = "nothing" if found is None else f"a {type(found).__name__}, not a class"
        raise PluginError(f"{path}: {module_name} has {what} named {name!r}")
    return found


def _split(path: str) -> tuple[str, str]:
    """(module, class name) of ``pkg.module.Name`` or ``pkg.module:Name``.

    Raises:
        PluginError: Neither.
    """
    module_name, sep, name = path.partition(":") if ":" in path else path.rpartition(".")
    if not sep or not module_name or not name:
        raise PluginError(f"{path!r} is not an import path (write package.module.ClassName)")
    return module_name, name


def _find_as_python_m() -> None:
    """Put the current directory on the import path, as ``python -m`` does; last, so it shadows nothing."""
    if "" not in sys.path and os.getcwd() not in sys.path:
        sys.path.append(os.getcwd())


def module_files(path: str) -> list[Path]:
    """The files importing the class at ``path`` would run: each package's ``__init__.py``, then the module.

    Found the way the import would find them, without importing anything (a package already
    imported is where it was imported from). A module that cannot be found ends the list early.

    Raises:
        PluginError: ``path`` is not an import path.
    """
    module_name, _ = _split(path)
    _find_as_python_m()
    files: list[Path] = []
    search: list[str] | None = None
    parts = module_name.split(".")
    for i in range(len(parts)):
        name = ".".join(parts[: i + 1])
        if name in sys.modules:
            spec = getattr(sys.modules[name], "__spec__", None)
        elif search is None:  # a top-level name: finding it imports nothing
            try:
                spec = importlib.util.find_spec(name)
            except (ImportError, ValueError):
                spec = None
        else:  # inside a package: look in its folders, without importing the package
            found = _find_in(parts[i], search)
            if found is None:
                break
            file, search = found
            files += [file] if file else []
            continue
        if spec is None:
            break
        if spec.has_location and spec.origin:
            files.append(Path(spec.origin))
        search = list(spec.submodule_search_locations or [])
    return files


def _find_in(name: str, folders: list[str]) -> tuple[Path | None, list[str]] | None:
    """(the file it runs, the folders of its own modules) of module ``name`` in a package's ``folders``.

    As Python's path finder looks: a package (``name/__init__.py``) or a module (``name.py``...) in
    the first folder that has one, else a namespace package of every ``name/`` folder; None if none.
    (Python's own finder wants the parent package imported, which would run it.)
    """
    namespace = []
    for folder in folders:
        base = Path(folder) / name
        for candidate in [base / f"__init__{suffix}" for suffix in importlib.machinery.all_suffixes()] + [
            Path(folder) / f"{name}{suffix}" for suffix in importlib.machinery.all_suffixes()
        ]:
            if candidate.is_file():
                return candidate, [str(base)] if candidate.parent == base else []
        if base.is_dir():
            namespace.append(str(base))
    return (None, namespace) if namespace else None


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
