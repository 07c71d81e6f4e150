"""Answering interactions: the callback and the interaction's webhook.

Both authenticate by the interaction's token in the URL, not the bot's token.
The callback is the one answer Discord takes within 3 s (a message, "thinking",
an update of the clicked message, a modal, the launch of the application's
Activity); the webhook sends followups and edits or deletes the answer and
followups for 15 minutes.
"""

from __future__ import annotations

import time
from typing import Any

from .. import installs, payloads
from ..world import ActivityInstance, Interaction, InteractionType, Message, MessageFlag, World
from .messages import MessageWriter
from .request import (
    ALREADY_ACKNOWLEDGED,
    UNKNOWN_INTERACTION,
    UNKNOWN_MESSAGE,
    UNKNOWN_WEBHOOK,
    Answer,
    ApiError,
    Req,
    Route,
    invalid_form,
)

# Callback types: a message, "thinking" (a message filled in later), a deferred
# update (nothing visible), an update of the clicked message, a modal, the
# application's Activity launched for the person.
CHANNEL_MESSAGE, DEFERRED_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE, MODAL = 4, 5, 6, 7, 9
LAUNCH_ACTIVITY = 12
# The message type of an answer to a slash command ("alice used /rummy start").
CHAT_INPUT_COMMAND_MESSAGE = 20


def check_deferred_flags(data: dict[str, Any]) -> None:
    """A "thinking..." answer may only say whether it is ephemeral; a layout's flag
    comes with the edit or followup that fills it in."""
    extra = (data.get("flags") or 0) & ~MessageFlag.EPHEMERAL
    if extra:
        raise invalid_form({"data.flags": (
            "INTERACTION_RESPONSE_INVALID_FLAGS",
            "Only the EPHEMERAL flag can be set on a deferred response")})


def is_ephemeral(body: dict[str, Any]) -> bool:
    return bool((body.get("flags") or 0) & MessageFlag.EPHEMERAL)


