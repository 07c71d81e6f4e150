"""The folder layout is the architecture: these checks keep it honest.

The import graph is computed from the source of every package in the
repository (not from a list of files kept by hand), and so are the sizes of
its modules and functions. Each rule is checked on the real tree, and on a
small planted tree that breaks it, to show it can fail.
"""

from __future__ import annotations

import ast
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# Top to bottom. A module may import from its own package or from a lower
# layer, never from a higher one nor sideways into another package of its layer.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("bot",),  # the entry point: settings, logging, run (locally, on the stand-in)
    # The Bot, built and wired in setup_hook; beside it, never imported by it,
    # the Discord stand-in that local play and the tests run it on.
    ("app", "fakediscord"),
    ("cogs",),  # discord.py's entry point: the slash commands, handed to the chat
    # The two doors to one game: neither imports the other.
    ("chat", "web"),  # the chat's buttons, messages and DMs; the Activity's pages
    ("game",),  # what a seat may do and see, one gate, and what the game tells the doors
    ("presentation",),  # the words and pictures both doors show
    ("tables",),  # table state, locks, the unit of work
    ("transport",),  # discord.py's private parts
    ("engine", "db"),  # pure rules; storage
)
NOT_PRODUCT = {"tests", ".venv", ".ci-venv", ".git"}
PURE = {"engine": {"discord", "asyncio", "aiosqlite", "sqlite3", "aiohttp", "socket"}}
NO_DISCORD = ("game", "presentation", "tables", "engine", "db")

# No file a reader has to scroll through, no function that does not fit on a
# screen: past these, a module or function is split by concern.
MAX_MODULE_LINES = 600
MAX_FUNCTION_LINES = 80
# Modules ("db.x") and functions ("db.x.Class.method") allowed past them, each
# with the reason why; none today.
LONG_MODULES: dict[str, str] = {}
LONG_FUNCTIONS: dict[str, str] = {}
# Imports made inside a function ("module -> what"), each with the reason why.
LATE_IMPORTS: dict[str, str] = {
    "bot -> fakediscord.local": "the stand-in is loaded to play locally alone: on Discord the "
    "bot never loads it (4 MiB), and the container image does not hold it",
}


@dataclass
class Module:
    name: str
    path: Path
    is_package: bool
    # Project modules imported when this module is loaded (type-only imports included).
    imports: set[str] = field(default_factory=set)
    # Top-level names of third-party modules imported when it is loaded.
    external: set[str] = field(default_factory=set)
    # The same two, without the imports made for the type checker alone.
    run_time_imports: set[str] = field(default_factory=set)
    run_time_external: set[str] = field(default_factory=set)
    # (line, what) of imports of project modules made inside a function.
    late_imports: list[tuple[int, str]] = field(default_factory=list)
    # (line, what) of private names taken from another project module.
    private_names: list[tuple[int, str]] = field(default_factory=list)
    lines: int = 0
    # (qualified name, line of its def, lines from def to its end) of every function.
    functions: list[tuple[str, int, int]] = field(default_factory=list)

    @property
    def package(self) -> str:
        return self.name.split(".")[0]


def discover(root: Path) -> dict[str, Module]:
    """Every module of the project under ``root``: its top-level packages and modules."""
    modules: dict[str, Module] = {}
    for path in sorted(root.rglob("*.py")):
        relative = path.relative_to(root)
        if relative.parts[0] in NOT_PRODUCT or any(p.startswith(".") for p in relative.parts):
            continue
        if len(relative.parts) > 1 and not (root / relative.parts[0] / "__init__.py").exists():
            continue  # a folder of scripts, not a package
        parts = list(relative.with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        if is_package:
            parts.pop()
        name = ".".join(parts)
        modules[name] = Module(name, path, is_package)
    for module in modules.values():
        _read_imports(module, modules)
        _measure(module)
    return modules


def _measure(module: Module) -> None:
    source = module.path.read_text(encoding="utf-8")
    module.lines = len(source.splitlines())

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                length = (child.end_lineno or child.lineno) - child.lineno + 1
                module.functions.append((prefix + child.name, child.lineno, length))
                visit(child, f"{prefix}{child.name}.")
            elif isinstance(child, ast.ClassDef):
                visit(child, f"{prefix}{child.name}.")
            else:
                visit(child, prefix)

    visit(ast.parse(source), "")


def _walk_with_depth(
    node: ast.AST, in_function: bool = False, for_types: bool = False
) -> Iterator[tuple[ast.AST, bool, bool]]:
    """Every node, whether it is inside a function, and whether inside an
    ``if TYPE_CHECKING:`` block (imported for the type checker alone)."""
    for child in ast.iter_child_nodes(node):
        yield child, in_function, for_types
        inside = in_function or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef)
        typing_only = for_types or (
            isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test))
        yield from _walk_with_depth(child, inside, typing_only)


