"""The folder layout is the architecture: these checks keep it honest."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FORBIDDEN_IN_ENGINE = {"discord", "asyncio", "aiosqlite", "sqlite3", "aiohttp", "socket"}


def _imported_roots(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    roots: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
    return roots


ENGINE_MODULES = sorted((ROOT / "engine").rglob("*.py"))


@pytest.mark.parametrize("module", ENGINE_MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_engine_module_is_pure(module: Path) -> None:
    bad = _imported_roots(module) & FORBIDDEN_IN_ENGINE
    assert not bad, f"{module.name} imports {sorted(bad)}: the engine must stay free of I/O"


def test_imported_roots_sees_both_import_forms(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text("import asyncio.subprocess\nfrom discord import ui\nfrom . import local\n")
    assert _imported_roots(sample) == {"asyncio", "discord"}
