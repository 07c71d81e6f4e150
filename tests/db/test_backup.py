"""The online backup: a checked copy of the database while the bot has it open."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

from db import Database
from tests.postgres_server import PostgresServer

from .factories import random_matches

ROOT = Path(__file__).resolve().parents[2]


def run_backup(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "db.backup", *args],
        cwd=ROOT, capture_output=True, text=True, timeout=60, check=False,
    )


def work_files_in(folder: Path) -> list[Path]:
    """Copies left half-written: their names are made as TARGET.RANDOM.partial."""
    return [p for p in folder.glob("*.partial") if p.name.count(".") >= 3]


def restore_dump(server: PostgresServer, dump: Path, url: str) -> None:
    pg_restore = server.pg_dump_path().with_name("pg_restore")
    subprocess.run([str(pg_restore), f"--dbname={url}", str(dump)], check=True, timeout=60)


async def test_a_backup_taken_while_the_bot_writes_holds_everything_recorded(
    db: Database, db_target: str | Path, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    matches = random_matches(random.Random(7), 60, users=list(range(1, 9)), guilds=[5])
    for record in matches:
        await db.record_match(record)
    before = await db.leaderboard(5, "points")
    target = tmp_path / "copy.backup"
    if isinstance(db_target, Path):
        done = run_backup(str(db_target), str(target))  # the database is open and locked
    else:
        server: PostgresServer = request.getfixturevalue("postgres_server")
        done = run_backup(db_target, str(target), "--pg-dump", str(server.pg_dump_path()))
    assert done.returncode == 0, done.stderr
    assert "checked" in done.stdout
    await db.record_match(matches[0])  # the bot goes on writing to its own database
    restored: str | Path = target
    if not isinstance(db_target, Path):
        restored = server.new_database()
        restore_dump(server, target, restored)
    copy = await Database.open(restored)
    try:
        copied = await copy.leaderboard(5, "points")
        assert copied.total_players == 8
        assert [(r.user_id, r.points, r.matches_played) for r in copied.rows] == [
            (r.user_id, r.points, r.matches_played) for r in before.rows
        ]
    finally:
        await copy.close()
    assert not (tmp_path / "copy.backup.partial").exists()


def test_bad_paths_are_refused_on_stderr_and_write_nothing(tmp_path: Path) -> None:
    missing = run_backup(str(tmp_path / "nope.sqlite3"), str(tmp_path / "out.sqlite3"))
    assert missing.returncode == 1 and "is not a database file" in missing.stderr
    existing = tmp_path / "taken.sqlite3"
    existing.write_bytes(b"keep me")
    source = tmp_path / "source.sqlite3"
    source.write_bytes(b"")
    refused = run_backup(str(source), str(existing))
    assert refused.returncode == 1 and "exists already" in refused.stderr
    assert existing.read_bytes() == b"keep me"
    garbage = tmp_path / "garbage.sqlite3"
    garbage.write_bytes(b"not a database at all" * 100)
    broken = run_backup(str(garbage), str(tmp_path / "out.sqlite3"))
    assert broken.returncode == 1 and "could not copy" in broken.stderr
    assert not (tmp_path / "out.sqlite3").exists()
    assert not list(tmp_path.glob("*.partial"))


def test_a_dump_without_pg_dump_says_what_to_install(tmp_path: Path) -> None:
    done = run_backup(
        "postgresql://rummy@127.0.0.1:1/rummy", str(tmp_path / "x.dump"), "--pg-dump", "no-such"
    )
    assert done.returncode == 1
    assert "no-such was not found: install PostgreSQL's client programs" in done.stderr
    assert not list(tmp_path.iterdir())


async def test_a_database_named_like_a_work_file_is_copied_and_kept(tmp_path: Path) -> None:
    source = tmp_path / "rummy.sqlite3.partial"
    db = await Database.open(source)
    try:
        for record in random_matches(random.Random(3), 5, users=[1, 2, 3], guilds=[5]):
            await db.record_match(record)
    finally:
        await db.close()
    kept = source.read_bytes()
    done = run_backup(str(source), str(tmp_path / "rummy.sqlite3"))
    assert done.returncode == 0, done.stderr
    assert source.read_bytes() == kept
    copy = await Database.open(tmp_path / "rummy.sqlite3")
    try:
        assert (await copy.leaderboard(5, "points")).total_players == 3
    finally:
        await copy.close()
    assert not work_files_in(tmp_path)


async def test_the_password_reaches_pg_dump_through_its_environment_only(
    tmp_path: Path, postgres_server: PostgresServer
) -> None:
    real = postgres_server.pg_dump_path()
    tools = tmp_path / "tools"
    tools.mkdir()
    (tools / "pg_restore").symlink_to(real.with_name("pg_restore"))
    seen = tmp_path / "seen.txt"
    wrapper = tools / "pg_dump"
    # What any local user could read of the process: its command line.
    wrapper.write_text(
        "#!/bin/sh\n"
        f'printf "%s\\n" "$*" > {seen}\n'
        f'printf "PGPASSWORD=%s\\n" "$PGPASSWORD" >> {seen}\n'
        f'exec {real} "$@"\n'
    )
    wrapper.chmod(0o755)
    plain = postgres_server.new_database()
    await (await Database.open(plain)).close()  # the bot's tables, to dump
    url = plain.replace("postgres@", "postgres:s3cret-pw@")
    done = run_backup(url + "?application_name=backup", str(tmp_path / "r.dump"),
                      "--pg-dump", str(wrapper))
    assert done.returncode == 0, done.stderr
    command_line, environment = seen.read_text().splitlines()
    assert "s3cret-pw" not in command_line and "postgres@127.0.0.1" in command_line
    assert environment == "PGPASSWORD=s3cret-pw"
    assert "s3cret-pw" not in done.stdout + done.stderr
