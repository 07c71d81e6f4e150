"""The documentation holds together: a README short enough to read in two
minutes that starts with the two commands, links and anchors that lead
somewhere, and every setting of ``.env.example`` described where hosts look."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
HOSTING = ROOT / "docs" / "hosting.md"
MAX_README_BYTES = 12_000

FENCE = re.compile(r"^ {0,3}(```|~~~).*?^ {0,3}\1[ \t]*$", re.S | re.M)
INLINE_CODE = re.compile(r"(`+).*?\1", re.S)
# [text](target) and ![alt](target), with an optional "title".
LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
HEADING = re.compile(r"^ {0,3}#{1,6}[ \t]+(.+?)[ \t#]*$", re.M)
EXTERNAL = re.compile(r"^[a-z][a-z0-9+.-]*:", re.I)  # https:, mailto: and the like
SETTING = re.compile(r"^#?[ \t]*([A-Z][A-Z0-9_]*)=", re.M)


def documents() -> list[Path]:
    return [README, *sorted((ROOT / "docs").glob("*.md"))]


def prose(text: str) -> str:
    """The text without its code: links and headings in code are not links or headings."""
    return INLINE_CODE.sub("", FENCE.sub("", text))


def slug(heading: str) -> str:
    """A heading's anchor as GitHub makes it: its text, lower case, with every
    character but letters, digits, ``_``, ``-`` and spaces left out, and spaces
    made hyphens."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link's text alone
    text = text.replace("`", "").replace("*", "")
    text = re.sub(r"[^\w\- ]", "", text.strip().lower())
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """Every heading's anchor in ``path``; a repeated one gets -1, -2 as on GitHub."""
    seen: dict[str, int] = {}
    found: set[str] = set()
    for heading in HEADING.findall(FENCE.sub("", path.read_text(encoding="utf-8"))):
        base = slug(heading)
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return found


def first_shell_commands() -> list[str]:
    block = re.search(r"```bash\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    assert block, "README.md has no bash block"
    return [line.strip() for line in block.group(1).splitlines()
            if line.strip() and not line.lstrip().startswith("#")]


def test_the_readme_reads_in_two_minutes() -> None:
    size = len(README.read_bytes())
    assert size <= MAX_README_BYTES, f"README.md is {size} bytes, more than {MAX_README_BYTES}"


def test_the_readme_starts_with_one_command_to_play_and_one_to_test() -> None:
    commands = first_shell_commands()
    assert len(commands) == 2, commands
    assert [c for c in commands if c.endswith("bot.py")], "no command ends in bot.py"
    assert [c for c in commands if c.endswith("pytest")], "no command ends in pytest"
    named = [name for command in commands for name in re.findall(r"-r\s+(\S+)", command)]
    assert len(named) == 2, named
    for name in named:
        assert (ROOT / name).is_file(), f"the README installs {name}, which does not exist"


def test_every_relative_link_and_anchor_leads_somewhere() -> None:
    broken: list[str] = []
    for document in documents():
        for target in LINK.findall(prose(document.read_text(encoding="utf-8"))):
            if EXTERNAL.match(target):
                continue
            path, _, anchor = target.partition("#")
            goal = (document.parent / path).resolve() if path else document
            where = f"{document.relative_to(ROOT)}: {target}"
            if not goal.exists():
                broken.append(f"{where} (no such file)")
            elif anchor and goal.suffix == ".md" and anchor not in anchors(goal):
                broken.append(f"{where} (no such heading)")
    assert broken == []


def test_the_link_checker_sees_links_images_and_anchors() -> None:
    readme = prose(README.read_text(encoding="utf-8"))
    targets = LINK.findall(readme)
    assert "docs/local-play.png" in targets and "docs/hosting.md" in targets
    assert "connecting-to-discord" in anchors(README)
    assert slug("Discord's rate limit across processes") == "discords-rate-limit-across-processes"
    assert slug("Ratings, seasons and history") == "ratings-seasons-and-history"
    assert slug("The `/rummy` commands") == "the-rummy-commands"


def test_every_setting_of_the_example_env_is_in_the_hosting_guide() -> None:
    settings = SETTING.findall((ROOT / ".env.example").read_text(encoding="utf-8"))
    assert {"DISCORD_TOKEN", "DATABASE_PATH", "DISCORD_CLIENT_SECRET"} <= set(settings)
    hosting = HOSTING.read_text(encoding="utf-8")
    missing = [name for name in settings if not re.search(rf"\b{name}\b", hosting)]
    assert missing == [], f"docs/hosting.md does not mention {missing}"
