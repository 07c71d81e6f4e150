"""The page's static files under names that change with their content.

Discord's proxy strips cache headers from the page itself, so every other file
is served as ``name.<hash>.ext`` and cached for good: a new version of a file
is a new name, which the page (never cached) asks for. References between the
files are written ``@asset(path)`` and replaced by the hashed name, relative to
the file that holds them: every file but the page lies flat in ``assets/``.
A file's name depends on the names of the files it refers to, so files are
named in the order of what refers to what; two files that refer to each
other could never be named, and are an error.

``protocol.js`` is written here, not kept: the page protocol's names, from
``web.page_protocol``, its one owner.

The page starts its modules from an inline script (see ``index.html``), which
needs the modules' hashed names and what each imports: ``@module-graph`` in
the page is replaced by them, the modules in the order they can be run.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import json
import mimetypes
import re
from collections.abc import Callable
from dataclasses import dataclass
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

from .page_protocol import described

STATIC = Path(__file__).resolve().parent / "static"
REFERENCE = re.compile(r"@asset\(([\w./-]+)\)")
MODULE_GRAPH = "@module-graph"
ENTRY = "main.js"
# The page's own inline script, which its policy allows by its hash.
INLINE_SCRIPT = re.compile(rb"<script>(.*?)</script>", re.S)
TEXT_KINDS = (".css", ".js", ".html", ".svg", ".txt")


def protocol_module() -> bytes:
    """The page's module of the protocol's names (``web.page_protocol``)."""
    lines = ["// Written by the bot's server from its page protocol: do not edit.\n"]
    for name, value in described().items():
        lines.append(f"export const {name} = Object.freeze({json.dumps(value, sort_keys=True)});\n")
    return "".join(lines).encode("utf-8")


# Files written when the server starts, by the path pages ask for them at.
GENERATED: dict[str, Callable[[], bytes]] = {"protocol.js": protocol_module}


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


def _in_order(bodies: dict[str, bytes], page: str) -> list[str]:
    """The files, each after every file it refers to."""
    graph: dict[str, set[str]] = {}
    for name, body in bodies.items():
        wanted = set()
        if Path(name).suffix in TEXT_KINDS:
            for found in REFERENCE.findall(body.decode("utf-8")):
                if found not in bodies:
                    raise AssetError(f"{name} refers to {found}, which is not a static file")
                wanted.add(found)
        graph[name] = wanted
    try:
        order = list(TopologicalSorter(graph).static_order())
    except CycleError as error:
        raise AssetError(f"these files refer to each other, so none can be named: "
                         f"{' -> '.join(error.args[1])}") from None
    # The page last: its module graph names every module.
    return [name for name in order if name != page] + ([page] if page in bodies else [])


def load(root: Path = STATIC, page: str = "index.html",
         generated: dict[str, Callable[[], bytes]] | None = None) -> dict[str, Asset]:
    """Every static file by the path the page asks for it at; ``page`` is served
    at ``""`` under its own name, never hashed. ``generated``: files written
    here, by name (``GENERATED`` by default)."""
    bodies = {path.relative_to(root).as_posix(): path.read_bytes()
              for path in sorted(root.rglob("*")) if path.is_file()}
    for name, write in (GENERATED if generated is None else generated).items():
        bodies[name] = write()
    names: dict[str, str] = {}  # a file's path in the static folder -> its hashed name
    assets: dict[str, Asset] = {}
    modules: list[tuple[str, list[str]]] = []  # hashed name, hashed names it imports
    for name in _in_order(bodies, page):
        body = bodies[name]
        if Path(name).suffix in TEXT_KINDS:
            def swap(found: re.Match[str], name: str = name) -> str:
                return ("assets/" if name == page else "") + names[found.group(1)]
            text = body.decode("utf-8")
            if name == page and MODULE_GRAPH in text:
                text = text.replace(MODULE_GRAPH, module_graph(names, modules))
            body = REFERENCE.sub(swap, text).encode("utf-8")
        content_type = mimetypes.guess_type(name)[0] or "application/octet-stream"
        if name.endswith(".js"):
            content_type = "text/javascript"
        if name == page:
            served = name
        else:
            names[name] = _hashed(name.replace("/", "-"), body)
            served = "assets/" + names[name]
            if name.endswith(".js"):
                imported = REFERENCE.findall(bodies[name].decode("utf-8"))
                modules.append((names[name], [names[found] for found in imported
                                              if found.endswith(".js")]))
        packed = gzip.compress(body, compresslevel=9, mtime=0)
        assets[served] = Asset(served, body, content_type,
                               packed if len(packed) < len(body) else b"")
    return assets


def module_graph(names: dict[str, str], modules: list[tuple[str, list[str]]]) -> str:
    """The page's modules for its inline script: the entry's name, and every
    module with the names of those it imports, each after those."""
    return json.dumps({"main": names[ENTRY], "modules": modules}, separators=(",", ":"))


def inline_script_hashes(page: bytes) -> list[str]:
    """The CSP sources that allow the page's inline scripts, by their SHA-256."""
    return ["'sha256-" + base64.b64encode(hashlib.sha256(script).digest()).decode() + "'"
            for script in INLINE_SCRIPT.findall(page)]
