"""Every open page of the Activity, by member and by instance.

A member may have the table open on a few devices at once (a desktop and a
phone, and a page reconnecting), never forty: past ``PAGES_PER_MEMBER`` the
oldest of their pages is closed, told why, and does not reconnect by itself.
All of a member's pages draw on one allowance of frames (``MEMBER_BURST``
then ``MEMBER_RATE`` a second), so opening more pages never buys more, and
on one allowance of hellos (``HELLO_BURST`` then ``HELLO_RATE``), so neither
does opening and closing them in a loop.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Protocol

from .limits import Bucket, KeyedBuckets

PAGES_PER_MEMBER = 3
MEMBER_BURST = 24
MEMBER_RATE = 10.0
# Hellos of one member's pages: a few devices and reconnects at once, then one a
# second. Each hello may ask Discord (is the member in the instance?) and the
# database (which process serves the server?); a loop of them must not.
HELLO_BURST = 10
HELLO_RATE = 1.0


class Page(Protocol):
    """What the registry needs of a page: whose it is, where, and how to end it."""

    @property
    def user_id(self) -> int: ...

    @property
    def instance_id(self) -> str: ...

    async def end(self, code: int, reason: str) -> None: ...


class OpenPages:
    def __init__(self, per_member: int = PAGES_PER_MEMBER) -> None:
        self.per_member = per_member
        self._of_member: dict[int, list[Page]] = {}
        self._in_instance: dict[str, set[Page]] = {}
        self._allowances: KeyedBuckets[int] = KeyedBuckets(MEMBER_BURST, MEMBER_RATE)
        self._hellos: KeyedBuckets[int] = KeyedBuckets(HELLO_BURST, HELLO_RATE)

    def allowance(self, user_id: int) -> Bucket:
        """The frames all of the member's pages share."""
        return self._allowances.of(user_id)

    def hello_allowed(self, user_id: int) -> bool:
        """Whether the member may open one more page now."""
        return self._hellos.take(user_id)

    def opened(self, page: Page) -> list[Page]:
        """Count ``page`` in; the member's older pages it pushes over the limit,
        for the caller to close."""
        pages = self._of_member.setdefault(page.user_id, [])
        pages.append(page)
        self._in_instance.setdefault(page.instance_id, set()).add(page)
        over = pages[: max(0, len(pages) - self.per_member)]
        for old in over:
            self.closed(old)
        return over

    def closed(self, page: Page) -> None:
        pages = self._of_member.get(page.user_id, [])
        if page in pages:
            pages.remove(page)
            if not pages:
                del self._of_member[page.user_id]
        present = self._in_instance.get(page.instance_id)
        if present is not None:
            present.discard(page)
            if not present:
                del self._in_instance[page.instance_id]

    def of_member(self, user_id: int) -> list[Page]:
        return list(self._of_member.get(user_id, ()))

    def in_instance(self, instance_id: str) -> Iterator[Page]:
        yield from list(self._in_instance.get(instance_id, ()))

    def __len__(self) -> int:
        return sum(len(pages) for pages in self._of_member.values())
