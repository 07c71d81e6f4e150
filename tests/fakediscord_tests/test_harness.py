"""The fixtures' promise: a broken bot fails its test, even when every assertion passed."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

from fakediscord import FakeDiscord, run_client

from .sample_bot import SampleBot

ROOT = Path(__file__).resolve().parents[2]


async def test_a_crashed_client_task_is_reported(fake_discord: FakeDiscord) -> None:
    fake_discord.create_guild("Server")
    runner = await run_client(fake_discord, SampleBot())
    # 4004 cannot be resumed: discord.py's connect() raises and the task dies.
    await fake_discord.drop_gateway(code=4004, wait=False)
    await fake_discord.wait_for(lambda: runner.task.done())
    [problem] = await runner.stop()
    assert problem.startswith("the bot crashed") and "ConnectionClosed" in problem


async def test_errors_logged_by_discord_py_are_reported(fake_discord: FakeDiscord) -> None:
    guild = fake_discord.create_guild("Server")
    channel = fake_discord.create_text_channel(guild, "games")
    alice = fake_discord.create_user("alice", guild=guild)
    runner = await run_client(fake_discord, SampleBot())
    reply = await alice.slash(channel, "boom")
    assert reply.content == "About to fail"
    await fake_discord.wait_for(lambda: runner.logged_errors)
    [problem] = await runner.stop()
    assert "discord.py logged an error" in problem and "RuntimeError: boom" in problem


def test_fixtures_fail_a_test_that_leaves_problems(tmp_path: Path) -> None:
    """Run a tiny test file in a child pytest and read its verdicts."""
    (tmp_path / "test_child.py").write_text(textwrap.dedent("""
        from tests.conftest import fake_discord, start_bot  # noqa: F401
        from tests.fakediscord_tests.sample_bot import SampleBot

        async def test_unanswered(fake_discord, start_bot):
            guild = fake_discord.create_guild("S")
            channel = fake_discord.create_text_channel(guild, "c")
            alice = fake_discord.create_user("alice", guild=guild)
            fake_discord.interaction_timeout = 0.2
            await start_bot(SampleBot())
            await alice.slash(channel, "ignore")   # the test itself asserts nothing

        async def test_clean(fake_discord, start_bot):
            guild = fake_discord.create_guild("S")
            channel = fake_discord.create_text_channel(guild, "c")
            alice = fake_discord.create_user("alice", guild=guild)
            await start_bot(SampleBot())
            assert (await alice.slash(channel, "poke", who=alice)).answered
    """))
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-o", "asyncio_mode=auto",
         "-o", "asyncio_default_fixture_loop_scope=function",
         "--rootdir", str(tmp_path), str(tmp_path / "test_child.py")],
        capture_output=True, text=True, env=env, cwd=tmp_path, timeout=60, check=False)
    # The call phase of test_unanswered passes; its teardown errors.
    summary = result.stdout.strip().splitlines()[-1]
    assert "2 passed" in summary and "1 error" in summary, result.stdout + result.stderr
    assert "ERROR test_child.py::test_unanswered" in result.stdout
    assert "interaction /ignore by alice was not answered within 0.2 s" in result.stdout