def _read_imports(module: Module, modules: dict[str, Module]) -> None:
    tree = ast.parse(module.path.read_text(encoding="utf-8"))
    package = module.name if module.is_package else module.name.rpartition(".")[0]
    for node, in_function, for_types in _walk_with_depth(tree):
        targets: list[str] = []
        relative = False
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            relative = node.level > 0
            base = node.module or ""
            if relative:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)] if node.level > 1 else anchor
                base = ".".join([*anchor, *([base] if base else [])])
            for alias in node.names:
                candidate = f"{base}.{alias.name}"
                targets.append(candidate if candidate in modules else base)
                # A bare ``_`` is gettext's translate function, public by convention.
                if (
                    alias.name.startswith("_")
                    and alias.name != "_"
                    and base.split(".")[0] in {m.split(".")[0] for m in modules}
                    and base != module.name
                ):
                    module.private_names.append((node.lineno, f"{base}.{alias.name}"))
        else:
            continue
        for target in targets:
            top = target.split(".")[0]
            if not any(name == top or name.startswith(top + ".") for name in modules):
                if not in_function:
                    module.external.add(top)
                    if not for_types:
                        module.run_time_external.add(top)
                continue
            if in_function:
                module.late_imports.append((node.lineno, target))
                continue
            found = {target}
            if not relative and top != module.package:
                # Importing a.b.c from outside runs a and a.b first.
                pieces = target.split(".")
                found.update(".".join(pieces[:i]) for i in range(1, len(pieces)))
            module.imports |= found
            if not for_types:
                module.run_time_imports |= found
    for names in (module.imports, module.run_time_imports):
        names &= set(modules)
        names.discard(module.name)


def layer_of(package: str) -> int | None:
    for rank, names in enumerate(LAYERS):
        if package in names:
            return rank
    return None


def cycles(modules: dict[str, Module]) -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(name: str) -> None:
        index[name] = low[name] = len(index)
        stack.append(name)
        on_stack.add(name)
        for target in sorted(modules[name].imports):
            if target not in index:
                visit(target)
                low[name] = min(low[name], low[target])
            elif target in on_stack:
                low[name] = min(low[name], index[target])
        if low[name] == index[name]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == name:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for name in sorted(modules):
        if name not in index:
            visit(name)
    return found


def layering_violations(modules: dict[str, Module]) -> list[str]:
    problems = []
    unplaced = sorted({m.package for m in modules.values() if layer_of(m.package) is None})
    problems += [f"package {package!r} is in no layer" for package in unplaced]
    for module in modules.values():
        mine = layer_of(module.package)
        if mine is None:
            continue
        # The module named, not the packages loaded on the way to it.
        imports = module.imports
        named = {t for t in imports if not any(o.startswith(t + ".") for o in imports)}
        for target in sorted(named):
            package = target.split(".")[0]
            if package == module.package:
                continue
            theirs = layer_of(package)
            if theirs is None or theirs <= mine:
                problems.append(f"{module.name} imports {target}: not a lower layer")
    return problems


def purity_violations(modules: dict[str, Module]) -> list[str]:
    problems = []
    for module in modules.values():
        if module.package in NO_DISCORD and "discord" in module.external:
            problems.append(f"{module.name} imports discord")
        bad = module.external & PURE.get(module.package, set())
        if bad:
            problems.append(f"{module.name} imports {sorted(bad)}: the engine must stay pure")
    return problems


def late_import_violations(modules: dict[str, Module]) -> list[str]:
    return [
        f"{module.name}:{line} imports {what} inside a function"
        for module in modules.values()
        for line, what in module.late_imports
        if f"{module.name} -> {what}" not in LATE_IMPORTS
    ]


def private_name_violations(modules: dict[str, Module]) -> list[str]:
    return [
        f"{module.name}:{line} takes the private {what}"
        for module in modules.values()
        for line, what in module.private_names
    ]


def long_modules(
    modules: dict[str, Module], allowed: dict[str, str] = LONG_MODULES
) -> list[str]:
    return [
        f"{module.name} has {module.lines} lines, more than {MAX_MODULE_LINES}"
        for module in modules.values()
        if module.lines > MAX_MODULE_LINES and module.name not in allowed
    ]


