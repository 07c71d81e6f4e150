"""Syncing the slash commands without deleting the Activity's Entry Point.

Turning Activities on in the Developer Portal gives the application an Entry
Point command (type 4, how members launch the Activity from the App Launcher).
discord.py's ``CommandTree.sync`` knows nothing of it and overwrites the global
commands with the tree's alone, which Discord refuses (code 50240) while that
command exists. The global sync here sends the tree's commands as discord.py
would, plus the Entry Point as Discord has it.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from .private import global_commands

PRIMARY_ENTRY_POINT = 4
# Discord's interaction contexts ("Application Commands"): a server's channel,
# and a DM or group DM between people; and its installation contexts: a
# server's install, and a person's own.
GUILD_CONTEXT, PRIVATE_CHANNEL_CONTEXT = 0, 2
GUILD_INSTALL, USER_INSTALL = 0, 1
# What an Entry Point's create payload holds; the rest of it (its id, version,
# application) is Discord's to set.
ENTRY_POINT_FIELDS = (
    "name", "name_localizations", "description", "description_localizations", "type",
    "handler", "integration_types", "contexts", "nsfw", "default_member_permissions",
)


async def tree_payload(tree: app_commands.CommandTree[Any]) -> list[dict[str, Any]]:
    """The global commands as ``CommandTree.sync`` would send them, translated."""
    commands = global_commands(tree)
    translator = tree.translator
    if translator is None:
        return [command.to_dict(tree) for command in commands]
    return [await command.get_translated_payload(tree, translator) for command in commands]


async def sync_global_commands(tree: app_commands.CommandTree[Any]) -> None:
    """Overwrite the global commands with the tree's, keeping any Entry Point."""
    client: discord.Client = tree.client
    application_id = client.application_id
    if application_id is None:
        raise app_commands.MissingApplicationID
    payload = await tree_payload(tree)
    existing = await client.http.get_global_commands(application_id)
    for command in existing:
        found: dict[str, Any] = dict(command)
        if found.get("type") == PRIMARY_ENTRY_POINT:
            kept = {key: found[key] for key in ENTRY_POINT_FIELDS if key in found}
            # Launched in servers, and in DMs and group DMs, for both installs:
            # a game there is played in the Activity, its board the
            # conversation's own. Not in the bot's DM: nobody to play with.
            kept["contexts"] = [GUILD_CONTEXT, PRIVATE_CHANNEL_CONTEXT]
            kept["integration_types"] = [GUILD_INSTALL, USER_INSTALL]
            payload.append(kept)
    await client.http.bulk_upsert_global_commands(application_id, payload=payload)
