"""Local play's saved world: written as JSON its owner alone may read, read
back by the stand-in's own declared types, and set aside with one line when it
is from another version, damaged, or crafted to run something."""

from __future__ import annotations

import json
import logging
import stat
from pathlib import Path

import pytest

from fakediscord.core.installs import GUILD_INSTALL, USER_INSTALL
from fakediscord.core.world import World
from fakediscord.local.snapshot import FORMAT, load_world, save_world


def busy_world() -> World:
    world = World()
    guild = world.create_guild("Server")
    games = world.create_channel(guild, "games")
    alice = world.create_user("alice")
    world.add_member(guild, alice)
    world.enable_activities()
    world.launch_activity(alice.id, games.id)
    world.add_message(games, alice.id, {"content": f"hello <@{alice.id}>"})
    world.add_application_emoji("ace", b"\x89PNG\r\n\x1a\nfake", "image/png")
    return world


def test_a_saved_world_keeps_its_people_messages_secret_activities_and_tokens(
    tmp_path: Path,
) -> None:
    world = busy_world()
    alice = next(u for u in world.users.values() if u.name == "alice")
    token = world.oauth.exchange(world.issue_oauth_code(alice.id, ["identify"]))
    assert token is not None
    pending = world.issue_oauth_code(alice.id, ["identify"])
    save_world(world, tmp_path / "w.world")

    loaded = load_world(tmp_path / "w.world")
    assert loaded is not None
    assert loaded.client_secret == world.client_secret and loaded.activities_enabled
    assert loaded.entry_point() == world.entry_point()
    assert [m.content for m in loaded.messages.values()] == [
        m.content for m in world.messages.values()]
    (instance,) = loaded.activity_instances.values()
    assert instance.users == [alice.id]
    assert loaded.activity_launches == world.activity_launches
    assert loaded.oauth.token(token.access_token) is not None
    assert loaded.oauth.refresh(token.refresh_token) is not None
    assert loaded.oauth.exchange(pending) is not None
    (emoji,) = loaded.application_emojis.values()
    assert emoji.image == b"\x89PNG\r\n\x1a\nfake"
    # One person is one object: a member's user is the world's.
    guild = next(iter(loaded.guilds.values()))
    assert guild.members[alice.id].user is loaded.users[alice.id]
    assert loaded.bot is loaded.users[loaded.bot.id]
    # New ids carry on after the saved ones.
    assert loaded.ids.next() > max(loaded.messages)


def test_a_saved_world_keeps_where_the_app_is_installed(tmp_path: Path) -> None:
    world = World()
    person = world.create_user("Ann")
    world.enable_user_install()
    world.install_for_user(person)
    save_world(world, tmp_path / "w.world")
    loaded = load_world(tmp_path / "w.world")
    assert loaded is not None
    assert loaded.installation_contexts == [GUILD_INSTALL, USER_INSTALL]
    assert loaded.user_installs == {person.id}


def test_the_saved_world_is_for_its_owner_alone(tmp_path: Path) -> None:
    path = tmp_path / "w.world"
    path.write_text("old")
    path.chmod(0o644)
    save_world(busy_world(), path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert json.loads(path.read_text())["format"] == FORMAT


def _short_text(text: str) -> bytes:
    raw = text.encode()
    return b"\x8c" + bytes([len(raw)]) + raw


# A pickle (protocol 4) that names a global by a dotted path inside the stand-in's
# own module, walking from fakediscord.world through its imports to os.system:
# an unpickler that checks only the module name runs the command.
WALKS_TO_OS_SYSTEM = (
    b"\x80\x04" + _short_text("fakediscord.world") + _short_text("asyncio.events.os.system")
    + b"\x93" + _short_text("touch pwned") + b"\x85R."
)


def test_an_old_pickle_crafted_to_run_a_command_runs_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture,
) -> None:
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "w.world"
    path.write_bytes(WALKS_TO_OS_SYSTEM)
    with caplog.at_level(logging.WARNING):
        assert load_world(path) is None
    assert not (tmp_path / "pwned").exists()
    assert not path.exists() and (tmp_path / "w.world.unreadable").exists()
    (line,) = [r.getMessage() for r in caplog.records]
    assert "starting afresh" in line and "\n" not in line


@pytest.mark.parametrize("damage", [
    "drop a field", "an unknown field", "a wrong type", "another format", "cut short",
])
def test_a_file_from_another_version_or_damaged_is_set_aside_with_one_line(
    tmp_path: Path, damage: str, caplog: pytest.LogCaptureFixture,
) -> None:
    path = tmp_path / "w.world"
    save_world(busy_world(), path)
    data = json.loads(path.read_text())
    message = next(iter(data["world"]["messages"].values()))
    if damage == "drop a field":
        del data["world"]["client_secret"]
    elif damage == "an unknown field":
        message["__class__"] = "os.system"
    elif damage == "a wrong type":
        message["content"] = ["not", "text"]
    elif damage == "another format":
        data["format"] = "fakediscord-world/0"
    text = json.dumps(data)
    path.write_text(text[: len(text) // 2] if damage == "cut short" else text)
    with caplog.at_level(logging.WARNING):
        assert load_world(path) is None
    assert (tmp_path / "w.world.unreadable").exists()
    assert len(caplog.records) == 1 and caplog.records[0].exc_info is None
    # The next start begins afresh with no file in the way.
    assert load_world(path) is None