def long_functions(
    modules: dict[str, Module], allowed: dict[str, str] = LONG_FUNCTIONS
) -> list[str]:
    return [
        f"{module.name}:{line} {name} has {length} lines, more than {MAX_FUNCTION_LINES}"
        for module in modules.values()
        for name, line, length in module.functions
        if length > MAX_FUNCTION_LINES and f"{module.name}.{name}" not in allowed
    ]


# The Activity's door: its server, and what it needs of the game, loaded
# without discord.py, but for the client that signs its members in with Discord.
ACTIVITY_DOOR = "web"
ACTIVITY_SIGN_IN = {"transport.activity_api"}


def loaded_with(modules: dict[str, Module], package: str) -> set[str]:
    """Every project module that loading ``package``'s modules loads at run time."""
    seen: set[str] = set()
    waiting = [name for name in modules if modules[name].package == package]
    while waiting:
        name = waiting.pop()
        if name not in seen:
            seen.add(name)
            waiting.extend(modules[name].run_time_imports)
    return seen


def activity_discord_violations(modules: dict[str, Module]) -> list[str]:
    return [
        f"{name} imports discord, and the Activity's door loads it"
        for name in sorted(loaded_with(modules, ACTIVITY_DOOR))
        if "discord" in modules[name].run_time_external and name not in ACTIVITY_SIGN_IN
    ]


CHECKS = {
    "cycles": lambda modules: [" -> ".join(group) for group in cycles(modules)],
    "layers": layering_violations,
    "purity": purity_violations,
    "the Activity without discord.py": activity_discord_violations,
    "late imports": late_import_violations,
    "private names": private_name_violations,
    "module size": long_modules,
    "function size": long_functions,
}


@pytest.fixture(scope="module")
def project() -> dict[str, Module]:
    return discover(ROOT)


def test_the_graph_covers_every_package(project: dict[str, Module]) -> None:
    packages = {module.package for module in project.values()}
    assert packages == {name for layer in LAYERS for name in layer}
    assert "chat.router" in project and "engine.hand" in project
    assert {"tables", "presentation.actions", "chat.router"} <= project["chat.lobby"].imports


def test_mypy_checks_every_package() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    checked = {Path(name).stem for name in config["tool"]["mypy"]["files"]}
    assert checked == {name for layer in LAYERS for name in layer}


@pytest.mark.parametrize("check", sorted(CHECKS))
def test_the_project_keeps_the_rule(project: dict[str, Module], check: str) -> None:
    assert CHECKS[check](project) == []


# --- each rule can fail: a planted tree that breaks it -------------------------------------
def plant(root: Path, files: dict[str, str]) -> dict[str, Module]:
    for name, source in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(source, encoding="utf-8")
        init = path.parent / "__init__.py"
        if path.parent != root and not init.exists():
            init.write_text("", encoding="utf-8")
    return discover(root)


def test_a_planted_cycle_is_found(tmp_path: Path) -> None:
    modules = plant(
        tmp_path,
        {
            "tables/a.py": "from tables.b import thing\n",
            "tables/b.py": "from typing import TYPE_CHECKING\n"
            "if TYPE_CHECKING:\n    from .a import other\n",
        },
    )
    assert CHECKS["cycles"](modules) == ["tables.a -> tables.b"]


def test_a_planted_upward_import_is_found(tmp_path: Path) -> None:
    modules = plant(tmp_path, {"tables/a.py": "from game.b import x\n", "game/b.py": "x = 1\n"})
    assert CHECKS["layers"](modules) == ["tables.a imports game.b: not a lower layer"]


def test_a_planted_sideways_import_is_found(tmp_path: Path) -> None:
    modules = plant(tmp_path, {"engine/a.py": "import db.b\n", "db/b.py": "x = 1\n"})
    assert CHECKS["layers"](modules) == ["engine.a imports db.b: not a lower layer"]


def test_a_planted_package_outside_the_layers_is_found(tmp_path: Path) -> None:
    modules = plant(tmp_path, {"helpers/a.py": "x = 1\n"})
    assert CHECKS["layers"](modules) == ["package 'helpers' is in no layer"]


def test_a_planted_discord_import_in_db_is_found(tmp_path: Path) -> None:
    modules = plant(tmp_path, {"db/a.py": "import discord\n", "engine/b.py": "import asyncio\n"})
    assert CHECKS["purity"](modules) == [
        "db.a imports discord",
        "engine.b imports ['asyncio']: the engine must stay pure",
    ]


