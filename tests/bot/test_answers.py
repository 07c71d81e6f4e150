"""Answers sent without reading the message back (transport/callbacks.py) keep the rules
of interaction.response: one answer, retried when rate limited, and a click that
came too late is neither answered twice nor undone."""

from __future__ import annotations

import discord
import pytest
from discord.utils import MISSING

from chat.messages.components import Controls, button
from transport.callbacks import message_data

from .conftest import LaunchBot, Server
from .test_play import heads_up


def test_message_body_clears_with_none_and_keeps_what_is_missing() -> None:
    embed = discord.Embed(title="Your hand")
    controls = Controls([button("x:1", "Draw")])
    quiet = {"allowed_mentions": {"parse": []}}  # nobody is pinged by an answer
    assert message_data(embed=embed, controls=controls) == {
        **quiet,
        "embeds": [embed.to_dict()],
        "components": [{"type": 1, "components": controls.rows[0]}],
    }
    assert message_data(controls=None) == {**quiet, "components": []}
    assert message_data(content="hi", embed=None) == {**quiet, "content": "hi", "embeds": []}
    assert message_data(embed=MISSING, controls=MISSING) == quiet


async def test_a_rate_limited_answer_is_retried(server: Server, launch: LaunchBot) -> None:
    _, first, _ = await heads_up(server, launch)
    await first.open_hand()
    held = len(first.hand())
    limited = server.emu.fail_next("POST /interactions/*/callback", status=429, retry_after=0.05)
    reply = await first.draw()
    assert limited.hits == 1
    assert reply.answered and len(first.hand()) == held + 1


async def test_a_click_answered_too_late_is_kept_and_not_answered_again(
    server: Server, launch: LaunchBot, caplog: pytest.LogCaptureFixture
) -> None:
    bot, first, _ = await heads_up(server, launch)
    await first.open_hand()
    held = len(first.hand())
    server.emu.interaction_timeout = 0.5
    gone = server.emu.fail_next(
        "POST /interactions/*/callback", status=404, code=10062, message="Unknown interaction"
    )
    late = await first.draw()
    await bot.game.tasks.wait_idle()
    assert gone.hits == 1 and not late.answered
    assert server.emu.take_problems() == [
        f"interaction {late.interaction.description} was not answered within 0.5 s"
    ]
    assert "answered too late" in caplog.text
    # One try only: no second answer and no follow-up message for the dead click.
    callbacks = [
        r for r in server.emu.requests if f"/interactions/{late.interaction.id}/" in r.path
    ]
    assert len(callbacks) == 1
    # The draw itself happened (it was saved before the answer); a fresh hand view shows it.
    table = bot.game.tables.get(server.channel.id)
    assert table is not None and table.match is not None
    assert len(table.match.hand.hand_of(first.key)) == held + 1
    reopened = await first.open_hand()
    assert reopened.answered and len(first.hand()) == held + 1
