"""The container image, checked without a container engine: what the Dockerfile
says, and its start and health-check commands run as the image would run them."""

from __future__ import annotations

import asyncio
import json
import re
import signal
import sys
from pathlib import Path

from fakediscord import FakeDiscord
from tests.bot_process import BotProcess
from tests.ports import free_port
from tests.test_architecture import discover
from tests.test_requirements import distributions_of, pinned

ROOT = Path(__file__).resolve().parents[1]


def instructions() -> list[tuple[str, str]]:
    """The Dockerfile's instructions, continuation lines joined."""
    text = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    text = re.sub(r"\\\n\s*", " ", text)
    found = []
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            keyword, _, rest = line.partition(" ")
            found.append((keyword.upper(), rest.strip()))
    return found


def environment() -> dict[str, str]:
    env: dict[str, str] = {}
    for keyword, rest in instructions():
        if keyword == "ENV":
            env.update(re.findall(r"(\w+)=(\S+)", rest))
    return env


def exec_form(keyword: str) -> list[str]:
    (rest,) = [rest for kw, rest in instructions() if kw == keyword]
    rest = rest.split("CMD", 1)[1].strip() if keyword == "HEALTHCHECK" else rest
    command: list[str] = json.loads(rest)
    return command


def test_the_image_is_slim_runs_as_a_user_and_keeps_the_database_on_a_volume() -> None:
    steps = instructions()
    (base,) = [rest for keyword, rest in steps if keyword == "FROM"]
    assert re.fullmatch(r"python:3\.1[1-9]-slim", base)
    users = [rest for keyword, rest in steps if keyword == "USER"]
    assert users and users[-1] not in ("root", "0")
    (volume,) = [json.loads(rest) for keyword, rest in steps if keyword == "VOLUME"]
    assert str(Path(environment()["DATABASE_PATH"]).parent) in volume
    assert ("STOPSIGNAL", "SIGTERM") in steps
    assert exec_form("CMD") == ["python", "bot.py"]


LOCAL_STAND_IN = "fakediscord"


def test_the_image_holds_every_package_and_dependency_the_bot_imports() -> None:
    # The image plays on Discord only: the stand-in of local play stays out.
    modules = [m for m in discover(ROOT).values() if m.package != LOCAL_STAND_IN]
    packages = {module.package for module in modules if module.package != "bot"}
    third_party = {
        name
        for module in modules
        for name in module.external
        if name not in sys.stdlib_module_names and name != "__future__"
    }
    copied = {rest.split()[0] for keyword, rest in instructions() if keyword == "COPY"}
    assert packages <= copied, "a package of the bot is not copied into the image"
    assert "bot.py" in copied
    installs = [rest for keyword, rest in instructions() if keyword == "RUN" and "pip" in rest]
    assert installs == ["pip install -r requirements-bot.txt"]
    installed = pinned("requirements-bot.txt")
    for module in third_party:
        assert distributions_of(module) & installed, (
            f"{module} is imported by the bot but not in requirements-bot.txt")



async def test_the_images_start_and_health_check_commands_work(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    env = environment()
    port = free_port()
    env["DATABASE_PATH"] = str(tmp_path / Path(env["DATABASE_PATH"]).name)
    env["HEALTH_PORT"] = str(port)
    env["LOG_LEVEL"] = "INFO"  # the image's default; the test harness's is WARNING
    bot = await BotProcess.start(fake_discord, Path(env["DATABASE_PATH"]), tmp_path / "bot.log",
                                 extra_env=env)
    try:
        await bot.wait_connected(fake_discord)
        check = [sys.executable if part == "python" else part.replace("8080", str(port))
                 for part in exec_form("HEALTHCHECK")]
        # As the engine does after its start period: probe until healthy.
        for _ in range(20):
            probe = await asyncio.create_subprocess_exec(
                *check, stderr=asyncio.subprocess.DEVNULL
            )
            if await asyncio.wait_for(probe.wait(), 10) == 0:
                break
            await asyncio.sleep(0.5)
        else:
            raise AssertionError("the health check never passed:\n" + bot.log_tail())
        lines = (tmp_path / "bot.log").read_text().splitlines()
        assert lines and all(json.loads(line)["levelname"] for line in lines)  # LOG_FORMAT=json
        bot.process.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(bot.process.wait(), 10) == 0, bot.log_tail()
    finally:
        await bot.stop()