class InteractionRoutes:
    def __init__(self, world: World, writer: MessageWriter) -> None:
        self.world = world
        self.writer = writer

    def routes(self) -> list[Route]:
        webhook = "/webhooks/{webhook_id}/{webhook_token}"
        routes: list[Route] = [
            ("POST", "/interactions/{interaction_id}/{interaction_token}/callback",
             self.callback),
            ("POST", webhook, self.followup),
        ]
        # @original first: {message_id} would match it too.
        for message in (webhook + "/messages/@original", webhook + "/messages/{message_id}"):
            routes += [
                ("GET", message, self.get_webhook_message),
                ("PATCH", message, self.edit_webhook_message),
                ("DELETE", message, self.delete_webhook_message),
            ]
        return routes

    # -- interaction callback -------------------------------------------------------------

    async def callback(self, req: Req) -> Answer:
        interaction = self.world.interactions.get(req.id("interaction_id"))
        if (interaction is None or interaction.token != req.params["interaction_token"]
                or interaction.token_expired or interaction.callback_closed):
            raise ApiError(404, UNKNOWN_INTERACTION, "Unknown interaction")
        if interaction.answered:
            raise ApiError(400, ALREADY_ACKNOWLEDGED, "Interaction has already been acknowledged.")
        kind = int(req.body.get("type", 0))
        resource = self._respond(req, interaction, kind, req.body.get("data") or {})
        interaction.response_type = kind
        interaction.responded_at = time.perf_counter()
        interaction.bot_writes_at_response = self.world.bot_writes
        self.world.answered(interaction)
        if not req.flag("with_response"):
            return 204, None
        return 200, payloads.callback_response(self.world, interaction, kind, resource)

    def _respond(self, req: Req, interaction: Interaction, kind: int,
                 data: dict[str, Any]) -> Message | ActivityInstance | None:
        """The callback's effect; the message it created or updated, or the Activity
        instance it launched, if any."""
        channel = self.world.channels[interaction.channel_id]
        if kind in (DEFERRED_UPDATE, UPDATE_MESSAGE) and interaction.message_id is None:
            raise invalid_form({"type": f"Callback type {kind} needs a message interaction."})
        answer_type = (CHAT_INPUT_COMMAND_MESSAGE
                       if interaction.type == InteractionType.APPLICATION_COMMAND else 0)
        # Permissions, Use External Apps: where it is denied, Discord shows the
        # answers of a user install alone to the invoker, whatever the app asks.
        ephemeral = is_ephemeral(data) or interaction.forced_ephemeral
        if kind == CHANNEL_MESSAGE:
            self.writer.check(data, require_content=not req.files)
            return self.writer.post(channel, data, req.files, interaction,
                                    ephemeral=ephemeral, type=answer_type)
        if kind == DEFERRED_MESSAGE:
            check_deferred_flags(data)
            return self.writer.post(channel, {}, [], interaction, ephemeral=ephemeral,
                                    type=answer_type, loading=True)
        if kind == DEFERRED_UPDATE:
            interaction.original_message_id = interaction.message_id
            return None
        if kind == UPDATE_MESSAGE:
            assert interaction.message_id is not None
            resource = self.writer.existing(interaction.message_id)
            self.writer.check(data, existing=resource)
            self.writer.edit(resource, data, req.files)
            interaction.original_message_id = resource.id
            return resource
        if kind == MODAL:
            interaction.modal = data
            return None
        if kind == LAUNCH_ACTIVITY:
            return self._launch(interaction)
        raise invalid_form({"type": f"Callback type {kind} is not valid for this interaction."})

    def _launch(self, interaction: Interaction) -> ActivityInstance:
        """A command or a click may answer by launching the Activity, if the
        application has one (Activities enabled in the portal)."""
        if interaction.type not in (InteractionType.APPLICATION_COMMAND,
                                    InteractionType.MESSAGE_COMPONENT):
            raise invalid_form({"type": f"Callback type {LAUNCH_ACTIVITY} is not valid for "
                                        "this interaction."})
        if not self.world.activities_enabled:
            raise invalid_form({"type": f"Callback type {LAUNCH_ACTIVITY} needs an application "
                                        "with Activities enabled."})
        instance = self.world.launch_activity(interaction.user_id, interaction.channel_id)
        interaction.activity_instance_id = instance.instance_id
        return instance

    # -- interaction webhooks --------------------------------------------------------------

    def _webhook_interaction(self, req: Req) -> Interaction:
        interaction = None
        if req.id("webhook_id") == self.world.application_id:
            interaction = self.world.interaction_by_token(req.params["webhook_token"])
        if interaction is None or interaction.token_expired or not interaction.answered:
            raise ApiError(404, UNKNOWN_WEBHOOK, "Unknown Webhook")
        return interaction

    def _webhook_message(self, req: Req) -> tuple[Interaction, Message]:
        interaction = self._webhook_interaction(req)
        if "message_id" in req.params:
            message_id = req.id("message_id")
            if message_id not in (interaction.original_message_id, *interaction.followup_ids):
                raise ApiError(404, UNKNOWN_MESSAGE, "Unknown Message")
        else:
            message_id = interaction.original_message_id or 0
        return interaction, self.writer.existing(message_id)

    async def followup(self, req: Req) -> Answer:
        interaction = self._webhook_interaction(req)
        if (installs.followups_limited(interaction)
                and len(interaction.followup_ids) >= installs.MAX_USER_INSTALL_FOLLOWUPS):
            raise ApiError(400, installs.MAX_FOLLOWUPS_REACHED,
                           "Maximum number of follow-up messages reached for this interaction")
        original = self.world.messages.get(interaction.original_message_id or 0)
        fills_original = (interaction.response_type == DEFERRED_MESSAGE and original is not None
                          and original.loading and not interaction.followup_ids)
        self.writer.check(req.body or {}, existing=original if fills_original else None,
                          require_content=not req.files)
        if fills_original:
            assert original is not None
            # Discord fills the "thinking..." message with the first followup;
            # its ephemerality was fixed by the defer.
            self.writer.edit(original, req.body, req.files)
            message = original
        else:
            channel = self.world.channels[interaction.channel_id]
            message = self.writer.post(
                channel, req.body, req.files, interaction,
                ephemeral=is_ephemeral(req.body) or interaction.forced_ephemeral)
        interaction.followup_ids.append(message.id)
        self.world.changed()
        if not req.flag("wait"):
            return 204, None
        return 200, payloads.message(self.world, message)

    async def get_webhook_message(self, req: Req) -> Answer:
        return 200, payloads.message(self.world, self._webhook_message(req)[1])

    async def edit_webhook_message(self, req: Req) -> Answer:
        _, message = self._webhook_message(req)
        self.writer.check(req.body or {}, existing=message)
        self.writer.edit(message, req.body or {}, req.files)
        return 200, payloads.message(self.world, message)

    async def delete_webhook_message(self, req: Req) -> Answer:
        self.writer.delete(self._webhook_message(req)[1])
        return 204, None
