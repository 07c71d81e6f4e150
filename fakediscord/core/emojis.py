"""Application emojis: what Discord accepts as one, checked before it is stored.

An application owns up to 2,000 emojis of its own, usable in any server
without a permission. Each has a name of 2 to 32 letters, digits or
underscores, unique within the application, and an image of at most 256 KiB
sent as a data URI (``data:image/png;base64,...``) of a PNG, JPEG, GIF, WEBP
or AVIF. The checks answer in Discord's words: field errors under code 50035
(the name taken: ``APPLICATION_EMOJI_NAME_ALREADY_TAKEN``; an image too big:
"File cannot be larger than 256.0 kb."), the 2,001st emoji code 30008.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Iterable
from dataclasses import dataclass

from .components import Reason

MAX_APPLICATION_EMOJIS = 2000
MAX_IMAGE_BYTES = 256 * 1024
NAME = re.compile(r"[A-Za-z0-9_]+")
NAME_LENGTH = (2, 32)
DATA_URI = re.compile(r"data:(?P<type>[\w.+-]+/[\w.+-]+);base64,(?P<data>.*)", re.DOTALL)

NAME_TAKEN: Reason = ("APPLICATION_EMOJI_NAME_ALREADY_TAKEN", "Emoji name already taken.")
TOO_BIG: Reason = ("BINARY_TYPE_MAX_SIZE", "File cannot be larger than 256.0 kb.")
INVALID_IMAGE: Reason = ("IMAGE_INVALID", "Invalid image data")


def name_error(name: object, taken: Iterable[str]) -> Reason | None:
    """Why ``name`` cannot name a new (or renamed) emoji, if it cannot."""
    low, high = NAME_LENGTH
    if not isinstance(name, str) or not low <= len(name) <= high:
        return ("BASE_TYPE_BAD_LENGTH", f"Must be between {low} and {high} in length.")
    if not NAME.fullmatch(name):
        return ("STRING_TYPE_REGEX", "String value did not match validation regex.")
    if name in taken:
        return NAME_TAKEN
    return None


@dataclass(frozen=True)
class Image:
    data: bytes
    content_type: str  # "image/png"...

    @property
    def animated(self) -> bool:
        return is_animated(self.data, self.content_type)


def decode_image(uri: object) -> Image | Reason:
    """The image of a data URI and its real type (read from its first bytes, as Discord
    does, not from what the URI claims), or why it is refused."""
    found = DATA_URI.fullmatch(uri) if isinstance(uri, str) else None
    if found is None:
        return INVALID_IMAGE
    try:
        data = base64.b64decode(found["data"], validate=True)
    except (binascii.Error, ValueError):
        return INVALID_IMAGE
    content_type = sniff(data)
    if content_type is None:
        return INVALID_IMAGE
    if len(data) > MAX_IMAGE_BYTES:
        return TOO_BIG
    return Image(data, content_type)


def sniff(data: bytes) -> str | None:
    """The image type of ``data`` from its signature; None if not one Discord takes."""
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image/png"
    if data.startswith(b"\xff\xd8\xff"):
        return "image/jpeg"
    if data.startswith((b"GIF87a", b"GIF89a")):
        return "image/gif"
    if data.startswith(b"RIFF") and data[8:12] == b"WEBP":
        return "image/webp"
    if data[4:12] == b"ftypavif":
        return "image/avif"
    return None


def is_animated(data: bytes, content_type: str) -> bool:
    """A GIF with more than one frame, or a WEBP with an animation chunk."""
    if content_type == "image/gif":
        return data.count(b"\x21\xf9\x04") > 1  # one graphic control block per frame
    if content_type == "image/webp":
        return b"ANIM" in data[:64]
    return False


# A 1x1 transparent PNG: the image of an emoji a test seeds without caring how it looks.
TINY_PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=")
