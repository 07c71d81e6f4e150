"""What ``Database.open`` proves before the bot starts: the file is whole and writable.

Both faults are real: a page of the file overwritten with garbage, and a file
the process's user may not write (as root, whom file modes do not stop, the
opening process runs as ``nobody``).
"""

from __future__ import annotations

import asyncio
import os
import shutil
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from db import Database, DatabaseDamagedError, StorageError

from .faults import (
    DROP_PRIVILEGES,
    build,
    damage_page,
    hand_over,
    pages,
    shared_folder,
    writes_fail,
)

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
async def built(db_path: Path) -> Path:
    await build(db_path)
    assert not db_path.with_name(db_path.name + "-wal").exists(), "the close checkpointed"
    return db_path


# ------------------------------------------------------------------ damage


async def test_a_damaged_page_of_matches_is_refused_with_how_to_recover(built: Path) -> None:
    size, _, roots = pages(built)
    damage_page(built, roots["matches"], size)
    with pytest.raises(DatabaseDamagedError) as caught:
        await Database.open(built)
    message = str(caught.value)
    assert str(built) in message and "damaged" in message
    assert "backup" in message and f'sqlite3 {built} ".recover" | sqlite3 ' in message
    assert "\n" not in message
    # The refusal left nothing locked: the next open gets as far as the same check.
    with pytest.raises(DatabaseDamagedError):
        await Database.open(built)


async def test_damage_to_any_page_is_noticed(built: Path, tmp_path: Path) -> None:
    """Every page after the header page, whatever table or index it belongs to."""
    size, count, _ = pages(built)
    assert count > 15
    unnoticed = []
    for page in range(2, count + 1):
        copy = tmp_path / f"page-{page}" / "rummy.db"
        copy.parent.mkdir()
        shutil.copyfile(built, copy)
        damage_page(copy, page, size)
        try:
            (await Database.open(copy)).abandon()
        except DatabaseDamagedError:
            continue
        unnoticed.append(page)
    assert unnoticed == [], f"{len(unnoticed)} of {count - 1} damaged pages went unnoticed"


async def test_a_damaged_header_page_is_refused(built: Path) -> None:
    size, _, _ = pages(built)
    damage_page(built, 1, size)
    with pytest.raises(StorageError, match=str(built)):
        await Database.open(built)


# ------------------------------------------------------------------ writes


@pytest.fixture
def shared_dir() -> Iterator[Path]:
    with shared_folder() as folder:
        yield folder


async def open_in_child(path: Path) -> tuple[int, str]:
    """Open ``path`` in a fresh process as a user for whom a file of mode 0444 is
    read-only: as root, the child drops to nobody, since file modes do not stop root.
    Returns its exit code and what it printed."""
    script = textwrap.dedent("""
        import asyncio, os
        from db import Database, StorageError
        {drop}
        async def main():
            try:
                (await Database.open({path!r})).abandon()
            except StorageError as error:
                print(error)
                raise SystemExit(1)
            print("opened")
        asyncio.run(main())
    """).format(drop=DROP_PRIVILEGES, path=str(path))
    child = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        script,
        cwd=ROOT,
        stdout=asyncio.subprocess.PIPE,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
    )
    out, _ = await child.communicate()
    return child.returncode or 0, out.decode().strip()


async def test_a_database_the_bot_may_not_write_is_refused(shared_dir: Path) -> None:
    path = shared_dir / "rummy.sqlite3"
    await build(path, matches=2)
    os.chmod(path, 0o444)
    # The folder and the lock file are the bot's: only the database itself is
    # read-only for it.
    hand_over(shared_dir, [path.with_name(path.name + ".lock")])
    code, said = await open_in_child(path)
    assert code == 1, said
    assert said.startswith(f"cannot write to the database {path}:"), said
    assert "readonly" in said and "permissions" in said


async def test_the_same_database_writable_opens_in_the_child(shared_dir: Path) -> None:
    """The refusal above is about the file's mode, not the child's set-up."""
    path = shared_dir / "rummy.sqlite3"
    await build(path, matches=2)
    hand_over(shared_dir, [path, path.with_name(path.name + ".lock")])
    assert await open_in_child(path) == (0, "opened")


async def test_a_disk_that_refuses_writes_at_start_is_refused(built: Path) -> None:
    with writes_fail(), pytest.raises(StorageError, match=str(built)):
        await Database.open(built)
    (await Database.open(built)).abandon()  # once the disk is back it opens
