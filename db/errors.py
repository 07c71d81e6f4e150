"""Errors raised by the storage layer.

Every failure the bot can meet while reading or writing its database is a
:class:`StorageError`, so a cog needs one ``except`` to answer "that action was
not saved" and keep its in-memory state as it was.  The messages name the
database file and the operation, because they end up in the bot's log and the
person reading it needs to know what failed where.
"""

from __future__ import annotations


class StorageError(Exception):
    """A read or write of the bot's database failed; the message is fit for logs."""


class DatabaseLockedError(StorageError):
    """Another process already holds this database file.

    Two bot processes on one file would both answer the same interactions and
    both write the same live tables, so the second one must refuse to start.
    """


class DatabaseTooNewError(StorageError):
    """The file was written by a newer version of the bot than this code.

    Running older code on it could misread or damage data it does not know
    about, so we refuse instead of guessing.
    """


class DatabaseDamagedError(StorageError):
    """SQLite's own check found the file damaged (a bad sector, a stray write).

    Starting on it would fail later, on whichever action reads the damaged
    part, or write new results next to it; the message says how to recover.
    """


def N_(message: str) -> str:
    """Marks a member-facing message for the translation catalogues (the
    extractor looks for calls named ``N_``); the message itself is unchanged."""
    return message


class SeasonRefused(Exception):
    """A season cannot be ended as asked (its name is taken, nothing was played
    in it); nothing was changed. The message is fit to show the member.

    ``template`` and ``params`` let the bot word it in the member's language;
    ``str`` is the English.
    """

    def __init__(self, template: str, /, **params: object) -> None:
        self.template = template
        self.params = params
        super().__init__(template.format(**params) if params else template)
