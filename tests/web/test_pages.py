"""Every open page, by member and instance: a member's pages past the limit
push out their oldest, and all of them draw on one allowance."""

from __future__ import annotations

from dataclasses import dataclass

from web.pages import MEMBER_BURST, OpenPages


@dataclass(eq=False)
class FakePage:
    user_id: int
    instance_id: str

    async def end(self, code: int, reason: str) -> None:
        raise AssertionError("the registry never closes a page itself")


def test_a_members_fourth_page_pushes_out_their_first() -> None:
    pages = OpenPages(per_member=3)
    ann = [FakePage(1, "i-1") for _ in range(4)]
    bob = FakePage(2, "i-1")
    assert pages.opened(bob) == []
    assert [pages.opened(page) for page in ann[:3]] == [[], [], []]
    assert pages.opened(ann[3]) == [ann[0]]
    assert pages.of_member(1) == ann[1:]
    assert set(pages.in_instance("i-1")) == {*ann[1:], bob}
    pages.closed(bob)
    assert list(pages.in_instance("i-1")) and pages.of_member(2) == []
    assert len(pages) == 3


def test_a_members_pages_share_one_allowance() -> None:
    pages = OpenPages()
    allowance = pages.allowance(1)
    assert pages.allowance(1) is allowance and pages.allowance(2) is not allowance
    assert sum(allowance.take() for _ in range(MEMBER_BURST + 5)) == MEMBER_BURST
