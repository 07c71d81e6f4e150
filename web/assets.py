"""The page's static files under names that change with their content.

Discord's proxy strips cache headers from the page itself, so every other file
is served as ``name.<hash>.ext`` and cached for good: a new version of a file
is a new name, which the page (never cached) asks for. References between the
files are written ``@asset(path)`` and replaced by the hashed name, relative to
the file that holds them: every file but the page lies flat in ``assets/``.
"""

from __future__ import annotations

import gzip
import hashlib
import mimetypes
import re
from dataclasses import dataclass
from pathlib import Path

STATIC = Path(__file__).resolve().parent / "static"
REFERENCE = re.compile(r"@asset\(([\w./-]+)\)")
# The files that refer to others are hashed after those they refer to.
TEXT_KINDS = (".css", ".js", ".html", ".svg", ".txt")


@dataclass(frozen=True)
class Asset:
    path: str  # where the page asks for it (hashed, except the page itself)
    body: bytes
    content_type: str
    # The body compressed once, for browsers that take gzip (every one does):
    # a phone on a slow line loads the SDK in a third of the bytes.
    gzipped: bytes = b""


class AssetError(ValueError):
    """A reference to a file that is not there."""


def _hashed(name: str, body: bytes) -> str:
    digest = hashlib.sha256(body).hexdigest()[:12]
    stem, dot, ext = name.rpartition(".")
    return f"{stem}.{digest}.{ext}" if dot else f"{name}.{digest}"


def _order(path: Path) -> int:
    """Files nothing refers to come last: the page, then the script that loads the rest."""
    if path.suffix == ".html":
        return 2
    return 1 if path.name == "table.js" else 0


def load(root: Path = STATIC, page: str = "index.html") -> dict[str, Asset]:
    """Every static file by the path the page asks for it at; ``page`` is served
    at ``""`` under its own name, never hashed."""
    names: dict[str, str] = {}  # a file's path in the static folder -> its hashed name
    assets: dict[str, Asset] = {}
    for path in sorted(root.rglob("*"), key=lambda p: (_order(p), str(p))):
        if not path.is_file():
            continue
        name = path.relative_to(root).as_posix()
        body = path.read_bytes()
        if path.suffix in TEXT_KINDS:
            def swap(found: re.Match[str], name: str = name) -> str:
                wanted = found.group(1)
                if wanted not in names:
                    raise AssetError(f"{name} refers to {wanted}, which is not a static file")
                return ("assets/" if name == page else "") + names[wanted]
            body = REFERENCE.sub(swap, body.decode("utf-8")).encode("utf-8")
        content_type = mimetypes.guess_type(name)[0] or "application/octet-stream"
        if path.suffix == ".js":
            content_type = "text/javascript"
        if name == page:
            served = name
        else:
            names[name] = _hashed(name.replace("/", "-"), body)
            served = "assets/" + names[name]
        packed = gzip.compress(body, compresslevel=9, mtime=0)
        assets[served] = Asset(served, body, content_type,
                               packed if len(packed) < len(body) else b"")
    return assets
