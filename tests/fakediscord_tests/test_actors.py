"""The sample bot driven by actors: commands, buttons, selects, modals, DMs, edits."""

from __future__ import annotations

import asyncio

import pytest

from fakediscord import Message

from .conftest import Scene


async def test_slash_command_with_options_posts_lobby(scene: Scene) -> None:
    reply = await scene.alice.slash(scene.channel, "game start", target=50, ace="high_or_low")
    assert reply.answered and reply.type == 4 and not reply.ephemeral
    assert "First to 50, aces high_or_low" in reply.text()
    assert [b["label"] for b in reply.buttons()] == ["Join", "Refresh", "Closed", "Rules"]
    assert reply.latency is not None and reply.latency >= 0
    assert reply.message is not None and scene.emu.messages(scene.channel) == [reply.message]
    created = scene.emu.dispatched("MESSAGE_CREATE")
    assert [m["id"] for m in created] == [str(reply.message.id)]


async def test_slash_refuses_what_the_client_would_not_offer(scene: Scene) -> None:
    with pytest.raises(AssertionError, match="requires option"):
        await scene.alice.slash(scene.channel, "game start")
    with pytest.raises(AssertionError, match="above the maximum"):
        await scene.alice.slash(scene.channel, "game start", target=501)
    with pytest.raises(AssertionError, match="not among the choices"):
        await scene.alice.slash(scene.channel, "game start", target=5, ace="sideways")
    with pytest.raises(AssertionError, match="no option"):
        await scene.alice.slash(scene.channel, "game start", target=5, colour="red")
    with pytest.raises(AssertionError, match="not a synced command"):
        await scene.alice.slash(scene.channel, "nope")
    with pytest.raises(AssertionError, match="cannot see /purge"):
        await scene.alice.slash(scene.channel, "purge")
    assert (await scene.bob.slash(scene.channel, "purge")).content == "Purged"


async def test_user_option_is_resolved(scene: Scene) -> None:
    reply = await scene.alice.slash(scene.channel, "poke", who=scene.bob)
    assert reply.content == "alice pokes bob"


async def test_button_click_updates_message_it_is_on(scene: Scene) -> None:
    lobby = (await scene.alice.slash(scene.channel, "game start", target=50)).message
    assert lobby is not None
    reply = await scene.bob.click(lobby, label="Join")
    assert reply.type == 7 and reply.message is lobby
    assert lobby.content == f"Players: <@{scene.bob.id}>" and lobby.edits == 1
    again = await scene.bob.click(lobby, label="Join")  # a fresh interaction every time
    assert again.ephemeral and again.content == "You already joined."
    assert scene.alice.visible_messages(scene.channel) == [lobby]
    assert again.message in scene.bob.visible_messages(scene.channel)


async def test_two_players_click_at_the_same_moment(scene: Scene) -> None:
    lobby = (await scene.alice.slash(scene.channel, "game start", target=50)).message
    assert lobby is not None
    replies = await asyncio.gather(scene.alice.click(lobby, label="Join"),
                                   scene.bob.click(lobby, custom_id="sample:join"))
    assert all(r.answered for r in replies)
    assert sorted(scene.bot.tables[scene.channel.id]) == sorted([scene.alice.id, scene.bob.id])
    assert str(scene.alice.id) in lobby.content and str(scene.bob.id) in lobby.content


async def test_disabled_missing_and_link_buttons_cannot_be_clicked(scene: Scene) -> None:
    lobby = (await scene.alice.slash(scene.channel, "game start", target=50)).message
    assert lobby is not None
    with pytest.raises(AssertionError, match="disabled"):
        await scene.alice.click(lobby, label="Closed")
    with pytest.raises(AssertionError, match="no button"):
        await scene.alice.click(lobby, label="Leave")
    with pytest.raises(AssertionError, match="link"):
        await scene.alice.click(lobby, label="Rules")


async def test_clicking_a_disabled_button_on_purpose_reaches_the_bot(scene: Scene) -> None:
    lobby = (await scene.alice.slash(scene.channel, "game start", target=50)).message
    assert lobby is not None
    scene.emu.interaction_timeout = 0.3  # nobody handles "sample:closed": keep the test short
    reply = await scene.alice.click(lobby, label="Closed", allow_disabled=True)
    assert not reply.answered
    [problem] = scene.emu.take_problems()
    assert "click 'Closed' by alice was not answered" in problem


async def test_deferred_update_then_edit_of_original(scene: Scene) -> None:
    lobby = (await scene.alice.slash(scene.channel, "game start", target=50)).message
    assert lobby is not None
    reply = await scene.alice.click(lobby, label="Refresh")
    assert reply.type == 6
    assert reply.message is lobby and lobby.content == "Refreshed 1 time(s)"


