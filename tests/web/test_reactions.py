"""Quick reactions at the table: shown on every page of the channel, checked
against the table's emotes, and limited per member, whatever their pages."""

from __future__ import annotations

from typing import Any

from web.reactions import BURST, Reactions


class Heard:
    def __init__(self) -> None:
        self.frames: list[dict[str, Any]] = []

    def __call__(self, frame: dict[str, Any]) -> None:
        self.frames.append(frame)


def test_a_reaction_reaches_every_page_of_its_channel_and_no_other() -> None:
    reactions = Reactions()
    ann, bob, elsewhere = Heard(), Heard(), Heard()
    reactions.listen(1, ann)
    reactions.listen(1, bob)
    reactions.listen(2, elsewhere)
    assert reactions.send(1, 42, "🎉", "Ann") is True
    # Named too: a page may hear the reaction before Discord tells it who Ann is.
    frame = {"type": "reaction", "user": "42", "emote": "🎉", "name": "Ann"}
    assert ann.frames == [frame] and bob.frames == [frame]
    assert elsewhere.frames == []


def test_only_the_tables_emotes_are_passed_on() -> None:
    reactions = Reactions()
    page = Heard()
    reactions.listen(1, page)
    for made_up in ("<script>", "💩", 7, None, "👍" * 2):
        assert reactions.send(1, 42, made_up) is None
    assert page.frames == []


def test_a_member_gets_a_burst_then_is_refused_while_others_are_not() -> None:
    reactions = Reactions()
    page = Heard()
    reactions.listen(1, page)
    sent = [reactions.send(1, 42, "👍") for _ in range(BURST + 5)]
    assert sent == [True] * BURST + [False] * 5
    assert len(page.frames) == BURST
    assert reactions.send(1, 43, "🔥") is True  # another member's allowance is their own
    assert len(page.frames) == BURST + 1


def test_a_page_that_stopped_listening_hears_nothing_more() -> None:
    reactions = Reactions()
    page = Heard()
    reactions.listen(1, page)
    reactions.unlisten(1, page)
    reactions.unlisten(1, page)
    reactions.send(1, 42, "😮")
    assert page.frames == [] and reactions.listening(1) == 0

