"""Keeps the translation catalogues in step with the code::

    python -m presentation.catalogues update   # after changing any text
    python -m presentation.catalogues check    # every language has every text

``update`` collects every message the code marks (``_``, ``n_``, ``N_``) with
Babel, then brings each language's catalogue up to date: new messages appear
untranslated, changed ones are marked fuzzy, removed ones are dropped. A
translator then fills in the new entries. ``check`` lists what a language
lacks, on stderr; the tests run the same check.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po, write_po

from engine.cards import RANK_NAMES

from .i18n import DOMAIN, ENGLISH, LANGUAGES, LOCALES

ROOT = Path(__file__).resolve().parents[1]
# The product's packages: tests and tools say nothing to players.
SOURCES = ("bot.py", "app", "cogs", "chat", "web", "game", "presentation", "tables", "transport",
           "engine", "db")
KEYWORDS = {"_": None, "n_": (1, 2), "N_": None, "NP_": (1, 2)}
# Card ranks a language may write otherwise (German B, D, K, A); numbers stay.
RANK_CONTEXT = "card rank"
# Messages the code holds in another form (the slash commands' names and
# descriptions): the message, its context (or None), a note for translators.
Extra = Iterable[tuple[str, str | None, str]]


def _sources() -> Iterator[Path]:
    for name in SOURCES:
        path = ROOT / name
        if path.is_file():
            yield path
        else:
            yield from sorted(path.rglob("*.py"))


def template(extra: Extra = ()) -> Catalog:
    """Every message the code marks, with where it is used, and ``extra``."""
    catalog = Catalog(domain=DOMAIN, project="Rummy for Discord")
    for path in _sources():
        found = extract_from_file(
            "python", str(path), keywords=KEYWORDS, comment_tags=("Translators:",)
        )
        where = str(path.relative_to(ROOT))
        for line, message, comments, context in found:
            catalog.add(message, locations=[(where, line)], auto_comments=comments,
                        context=context)
    for rank in (1, 11, 12, 13):
        catalog.add(RANK_NAMES[rank], context=RANK_CONTEXT,
                    auto_comments=["A card's rank as printed on it, one or two letters."])
    for message, context, note in extra:
        catalog.add(message, context=context, auto_comments=[note] if note else [])
    return catalog


def catalogue_path(code: str) -> Path:
    return LOCALES / code / "LC_MESSAGES" / f"{DOMAIN}.po"


def read(code: str) -> Catalog:
    path = catalogue_path(code)
    if not path.exists():
        return Catalog(locale=code, domain=DOMAIN, project="Rummy for Discord")
    with path.open("rb") as source:
        return read_po(source, locale=code, domain=DOMAIN)


def write(code: str, catalog: Catalog) -> None:
    path = catalogue_path(code)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as target:
        write_po(target, catalog, width=100, sort_by_file=True, omit_header=False)


def missing(catalog: Catalog, wanted: Catalog) -> list[str]:
    """Messages of ``wanted`` that ``catalog`` does not translate (or only fuzzily)."""
    lacking = []
    for message in wanted:
        if not message.id:
            continue
        found: Message | None = catalog.get(message.id, context=message.context)
        if found is None or found.fuzzy or not _translated(found):
            lacking.append(_shown(message))
    return lacking


def _translated(message: Message) -> bool:
    if isinstance(message.string, (list, tuple)):
        return all(message.string)
    return bool(message.string)


def _shown(message: Message) -> str:
    text = message.id if isinstance(message.id, str) else message.id[0]
    return f"[{message.context}] {text}" if message.context else text


def update(extra: Extra = ()) -> None:
    wanted = template(extra)
    for code in LANGUAGES:
        if code == ENGLISH:
            continue
        catalog = read(code)
        catalog.update(wanted, no_fuzzy_matching=False)
        write(code, catalog)


def main(argv: Sequence[str] | None = None, extra: Extra = (), prog: str = "") -> int:
    extra = list(extra)
    parser = argparse.ArgumentParser(prog=prog or "python -m presentation.catalogues")
    parser.add_argument("command", choices=("update", "check"))
    args = parser.parse_args(argv)
    if args.command == "update":
        update(extra)
        print(f"updated {len(LANGUAGES) - 1} catalogues in {LOCALES}")
        return 0
    wanted = template(extra)
    failed = False
    for code in LANGUAGES:
        if code == ENGLISH:
            continue
        lacking = missing(read(code), wanted)
        if lacking:
            failed = True
            print(f"{code}: {len(lacking)} messages untranslated, first: {lacking[0]!r}",
                  file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
