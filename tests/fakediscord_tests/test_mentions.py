"""Who a message notifies, as Discord decides it: mentions in the content and
in a layout's text, filtered by ``allowed_mentions``; never an ephemeral
message, an edit, or an embed."""

from __future__ import annotations

from typing import Any

from discord.http import Route

from .conftest import Scene
from .test_components_v2 import container, layout, post, text


def pings_of(scene: Scene, message_id: str) -> list[str]:
    return scene.emu.world.messages[int(message_id)].pings


async def test_mentions_notify_unless_allowed_mentions_says_not(scene: Scene) -> None:
    alice = scene.alice.id
    said = f"@everyone look, <@{alice}> and <@&{scene.guild.id}>"
    plain = await post(scene, {"content": said})
    assert pings_of(scene, plain["id"]) == [
        "everyone", f"user:{alice}", f"role:{scene.guild.id}"
    ]
    # A layout's text pings exactly as content does.
    boxed = await post(scene, layout(container(text(f"@here <@{alice}>"))))
    assert pings_of(scene, boxed["id"]) == ["everyone", f"user:{alice}"]
    # Nothing allowed: nothing notifies, though the text is the same.
    quiet = await post(scene, {"content": said, "allowed_mentions": {"parse": []}})
    assert pings_of(scene, quiet["id"]) == []
    # Only the users listed.
    listed = await post(scene, {"content": said,
                                "allowed_mentions": {"parse": [], "users": [str(alice)]}})
    assert pings_of(scene, listed["id"]) == [f"user:{alice}"]
    # Embeds never notify.
    embedded = await post(scene, {"embeds": [{"description": said}]})
    assert pings_of(scene, embedded["id"]) == []


async def test_an_edit_that_adds_a_mention_notifies_nobody(scene: Scene) -> None:
    made = await post(scene, {"content": "hello", "allowed_mentions": {"parse": []}})
    route = Route("PATCH", "/channels/{channel_id}/messages/{message_id}",
                  channel_id=scene.channel.id, message_id=made["id"])
    body: dict[str, Any] = {"content": f"@everyone <@{scene.alice.id}>"}
    await scene.bot.http.request(route, json=body)
    assert pings_of(scene, made["id"]) == []
    assert [ping for _, ping in scene.emu.world.pings()] == []
