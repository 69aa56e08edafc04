"""The house rules, read from the code: no import cycles, and imports only point down the layers.

Every ``import`` in ``androidrl/`` counts — at module level or inside a function (a lazy
import is still a dependency); those under ``if TYPE_CHECKING:`` count for cycles (two modules that
name each other's types are one), not for layers. Layers, bottom
to top (a module may import its own layer and the layers below, never one above):

1. leaves: ``errors``, ``spaces``, ``keycodes``, ``validation``, ``screen``, ``plugins``, ``provenance``, ``pools``,
   ``arguments`` (the command line's argument types)
2. ``virtual`` — the virtual phone (never the device layer, tasks, env or training)
3. ``device`` — the only layer that talks to a phone (never env, tasks or training)
4. ``ui`` — UI XML, nodes, the per-step snapshot
5. ``tasks``
6. ``env``, ``compat`` (never wrappers, vector or training)
7. ``wrappers``, ``recording``, ``registration``, ``solvers`` (scripted agents for the built-in tasks)
8. ``vector``, ``vec_sb3``, and the package's face ``androidrl/__init__.py``
9. the application: ``train``, ``bench``, ``cli``, ``commands``, ``node``, ``zoo``, ``__main__`` — the runtime
   (1-8) never imports it, but for the package face's ``make_env`` (see ``UPWARD_ALLOWED``)

The virtual phone is a platform of its own, with rooms in layers (``VIRTUAL_LAYERS``):

1. ``ui`` (the UI toolkit), ``media`` (codecs) — know nothing of the phone
2. ``system`` — the services, and the app framework (``system.framework``) they hand apps
3. ``apps`` (one package per app), ``shell`` (its grammar, one command registry, the commands)
4. ``phone`` — the composition: the only importer of ``apps``
5. ``adbd``, ``console``, ``faults`` — the phone served over TCP

A room imports only itself and the rooms of lower layers. Apps import only the framework,
the UI toolkit, their own package and ``keycodes``. The shell has one command table, filled by
one decorator. No module reaches into another object's private (``_x``) attributes or imports
another module's private names, and no file of the virtual phone is over 600 lines.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "androidrl"

LAYERS = [
    {"errors", "spaces", "keycodes", "validation", "screen", "plugins", "provenance", "pools", "arguments"},
    {"virtual"},
    {"device"},
    {"ui"},
    {"tasks"},
    {"env", "compat"},
    {"wrappers", "recording", "registration", "solvers"},
    {"vector", "vec_sb3", ""},  # "": androidrl/__init__.py
    {"train", "bench", "cli", "commands", "node", "zoo", "__main__"},
]


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _import_nodes(tree: ast.AST, type_checking: bool):
    """Every Import/ImportFrom node; those in ``if TYPE_CHECKING:`` bodies only if ``type_checking``."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if not type_checking and isinstance(node, ast.If) and _is_type_checking(node):
            stack.extend(node.orelse)
            continue
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        stack.extend(ast.iter_child_nodes(node))


