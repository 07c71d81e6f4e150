"""Photograph a transcript page (``transcript.render``) with headless Chromium.

A page is only useful if someone looks at it; a PNG can be attached to a bug
report or read by a reviewer who has no browser at hand::

    python -m fakediscord.transcript.photograph PAGE.html OUT.png [--width 800]
    python -m fakediscord.transcript.photograph http://127.0.0.1:8765/ OUT.png --width 1280

(the second photographs local play's live page, once its scripts have drawn it)

or, from a script, ``photograph(html, Path("out.png"), width=400)``.

Chromium's ``--screenshot`` captures exactly its window and cannot measure a
page by itself (and these pages run no JavaScript), so the page is shot in a
tall window and the empty background below the conversation is trimmed off
with Pillow when it is installed. Without Pillow the picture keeps the whole
window height. Chromium comes from Debian's ``chromium`` package; the tests do
not need it.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

BROWSERS = ("chromium", "chromium-browser")
BACKGROUND = (0x31, 0x33, 0x38)  # the page's colour, Discord's chat background
FIRST_HEIGHT = 2400
MAX_HEIGHT = 19200
MARGIN = 16  # kept below the last thing drawn
TIMEOUT = 120.0


class ChromiumMissing(RuntimeError):
    """No Chromium on PATH: nothing can take the picture."""


def find_chromium() -> str | None:
    """The path of a Chromium on PATH, or None."""
    for name in BROWSERS:
        found = shutil.which(name)
        if found:
            return found
    return None


def _chromium_for(out: Path) -> str:
    """The browser that takes the picture, with the picture's folder made."""
    browser = find_chromium()
    if browser is None:
        raise ChromiumMissing("no chromium on PATH: install Debian's chromium package "
                              "(apt-get install chromium)")
    Path(out).parent.mkdir(parents=True, exist_ok=True)
    return browser


def photograph(html: str, out: Path, width: int = 800, *, height: int | None = None,
               scale: float = 1.0) -> Path:
    """Write a PNG of the page ``html`` at ``width`` CSS pixels and return ``out``.

    Without ``height`` the picture is as tall as the conversation (Pillow trims the
    empty bottom; a conversation taller than the window is shot again in a window
    twice as tall). ``scale`` above 1 gives a sharper, larger picture.
    """
    browser = _chromium_for(out)
    with tempfile.TemporaryDirectory(prefix="transcript-") as work:
        page = Path(work) / "page.html"
        page.write_text(html, encoding="utf-8")
        window = height or FIRST_HEIGHT
        while True:
            _shoot(browser, page, Path(out), width, window, scale, Path(work))
            if height is not None or not trim(Path(out), scale) or window >= MAX_HEIGHT:
                return Path(out)
            window = min(window * 2, MAX_HEIGHT)


def photograph_live(url: str, out: Path, width: int = 1280, height: int = 800, *,
                    scale: float = 1.0, settle_ms: int = 4000) -> Path:
    """Write a PNG of a live page (local play's, at ``url``), after its scripts
    have had ``settle_ms`` of the page's time to connect and draw."""
    browser = _chromium_for(out)
    with tempfile.TemporaryDirectory(prefix="live-") as work:
        _shoot(browser, url, Path(out), width, height, scale, Path(work),
               extra=[f"--virtual-time-budget={settle_ms}"])
    return Path(out)


def _shoot(browser: str, page: Path | str, out: Path, width: int, height: int, scale: float,
           work: Path, extra: list[str] | None = None) -> None:
    """One Chromium run: a window of ``width`` x ``height``, its picture in ``out``."""
    profile = tempfile.mkdtemp(prefix="profile-", dir=work)
    command = [
        browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
        "--no-first-run", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--disable-dev-shm-usage", f"--user-data-dir={profile}",
        "--hide-scrollbars", f"--force-device-scale-factor={scale}",
        f"--window-size={width},{height}", f"--screenshot={out}", *(extra or []),
        page if isinstance(page, str) else page.as_uri(),
    ]
    out.unlink(missing_ok=True)
    result = subprocess.run(command, capture_output=True, text=True, timeout=TIMEOUT,
                            check=False)
    if result.returncode != 0 or not out.exists():
        tail = "\n".join(result.stderr.strip().splitlines()[-5:])
        raise RuntimeError(f"chromium could not photograph the page (exit "
                           f"{result.returncode}):\n{tail}")


def trim(out: Path, scale: float = 1.0) -> bool:
    """Cut the empty background below the conversation off the PNG ``out``. True when
    the conversation reached the bottom of the window (nothing was cut: a taller
    window is needed); False when trimmed, or when Pillow is not installed."""
    try:
        from PIL import Image, ImageChops
    except ImportError:
        return False
    with Image.open(out) as shot:
        picture = shot.convert("RGB")
    plain = Image.new("RGB", picture.size, BACKGROUND)
    box = ImageChops.difference(picture, plain).getbbox()
    bottom = box[3] if box else 0
    margin = round(MARGIN * scale)
    if bottom >= picture.height - margin:
        return True
    picture.crop((0, 0, picture.width, max(bottom + margin, margin))).save(out)
    return False


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m fakediscord.transcript.photograph",
        description="Photograph a transcript page with headless Chromium.")
    parser.add_argument("page", help="the HTML page (from transcript.render), or the "
                        "address of a live page (local play's: http://127.0.0.1:8765/)")
    parser.add_argument("out", type=Path, help="where to write the PNG")
    parser.add_argument("--width", type=int, default=800, help="window width in CSS pixels")
    parser.add_argument("--height", type=int, default=800,
                        help="window height of a live page in CSS pixels")
    parser.add_argument("--scale", type=float, default=1.0, help="device pixel ratio")
    args = parser.parse_args(argv)
    try:
        if args.page.startswith(("http://", "https://")):
            photograph_live(args.page, args.out, args.width, args.height, scale=args.scale)
        else:
            html = Path(args.page).read_text(encoding="utf-8")
            photograph(html, args.out, args.width, scale=args.scale)
    except ChromiumMissing as missing:
        print(f"error: {missing}", file=sys.stderr)
        return 2
    except (OSError, RuntimeError, subprocess.TimeoutExpired) as failed:
        print(f"error: {failed}", file=sys.stderr)
        return 1
    print(args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