def test_a_planted_import_inside_a_function_is_found(tmp_path: Path) -> None:
    modules = plant(
        tmp_path,
        {
            "game/a.py": "def f():\n    from tables.b import x\n    import json\n",
            "tables/b.py": "x = 1\n",
        },
    )
    assert CHECKS["late imports"](modules) == ["game.a:2 imports tables.b inside a function"]


def test_a_planted_private_name_is_found(tmp_path: Path) -> None:
    modules = plant(
        tmp_path, {"engine/a.py": "from engine.b import _helper\n", "engine/b.py": "_helper = 1\n"}
    )
    assert CHECKS["private names"](modules) == ["engine.a:1 takes the private engine.b._helper"]


def test_a_planted_long_module_is_found(tmp_path: Path) -> None:
    modules = plant(tmp_path, {"db/a.py": "x = 1\n" * 601, "db/b.py": "x = 1\n" * 600})
    assert CHECKS["module size"](modules) == ["db.a has 601 lines, more than 600"]
    assert long_modules(modules, allowed={"db.a": "one table of ..."}) == []


def test_a_planted_long_function_is_found(tmp_path: Path) -> None:
    body = "        x = 1\n" * 79
    modules = plant(
        tmp_path,
        {
            "game/a.py": "class C:\n"
            "    async def long(self):\n" + body + "        return x\n"
            "    def fits(self):\n" + body + "\n",
            "game/b.py": "def outer():\n    def inner():\n" + body + "        return x\n",
        },
    )
    assert CHECKS["function size"](modules) == [
        "game.a:2 C.long has 81 lines, more than 80",
        "game.b:1 outer has 82 lines, more than 80",
        "game.b:2 outer.inner has 81 lines, more than 80",
    ]
    assert long_functions(modules, allowed={"game.a.C.long": "one table of ..."}) == [
        "game.b:1 outer has 82 lines, more than 80",
        "game.b:2 outer.inner has 81 lines, more than 80",
    ]


# --- the browser's side is built like the server ------------------------------------------------
def scripts(root: Path) -> dict[str, int]:
    """Every JavaScript file of the product that is not vendored: its lines."""
    found = {}
    for path in sorted(root.rglob("*.js")):
        relative = path.relative_to(root)
        if (relative.parts[0] in NOT_PRODUCT or "vendor" in relative.parts
                or "node_modules" in relative.parts
                or any(part.startswith(".") for part in relative.parts)):
            continue
        found[relative.as_posix()] = len(path.read_text(encoding="utf-8").splitlines())
    return found


def long_scripts(found: dict[str, int]) -> list[str]:
    return [f"{name} has {lines} lines, more than {MAX_MODULE_LINES}"
            for name, lines in found.items() if lines > MAX_MODULE_LINES]


def test_no_script_is_longer_than_a_module_may_be() -> None:
    found = scripts(ROOT)
    assert "web/static/main.js" in found and "fakediscord/local/web/client.js" in found
    assert long_scripts(found) == []


def test_a_planted_long_script_is_found(tmp_path: Path) -> None:
    (tmp_path / "web").mkdir()
    (tmp_path / "web" / "long.js").write_text("let x = 1;\n" * 601)
    (tmp_path / "web" / "vendor").mkdir()
    (tmp_path / "web" / "vendor" / "sdk.js").write_text("let x = 1;\n" * 5000)
    assert long_scripts(scripts(tmp_path)) == ["web/long.js has 601 lines, more than 600"]


def test_a_door_reaching_into_the_other_or_the_game_into_a_door_is_found(tmp_path: Path) -> None:
    modules = plant(
        tmp_path,
        {
            "chat/a.py": "from web.b import x\n",
            "web/b.py": "x = 1\n",
            "game/c.py": "from chat.a import x\n",
        },
    )
    assert CHECKS["layers"](modules) == [
        "chat.a imports web.b: not a lower layer",
        "game.c imports chat.a: not a lower layer",
    ]


def test_discord_loaded_by_the_activitys_door_is_found_but_for_its_sign_in(
    tmp_path: Path,
) -> None:
    modules = plant(
        tmp_path,
        {
            "web/server.py": "import game.moves\nimport transport.activity_api\n",
            "game/moves.py": "from typing import TYPE_CHECKING\nimport presentation.words\n"
            "if TYPE_CHECKING:\n    import transport.private\n",
            "presentation/words.py": "import discord\n",
            "transport/activity_api.py": "import discord\n",
            "transport/private.py": "import discord\n",
        },
    )
    # The sign-in client may, and a type-only import loads nothing.
    assert CHECKS["the Activity without discord.py"](modules) == [
        "presentation.words imports discord, and the Activity's door loads it"
    ]