def imports_of(name: str, type_checking: bool = False) -> set[str]:
    """The androidrl modules that module ``name`` imports (for type hints too, if ``type_checking``)."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in _import_nodes(ast.parse(path.read_text(), str(path)), type_checking):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        else:
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            # ``from pkg import sub`` imports the submodule when there is one.
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base for a in node.names]
        for target in targets:
            while target and target not in MODULES:  # ``import androidrl.x.y`` of a name: its module
                target = target.rpartition(".")[0]
            if target.startswith("androidrl") and target != name:
                found.add(target)
    return found


GRAPH = {name: imports_of(name) for name in MODULES}
#: With the imports made only for type hints: what the cycle rule reads.
TYPED_GRAPH = {name: imports_of(name, type_checking=True) for name in MODULES}


def layer(name: str) -> int:
    room = name.split(".")[1] if "." in name else ""
    for index, rooms in enumerate(LAYERS):
        if room in rooms:
            return index + 1
    raise AssertionError(f"{name} is in no layer: add its room to LAYERS (and to the docstring)")


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in graph.get(node, ()):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_reader_sees_imports():
    # The test must be able to fail: the reader finds the edges it is meant to judge.
    assert "androidrl.device.base" in GRAPH["androidrl.env"]
    assert "androidrl.ui" in GRAPH["androidrl.tasks.conditions"]
    assert "androidrl.vector.async_env" in GRAPH["androidrl.vector.sb3"]
    # An import for type hints only: a dependency for cycles, not for layers.
    typed = ("androidrl.virtual.system.app_context", "androidrl.virtual.system.core")
    assert typed[1] in TYPED_GRAPH[typed[0]] and typed[1] not in GRAPH[typed[0]]
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_import_cycles():
    found = cycles(TYPED_GRAPH)
    details = []
    for component in found:
        edges = [f"  {a} -> {b}" for a in component for b in sorted(TYPED_GRAPH[a]) if b in component]
        details.append("\n".join(edges))
    assert not found, "import cycles:\n" + "\n\n".join(details)


#: The one upward door, by design: the package's face offers ``androidrl.make_env(run_dir)``, which rebuilds a
#: run's env from its config; it imports the training application when called (never on ``import androidrl``).
UPWARD_ALLOWED = {("androidrl", "androidrl.train.compose")}


def test_imports_only_point_down_the_layers():
    upward = [
        f"{source} (layer {layer(source)}) imports {target} (layer {layer(target)})"
        for source in sorted(GRAPH)
        for target in sorted(GRAPH[source])
        if layer(target) > layer(source) and (source, target) not in UPWARD_ALLOWED
    ]
    assert not upward, "imports that point up:\n" + "\n".join(upward)


VIRTUAL = PACKAGE / "virtual"
VIRTUAL_LAYERS = [{"ui", "media"}, {"system"}, {"apps", "shell"}, {"phone"}, {"adbd", "console", "faults", ""}]
MAX_LINES = 600
APP_FACING = ("androidrl.virtual.system.framework", "androidrl.virtual.ui", "androidrl.keycodes")


def virtual_room(name: str) -> str:
    """``androidrl.virtual.system.window.display`` -> ``system``; the package itself -> ``""``."""
    parts = name.split(".")
    return parts[2] if len(parts) > 2 else ""


def virtual_layer(name: str) -> int:
    room = virtual_room(name)
    for index, rooms in enumerate(VIRTUAL_LAYERS):
        if room in rooms:
            return index + 1
    raise AssertionError(f"{name} is in no room of the virtual phone: add {room!r} to VIRTUAL_LAYERS")


def virtual_modules() -> list[str]:
    return [name for name in sorted(GRAPH) if name == "androidrl.virtual" or name.startswith("androidrl.virtual.")]


TREES = {name: ast.parse(MODULES[name].read_text(), str(MODULES[name])) for name in virtual_modules()}


def is_command(node: ast.AST) -> bool:
    """A shell command: ``def _x(sh, argv, stdin)``."""
    return isinstance(node, ast.FunctionDef) and [a.arg for a in node.args.args] == ["sh", "argv", "stdin"]


def test_the_virtual_rules_see_the_code():
    # The rules below must be able to fail: they find what they are meant to judge.
    assert virtual_layer("androidrl.virtual.adbd.server") > virtual_layer("androidrl.virtual.phone")
    assert virtual_layer("androidrl.virtual.phone") > virtual_layer("androidrl.virtual.shell.commands.am")
    assert "androidrl.virtual.system.framework.app" in GRAPH["androidrl.virtual.apps.notes.app"]
    assert any(is_command(node) for node in TREES["androidrl.virtual.shell.commands.am"].body)


def test_no_file_of_the_virtual_phone_is_over_600_lines():
    sizes = {path: len(path.read_text().splitlines()) for path in sorted(VIRTUAL.rglob("*.py"))}
    big = [f"{path.relative_to(PACKAGE.parent)}: {lines} lines" for path, lines in sizes.items() if lines > MAX_LINES]
    assert not big, f"files over {MAX_LINES} lines (split them by job):\n" + "\n".join(big)


def test_rooms_of_the_virtual_phone_import_only_themselves_and_rooms_below():
    wrong = [
        f"{source} ({virtual_room(source) or 'virtual'}, layer {virtual_layer(source)}) imports {target} "
        f"({virtual_room(target)}, layer {virtual_layer(target)})"
        for source in virtual_modules()
        for target in sorted(GRAPH[source])
        if target.startswith("androidrl.virtual.")
        and virtual_room(target) != virtual_room(source)
        and virtual_layer(target) >= virtual_layer(source)
    ]
    assert not wrong, "imports across the rooms of the virtual phone that do not point down:\n" + "\n".join(wrong)


def test_apps_import_only_the_app_framework_and_the_ui_toolkit():
    wrong = []
    for source in (name for name in virtual_modules() if virtual_room(name) == "apps"):
        own = ".".join(source.split(".")[:4])  # androidrl.virtual.apps.<app>
        for target in sorted(GRAPH[source]):
            if not (target == own or target.startswith(own + ".") or target.startswith(APP_FACING)):
                wrong.append(f"{source} imports {target}")
    assert not wrong, "apps reach the system only through the framework (their Context):\n" + "\n".join(wrong)


def test_the_shell_has_one_command_table_filled_by_one_decorator():
    registry = "androidrl.virtual.shell.registry"
    tables, unregistered = [], []
    for name, tree in TREES.items():
        for node in tree.body:
            if isinstance(node, ast.AnnAssign) and "Command" in ast.unparse(node.annotation) and name != registry:
                tables.append(f"{name}: {ast.unparse(node)}")
            decorators = [ast.unparse(d) for d in getattr(node, "decorator_list", [])]
            if is_command(node) and not (any(d.startswith("command(") for d in decorators) and registry in GRAPH[name]):
                unregistered.append(f"{name}.{node.name}")
    assert not tables, "command tables besides shell.registry.COMMANDS:\n" + "\n".join(tables)
    assert not unregistered, "commands not registered with shell.registry.command:\n" + "\n".join(unregistered)


def test_the_phone_runs_every_command_from_the_one_table():
    from androidrl.virtual.phone import VirtualPhone
    from androidrl.virtual.shell.registry import COMMANDS

    shell = VirtualPhone(360, 800, 160).open_shell()
    assert shell.commands is COMMANDS
    registered = {(fn.__module__, fn.__name__) for fn in COMMANDS.values()}
    written = {(name, node.name) for name, tree in TREES.items() for node in tree.body if is_command(node)}
    assert written == registered  # every command module is loaded, and every command in it registered


def test_nothing_reaches_into_another_objects_private_attributes():
    wrong = []
    for name, tree in TREES.items():
        for node in ast.walk(tree):
            private = isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__")
            if private and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")):
                wrong.append(f"{name}:{node.lineno}: {ast.unparse(node)}")
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("androidrl"):
                wrong += [f"{name}:{node.lineno}: imports {a.name}" for a in node.names if a.name.startswith("_")]
    assert not wrong, "private attributes or names used from outside their class or module:\n" + "\n".join(wrong)


def test_only_the_phone_composition_installs_apps():
    offenders = [
        source
        for source in sorted(GRAPH)
        if source.startswith("androidrl.virtual")
        and not source.startswith("androidrl.virtual.apps")
        and source != "androidrl.virtual.phone"
        and any(t.startswith("androidrl.virtual.apps") for t in GRAPH[source])
    ]
    assert not offenders, f"parts of the virtual phone that import its apps: {offenders}"


@pytest.mark.parametrize(
    "statement",
    [
        "from androidrl import AndroidEnv, VirtualDevice, VirtualPhone, EnvAction, EnvActionType, make_virtual_env, "
        "Needs, make_env",
        "from androidrl.wrappers import ScreenshotObservation, DiscreteGridAction, MultiDiscreteAction, "
        "BoxAction, UIElementAction, Geometry, InstructionObservation, HashTokenizer",
        "from androidrl.vector import make_vector_env, DeviceVectorEnv, DeviceFaultGuard, DeviceSpec, parse_devices",
        "from androidrl.vec_sb3 import make_sb3_vec_env, SB3VecEnv, RayVecEnv",
        "from androidrl.compat.metagpt import AndroidExtEnv, ADB_EXEC_FAIL, EnvAction, EnvActionType, EnvObsParams, "
        "EnvObsType",
        "from androidrl.device.adb import AdbDevice",
        "from androidrl.recording import EpisodeRecorder, load_dataset",
        "from androidrl.device import Device, DeviceSpec, VirtualDevice",
        "from androidrl.train import Config, Run, load_config",
        "from androidrl.ui import Snapshot, UIElement, ui_elements",
    ],
)
def test_public_names_import(statement):
    exec(statement, {})


def test_importing_androidrl_loads_no_training_stack():
    code = (
        "import sys, gymnasium as gym, androidrl; gym.make('androidrl/WifiOnPixels-v0');"
        "heavy = sorted(m for m in ('torch', 'stable_baselines3', 'ray', 'androidrl.train') if m in sys.modules);"
        "print(','.join(heavy))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    assert result.stdout.strip() == ""


def test_each_vector_setting_has_its_default_in_one_place():
    # VectorSettings is the one definition: no other signature gives one of its settings a default of its
    # own (``max_down_seconds: float = 300.0``), and nothing reads one with a fallback (``.get(..., 300.0)``).
    from androidrl.vector.settings import VectorSettings

    found = []
    for name, field in VectorSettings.model_fields.items():
        assert not field.is_required(), f"VectorSettings.{name} has no default"
        default = re.compile(rf"\b{name}\b\s*:[^=\n]*=\s*[-+\d.]|\.get\(\s*['\"]{name}['\"]")
        for module, path in MODULES.items():
            found += [f"{module}:{n}: {line.strip()}" for n, line in enumerate(path.read_text().splitlines(), 1)
                      if default.search(line)]  # fmt: skip
    assert not found, "vector settings defined again:\n" + "\n".join(found)


def test_the_command_line_stays_thin():
    # Commands live in androidrl/commands/ (and the training ones in androidrl/train/): cli.py only gathers them.
    lines = len((PACKAGE / "cli.py").read_text().splitlines())
    assert lines < 250, f"androidrl/cli.py has {lines} lines: move the command's work to its own module"


def test_the_test_map_names_every_module_and_every_test_file():
    tests = Path(__file__).parent
    lines = (tests / "README.md").read_text().splitlines()
    rows = [line.split("|")[1:3] for line in lines if line.startswith("| ") and not line.startswith("| module")]
    covered = [p.rstrip("/") for modules, _ in rows for p in re.findall(r"`(androidrl/[^`]*)`", modules)]
    named = {name for _, files in rows for name in re.findall(r"`(test_\w+\.py)`", files)}
    root = PACKAGE.parent
    unmapped = [
        str(p.relative_to(root))
        for p in sorted(PACKAGE.rglob("*.py"))
        if not any(str(p.relative_to(root)) == c or p.relative_to(root).is_relative_to(c) for c in covered)
    ]
    assert not unmapped, f"modules tests/README.md does not map: {unmapped}"
    assert not [n for n in named if not (tests / n).is_file()], "tests/README.md names test files that do not exist"
    assert {p.name for p in tests.glob("test_*.py")} <= named, "test files tests/README.md does not name"
