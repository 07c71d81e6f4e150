"""The slash commands in every language: Discord shows each member the
command, option and choice names and descriptions in their client's language
when the sync carries them (``name_localizations`` and the like).

The English declared in the cog is the message id; names are kept apart from
other messages (context ``command name``: a translated name must be one lower
case word). A message without a translation is left out, so Discord shows the
English.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import discord
from discord import app_commands

from cogs.rummy import RummyCog
from presentation.i18n import ENGLISH, language_for, speaking

NAME_CONTEXT = "command name"
NAME_NOTE = "A slash command or option name: lower case, no spaces, at most 32 characters."
DESCRIPTION_NOTE = "A slash command's description: at most 100 characters."
_NAMES = {
    app_commands.TranslationContextLocation.command_name,
    app_commands.TranslationContextLocation.group_name,
    app_commands.TranslationContextLocation.parameter_name,
}
MAX_NAME = 32
MAX_DESCRIPTION = 100


def is_command_name(text: str) -> bool:
    """Discord's rule for a name in any language: 1 to 32 letters, digits, - or _,
    lower case wherever a letter has a lower case."""
    return (
        0 < len(text) <= MAX_NAME
        and text == text.lower()
        and all(char.isalnum() or char in "-_" for char in text)
    )


def command_texts() -> Iterator[tuple[str, str | None, str]]:
    """Every name and description of the bot's commands, for the catalogues."""
    yield str(RummyCog.__cog_group_name__), NAME_CONTEXT, NAME_NOTE
    yield str(RummyCog.__cog_group_description__), None, DESCRIPTION_NOTE
    for command in _walk(RummyCog.__cog_app_commands__):
        yield command.name, NAME_CONTEXT, NAME_NOTE
        yield command.description, None, DESCRIPTION_NOTE
        for parameter in getattr(command, "parameters", ()):
            yield parameter.name, NAME_CONTEXT, NAME_NOTE
            yield parameter.description, None, DESCRIPTION_NOTE


AnyCommand = app_commands.Command[Any, Any, Any] | app_commands.Group


def _walk(commands: Sequence[AnyCommand]) -> Iterator[AnyCommand]:
    for command in commands:
        yield command
        if isinstance(command, app_commands.Group):
            yield from _walk(command.commands)


class CatalogueTranslator(app_commands.Translator):
    """Gives discord.py each command text in each language the bot speaks."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        code = language_for(locale)
        if code == ENGLISH:
            return None
        message = string.message
        with speaking(code) as language:
            if context.location in _NAMES:
                shown = language.translations.pgettext(NAME_CONTEXT, message)
                valid = is_command_name(shown)
            else:
                shown = language.translations.gettext(message)
                valid = 0 < len(shown) <= MAX_DESCRIPTION
        return shown if valid and shown != message else None