async def test_ephemeral_select_only_for_its_owner(scene: Scene) -> None:
    hand = await scene.alice.slash(scene.channel, "hand")
    assert hand.ephemeral and hand.message is not None
    assert hand.message in scene.alice.visible_messages(scene.channel)
    assert hand.message not in scene.bob.visible_messages(scene.channel)
    assert scene.emu.messages(scene.channel) == []
    assert scene.emu.dispatched("MESSAGE_CREATE") == []  # ephemerals never reach the gateway
    with pytest.raises(AssertionError, match="ephemeral for someone else"):
        await scene.bob.select(hand.message, "cards", ["10H"])
    with pytest.raises(AssertionError, match="offers"):
        await scene.alice.select(hand.message, "cards", ["AS"])
    with pytest.raises(AssertionError, match="takes 1 to 3 values"):
        await scene.alice.select(hand.message, "cards", ["10H", "10S", "10D", "10C"])
    picked = await scene.alice.select(hand.message, "Pick cards", ["10H", "10S", "10D"])
    assert picked.type == 7 and picked.ephemeral
    assert picked.message is hand.message
    assert hand.content == "You picked 10H 10S 10D" and hand.components == []


async def test_a_forged_select_value_reaches_the_bot(scene: Scene) -> None:
    hand = await scene.alice.slash(scene.channel, "hand")
    assert hand.message is not None
    # What a modified client can send: a value the select never offered.
    forged = await scene.alice.forge_select(hand.message, "sample:cards", ["AS"])
    assert forged.type == 7 and hand.content == "You picked AS"


async def test_deferred_thinking_is_filled_by_first_followup(scene: Scene) -> None:
    reply = await scene.alice.slash(scene.channel, "slow")
    assert reply.type == 5
    assert reply.message is not None and not reply.message.loading
    assert reply.content == "Done thinking" and not reply.ephemeral
    await scene.emu.wait_for(lambda: len(reply.followups) == 2)
    assert reply.followups[0] is reply.message
    assert reply.followups[1].ephemeral and reply.followups[1].content == "And one more thing"
    assert scene.emu.messages(scene.channel) == [reply.message]


async def test_ephemeral_defer_stays_ephemeral(scene: Scene) -> None:
    reply = await scene.alice.slash(scene.channel, "slow", private=True)
    assert reply.ephemeral and reply.content == "Done thinking"


async def test_channel_message_edit(scene: Scene) -> None:
    reply = await scene.alice.slash(scene.channel, "edit")
    message_id = int(await scene.emu.wait_for(lambda: reply.content.removeprefix("Edited ")
                                              if reply.content.startswith("Edited ") else ""))
    message = scene.emu.message(scene.channel, message_id)
    assert message is not None and message.content == "version 2" and message.edits == 1
    assert [m["content"] for m in scene.emu.dispatched("MESSAGE_UPDATE")] == ["version 2"]


async def test_file_upload_is_multipart(scene: Scene) -> None:
    reply = await scene.alice.slash(scene.channel, "upload")
    assert reply.message is not None
    [attachment] = reply.message.attachments
    assert attachment["filename"] == "hand.txt" and attachment["size"] == 11
    assert reply.message.file_data["hand.txt"] == b"10H 10S 10D"


async def test_dm_reaches_the_member(scene: Scene) -> None:
    reply = await scene.alice.slash(scene.channel, "dm", who=scene.bob)
    assert reply.content == "DM sent to bob"
    [dm] = scene.bob.dms()
    assert dm.content == "Psst, from alice" and dm.author_id == scene.emu.bot_user.id
    assert scene.alice.dms() == []


async def test_slash_and_followups_in_a_dm(scene: Scene) -> None:
    reply = await scene.alice.slash(scene.alice.dm_channel, "slow")
    assert reply.content == "Done thinking"
    await scene.emu.wait_for(lambda: len(scene.alice.dms()) == 2)
    assert [m.content for m in scene.alice.dms()] == ["Done thinking", "And one more thing"]
    with pytest.raises(AssertionError, match="not in"):
        await scene.bob.slash(scene.alice.dm_channel, "slow")


async def test_modal_round_trip(scene: Scene) -> None:
    opened = await scene.alice.slash(scene.channel, "feedback")
    assert opened.type == 9 and opened.modal is not None
    assert opened.modal["title"] == "Feedback"
    with pytest.raises(AssertionError, match="required"):
        await scene.alice.submit_modal(opened, {})
    thanks = await scene.alice.submit_modal(opened, {"sample:feedback:text": "great game"})
    assert thanks.ephemeral and thanks.content == "Thanks: great game"


async def test_user_messages_reach_the_bot(scene: Scene) -> None:
    await scene.alice.say(scene.channel, "!hello")

    def greeting() -> list[Message]:
        return [m for m in scene.emu.messages(scene.channel) if m.content == "Hello alice"]

    [answer] = await scene.emu.wait_for(greeting)
    assert answer.author_id == scene.emu.bot_user.id
