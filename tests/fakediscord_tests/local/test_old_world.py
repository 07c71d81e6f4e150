"""Upgrading local play keeps its world: a world the release before saved (a
pickle) is read once, allowing the stand-in's own records and nothing else,
and saved again as JSON only its owner may read. One that cannot be read is
set aside, for its owner alone, with the bot's database of that world."""

from __future__ import annotations

import logging
import pickle
import shutil
import stat
from pathlib import Path

import pytest

from fakediscord.core.world import ChannelType
from fakediscord.local.old_world import NotAnOldWorld, old_world
from fakediscord.local.play import LocalPlay
from fakediscord.local.snapshot import FORMAT, load_world

from .old_release import OLD_RELEASE_FILE, old_release_world
from .test_snapshot import WALKS_TO_OS_SYSTEM, _short_text


def old_file(tmp_path: Path) -> Path:
    path = tmp_path / "rummy-local.world"
    shutil.copy(OLD_RELEASE_FILE, path)
    path.chmod(0o644)  # as the old release left it
    return path


def test_a_world_the_previous_release_saved_goes_on(tmp_path: Path) -> None:
    path = old_file(tmp_path)
    world = load_world(path)
    assert world is not None
    users = {user.name: user for user in world.users.values()}
    assert set(users) == {"Rummy", "app-owner", "Ann"}
    ann = users["Ann"]
    assert ann.avatar is None  # a field the old release did not have
    (guild,) = world.guilds.values()
    assert guild.members[ann.id].user is ann
    (games,) = [c for c in world.channels.values() if c.type == ChannelType.GUILD_TEXT]
    hello, hand = (world.messages[i] for i in world.channel_log[games.id])
    assert hello.content == f"hello <@{ann.id}>"
    # Ann's own hand, as only she sees it, with its picture.
    assert hand.content == "Your hand: 7♥ 8♥ 9♥" and hand.ephemeral
    assert hand.visible_to == ann.id and type(hand.flags) is int
    assert hand.file_data == {"hand.png": b"\x89PNG\r\n\x1a\nhand"}
    (interaction,) = world.interactions.values()
    assert world.interaction_by_token(interaction.token) is interaction
    # The application's secret, Activity and grants are the old world's.
    (instance,) = world.activity_instances.values()
    assert instance.users == [ann.id] and world.activity_launches == [(ann.id,
                                                                        instance.instance_id)]
    # (Held, not checked for expiry: the file's codes expired minutes after it was made.)
    (pending,) = world.oauth.codes.values()
    (token,) = world.oauth.tokens.values()
    assert pending.user_id == token.user_id == ann.id
    assert world.oauth.refresh_tokens == {token.refresh_token: token}
    (emoji,) = world.application_emojis.values()
    assert emoji.image == b"\x89PNG\r\n\x1a\nfake"
    assert world.ids.next() > max(world.messages)
    # Saved again at once, as JSON for its owner alone: the pickle is gone.
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert path.read_text().startswith('{"format":"' + FORMAT)
    assert not list(tmp_path.glob("*.unreadable"))
    again = load_world(path)
    assert again is not None and again.client_secret == world.client_secret


def test_the_test_fixture_writes_as_the_previous_release_did(tmp_path: Path) -> None:
    """``old_release_world`` stands for the old release in the browser test:
    written from the world it reads, a file it wrote itself reads the same."""
    written = OLD_RELEASE_FILE.read_bytes()
    world = load_world(old_file(tmp_path))
    assert world is not None
    assert old_world(old_release_world(world)) == old_world(written)


def _pickle(module: str, name: str, argument: str) -> bytes:
    """A protocol 4 pickle that calls ``module.name(argument)``."""
    return (b"\x80\x04" + _short_text(module) + _short_text(name) + b"\x93"
            + _short_text(argument) + b"\x85R.")


@pytest.mark.parametrize("crafted", [
    WALKS_TO_OS_SYSTEM,
    _pickle("os", "system", "touch pwned"),
    _pickle("builtins", "eval", "open('pwned', 'w')"),
    _pickle("fakediscord.world", "World.__init__.__globals__", "x"),
    # A class it knows, called: the stand-in for it takes nothing.
    _pickle("fakediscord.models", "User", "touch pwned"),
    _pickle("fakediscord.models", "MessageFlag", "64"),
    pickle.dumps({"not": "a world"}),
    b"\x80\x05 cut short",
], ids=["dotted", "os.system", "eval", "globals", "a record called", "flags", "a dict",
        "cut short"])
def test_an_old_file_that_is_no_world_runs_nothing_and_is_kept_for_its_owner(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, crafted: bytes,
    caplog: pytest.LogCaptureFixture,
) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(NotAnOldWorld):
        old_world(crafted)
    path = tmp_path / "rummy-local.world"
    path.write_bytes(crafted)
    path.chmod(0o644)
    with caplog.at_level(logging.WARNING):
        assert load_world(path) is None
    assert not (tmp_path / "pwned").exists()
    aside = tmp_path / "rummy-local.world.unreadable"
    assert not path.exists() and aside.read_bytes() == crafted
    assert stat.S_IMODE(aside.stat().st_mode) == 0o600
    (line,) = [r.getMessage() for r in caplog.records]
    assert "starting afresh" in line and "\n" not in line


async def test_the_bot_database_of_a_world_set_aside_is_set_aside_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "rummy-local.world").write_bytes(b"\x80\x05 damaged")
    database = tmp_path / "rummy-local.sqlite3"
    for name in ("rummy-local.sqlite3", "rummy-local.sqlite3-wal"):
        (tmp_path / name).write_text(name)
    local = await LocalPlay(host="127.0.0.1", port=0,
                            snapshot=tmp_path / "rummy-local.world").start()
    try:
        told = local.bot_environment(database)
    finally:
        await local.close()
    # The bot starts on an empty database: no live table in a channel that is gone.
    assert told["DATABASE_PATH"] == str(database) and not database.exists()
    assert not (tmp_path / "rummy-local.sqlite3-wal").exists()
    for name in ("rummy-local.sqlite3.orphaned", "rummy-local.sqlite3.orphaned-wal"):
        kept = tmp_path / name
        assert kept.read_text() == name.replace(".orphaned", "")
        assert stat.S_IMODE(kept.stat().st_mode) == 0o600


async def test_a_world_read_keeps_the_bot_database(tmp_path: Path) -> None:
    old_file(tmp_path)
    database = tmp_path / "rummy-local.sqlite3"
    database.write_text("the bot's games")
    local = await LocalPlay(host="127.0.0.1", port=0,
                            snapshot=tmp_path / "rummy-local.world").start()
    try:
        local.bot_environment(database)
    finally:
        await local.close()
    assert database.read_text() == "the bot's games"
