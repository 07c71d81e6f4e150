"""Test users who act like people in Discord's client, and what the bot answered them.

An actor can only do what the client would let a person do: see the messages
it may see, click enabled buttons that exist, pick options a select offers,
type the slash commands the bot synced. Anything else is a mistake in the
test (or a bug in the bot's messages) and fails at once with AssertionError.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from . import components as comp
from .commands import add_resolved_user, as_user, build_chat_input, integration_types_of
from .world import (
    ActivityInstance,
    Channel,
    Interaction,
    InteractionType,
    Message,
    Role,
    User,
    World,
)


class Stage(Protocol):
    """What an actor needs of the emulator (``FakeDiscord``): the world it acts
    in, and running the interactions it starts until they are answered."""

    world: World

    async def run_interaction(self, interaction: Interaction) -> Reply: ...

    def post_user_message(self, user: User, channel: Channel, content: str) -> Message: ...

class Reply:
    """What the bot did with one interaction; reads the store, so it stays current."""

    def __init__(self, emu: Stage, interaction: Interaction) -> None:
        self._emu = emu
        self.interaction = interaction

    @property
    def type(self) -> int | None:
        """The callback type (4 message, 5 thinking, 6 deferred update, 7 update, 9 modal,
        12 the Activity launched)."""
        return self.interaction.response_type

    @property
    def activity_instance(self) -> ActivityInstance | None:
        """The Activity instance a launch (type 12) put the person in, while it runs."""
        return self._emu.world.activity_instance(self.interaction.activity_instance_id or "")

    @property
    def answered(self) -> bool:
        return self.interaction.answered

    @property
    def latency(self) -> float | None:
        """Seconds from INTERACTION_CREATE sent to the callback received."""
        i = self.interaction
        if i.responded_at is None or i.dispatched_at is None:
            return None
        return i.responded_at - i.dispatched_at

    @property
    def message(self) -> Message | None:
        """The message the response created or updated, as it is now (None if deleted)."""
        return self._emu.world.messages.get(self.interaction.original_message_id or 0)

    @property
    def followups(self) -> list[Message]:
        """Messages sent through the followup webhook (the first one after a "thinking"
        defer fills in the original message, so it is also ``.message``)."""
        found = (self._emu.world.messages.get(i) for i in self.interaction.followup_ids)
        return [m for m in found if m is not None]

    @property
    def modal(self) -> dict[str, Any] | None:
        """The modal the bot opened (callback type 9): custom_id, title, components."""
        return self.interaction.modal

    @property
    def content(self) -> str:
        return self.message.content if self.message else ""

    @property
    def embeds(self) -> list[dict[str, Any]]:
        return self.message.embeds if self.message else []

    @property
    def components(self) -> list[dict[str, Any]]:
        return self.message.components if self.message else []

    @property
    def ephemeral(self) -> bool:
        return self.message.ephemeral if self.message else False

    def text(self) -> str:
        """Text of the response message and of every followup, for assertions."""
        parts = [self.message.text()] if self.message else []
        parts += [m.text() for m in self.followups if m is not self.message]
        return "\n".join(p for p in parts if p)

    def buttons(self) -> list[dict[str, Any]]:
        return self.message.buttons() if self.message else []

    def selects(self) -> list[dict[str, Any]]:
        return self.message.selects() if self.message else []

    def text_displays(self) -> list[str]:
        """The response message's text displays (Components V2), in reading order."""
        return self.message.text_displays() if self.message else []

    def accent_colors(self) -> list[int | None]:
        """The accent colour of each container of the response message."""
        return self.message.accent_colors() if self.message else []

    def __repr__(self) -> str:
        if not self.answered:
            return f"<Reply to {self.interaction.description}: unanswered>"
        return (f"<Reply type={self.type} ephemeral={self.ephemeral} "
                f"latency={self.latency or 0:.3f}s text={self.text()[:60]!r}>")


class Actor:
    """A person using Discord: ``await alice.click(message, label="Join")``."""

    def __init__(self, emu: Stage, user: User) -> None:
        self._emu = emu
        self.user = user

    @property
    def id(self) -> int:
        return self.user.id

    @property
    def name(self) -> str:
        return self.user.name

    @property
    def mention(self) -> str:
        return f"<@{self.user.id}>"

    def __repr__(self) -> str:
        return f"<Actor {self.name} {self.id}>"

    # -- state a person controls or sees ----------------------------------------------

    def close_dms(self) -> None:
        """From now on the bot's DMs to this person fail with 403 (code 50007)."""
        self.user.dms_open = False

    def open_dms(self) -> None:
        self.user.dms_open = True

    @property
    def dm_channel(self) -> Channel:
        return self._emu.world.dm_channel(self.user)

    def dms(self) -> list[Message]:
        """Messages in this person's DM with the bot, oldest first."""
        return self._emu.world.channel_messages(self.dm_channel.id, viewer=self.id)

    def visible_messages(self, channel: Channel) -> list[Message]:
        """What this person sees in ``channel``: public messages and their own ephemerals."""
        can_see = self._emu.world.can_see_channel(self.id, channel)
        assert can_see, f"{self.name} cannot see {channel}"
        return self._emu.world.channel_messages(channel.id, viewer=self.id)

    def permissions(self, channel: Channel) -> int:
        return self._emu.world.permissions_in(self.id, channel)

    # -- actions --------------------------------------------------------------------------

    async def slash(self, channel: Channel, command: str, **options: Any) -> Reply:
        """Run ``/command`` (``"rummy start"`` = subcommand ``start`` of ``rummy``)."""
        self._check_can_use(channel)
        data = build_chat_input(self._emu.world, self.user, channel, command, options)
        interaction = self._emu.world.new_interaction(
            InteractionType.APPLICATION_COMMAND, self.user, channel, data,
            f"/{command.strip().lstrip('/')} by {self.name}",
            integration_types=integration_types_of(self._emu.world, channel, command))
        return await self._emu.run_interaction(interaction)

    async def forge_slash(self, channel: Channel, command: str, forged: dict[str, Any],
                          **options: Any) -> Reply:
        """Run ``/command`` with ``options``, then put the ``forged`` option values in
        its payload as a hand-made request would: past every check Discord's app makes
        (ranges, choices, types)."""
        self._check_can_use(channel)
        data = build_chat_input(self._emu.world, self.user, channel, command, options)
        target = data["options"]
        while target and target[0]["type"] in (1, 2):  # into the subcommand
            target = target[0]["options"]
        for name, value in forged.items():
            found = next((o for o in target if o["name"] == name), None)
            assert found is not None, f"pass a valid {name!r} in options to forge"
            found["value"] = value
        interaction = self._emu.world.new_interaction(
            InteractionType.APPLICATION_COMMAND, self.user, channel, data,
            f"forged /{command.strip().lstrip('/')} by {self.name}",
            integration_types=integration_types_of(self._emu.world, channel, command))
        return await self._emu.run_interaction(interaction)

    async def click(self, message: Message | Reply | int, label: str | None = None, *,
                    custom_id: str | None = None, emoji: str | None = None,
                    allow_disabled: bool = False) -> Reply:
        """Click a button found by label, custom_id (exact or unique substring) or emoji
        (a unicode emoji, a custom emoji's name or id, or ``<:name:id>``), wherever it is:
        an action row, a container, a section's accessory."""
        target = self._visible_message(message)
        button = _find_button(target, label, custom_id, emoji)
        what = button["label"] or button["custom_id"]
        assert button["custom_id"], f"button {what!r} is a link: clicking it reaches no bot"
        if button["disabled"] and not allow_disabled:
            raise AssertionError(f"{self.name} cannot click disabled button {what!r}")
        data = {"custom_id": button["custom_id"], "component_type": comp.BUTTON}
        return await self._component(target, data, f"click {what!r} by {self.name}")

    async def forge_click(self, message: Message | Reply | int, custom_id: str) -> Reply:
        """Click a component id of this person's choosing on ``message``, whether or not
        the message shows it: what a modified client can send."""
        target = self._visible_message(message)
        data = {"custom_id": custom_id, "component_type": comp.BUTTON}
        return await self._component(target, data, f"forged click {custom_id!r} by {self.name}")

    async def forge_select(self, message: Message | Reply | int, custom_id: str,
                           values: Sequence[str]) -> Reply:
        """Pick ``values`` of this person's choosing in a string select with ``custom_id``,
        whether or not the message offers them: what a modified client can send."""
        target = self._visible_message(message)
        data = {"custom_id": custom_id, "component_type": comp.STRING_SELECT,
                "values": list(values)}
        return await self._component(target, data, f"forged select {list(values)} by {self.name}")

    async def select(self, message: Message | Reply | int, select: str,
                     values: Sequence[str | Actor | User | Channel | Role], *,
                     allow_disabled: bool = False) -> Reply:
        """Pick ``values`` in the select whose custom_id contains ``select`` (or placeholder)."""
        target = self._visible_message(message)
        menu = _find_select(target, select)
        if menu["disabled"] and not allow_disabled:
            raise AssertionError(f"{self.name} cannot use disabled select {select!r}")
        low, high = menu["min_values"], menu["max_values"]
        assert low <= len(values) <= high, (
            f"select {select!r} takes {low} to {high} values, got {len(values)}")
        data: dict[str, Any] = {"custom_id": menu["custom_id"], "component_type": menu["type"]}
        if menu["type"] == comp.STRING_SELECT:
            offered = [o["value"] for o in menu["options"]]
            for value in values:
                assert value in offered, f"select {select!r} offers {offered}, not {value!r}"
            assert len(set(map(str, values))) == len(values), "a select value was picked twice"
            data["values"] = list(values)
        else:
            data["values"], data["resolved"] = self._entities(target, values)
        picked = [str(v) for v in values]
        return await self._component(target, data, f"select {picked} by {self.name}")

    async def submit_modal(self, reply: Reply, values: dict[str, str | list[str]]) -> Reply:
        """Fill in and submit the modal a reply opened (text inputs and string selects)."""
        modal = reply.modal
        assert modal is not None, f"the bot opened no modal for {reply.interaction.description}"
        inputs = {c["custom_id"]: c for c in comp.walk(modal.get("components", []))
                  if c.get("type") in (comp.TEXT_INPUT, comp.STRING_SELECT)}
        unknown = set(values) - set(inputs)
        assert not unknown, f"modal {modal.get('title')!r} has no field(s) {sorted(unknown)}"
        for custom_id, field_ in inputs.items():
            if field_.get("required", True) and custom_id not in values:
                raise AssertionError(f"modal field {custom_id!r} is required")
        data = {"custom_id": modal["custom_id"],
                "components": [_submitted(c, values) for c in modal.get("components", [])]}
        origin = reply.interaction
        channel = self._emu.world.channels[origin.channel_id]
        message = self._emu.world.messages.get(origin.message_id or 0)
        interaction = self._emu.world.new_interaction(
            InteractionType.MODAL_SUBMIT, self.user, channel, data,
            f"modal {modal.get('title')!r} by {self.name}", message=message)
        return await self._emu.run_interaction(interaction)

    async def say(self, channel: Channel, content: str) -> Message:
        """Post a plain message as this person (MESSAGE_CREATE reaches the bot)."""
        self._check_can_use(channel)
        return self._emu.post_user_message(self.user, channel, content)

    # -- helpers ---------------------------------------------------------------------------

    def _check_can_use(self, channel: Channel) -> None:
        world = self._emu.world
        if channel.is_private:
            assert self.id in channel.recipient_ids, f"{self.name} is not in {channel}"
        elif channel.is_dm:
            assert channel.recipient_id == self.id, f"{self.name} is not in {channel}"
        else:
            assert channel.guild_id is not None
            assert self.id in world.guilds[channel.guild_id].members, (
                f"{self.name} is not a member of the server of {channel}")
            assert world.can_see_channel(self.id, channel), f"{self.name} cannot see {channel}"

    def _visible_message(self, ref: Message | Reply | int) -> Message:
        """The current state of a message this person can see (and so act on)."""
        if isinstance(ref, Reply):
            message_id = ref.interaction.original_message_id or 0
        elif isinstance(ref, Message):
            message_id = ref.id
        else:
            message_id = ref
        message = self._emu.world.messages.get(message_id)
        assert message is not None, f"message {message_id} does not exist (deleted?)"
        self._check_can_use(self._emu.world.channels[message.channel_id])
        assert message.visible_to in (None, self.id), (
            f"{self.name} cannot see message {message.id}: it is ephemeral for someone else")
        assert not message.loading, f"message {message.id} is still 'thinking...'"
        return message

    async def _component(self, message: Message, data: dict[str, Any], description: str) -> Reply:
        channel = self._emu.world.channels[message.channel_id]
        interaction = self._emu.world.new_interaction(
            InteractionType.MESSAGE_COMPONENT, self.user, channel, data, description,
            message=message)
        return await self._emu.run_interaction(interaction)

    def _entities(self, message: Message,
                  values: Sequence[Any]) -> tuple[list[str], dict[str, dict[str, Any]]]:
        """Values and ``resolved`` of a user/role/mentionable/channel select."""
        world = self._emu.world
        channel = world.channels[message.channel_id]
        resolved: dict[str, dict[str, Any]] = {}
        ids = []
        for value in values:
            user = as_user(value)
            if user is not None:
                add_resolved_user(world, channel, user, resolved)
                ids.append(str(user.id))
            elif isinstance(value, Channel):
                resolved.setdefault("channels", {})[str(value.id)] = {
                    "id": str(value.id), "name": value.name, "type": value.type, "permissions": "0"}
                ids.append(str(value.id))
            else:
                raise AssertionError(f"cannot pick {value!r} in an entity select")
        return ids, resolved


def _find_button(message: Message, label: str | None, custom_id: str | None,
                 emoji: str | None) -> dict[str, Any]:
    buttons = message.buttons()
    if custom_id is not None:
        matches = [b for b in buttons if b["custom_id"] == custom_id] or [
            b for b in buttons if custom_id in (b["custom_id"] or "")]
        wanted = f"custom_id {custom_id!r}"
    elif label is not None:
        matches = [b for b in buttons if b["label"] == label]
        wanted = f"label {label!r}"
    elif emoji is not None:
        matches = [b for b in buttons if comp.emoji_matches(b, emoji)]
        wanted = f"emoji {emoji!r}"
    else:
        matches, wanted = buttons, "any button"
    shown = [b["label"] or b["emoji"] or b["custom_id"] for b in buttons]
    if not matches:
        raise AssertionError(f"no button with {wanted} on message {message.id}; it has {shown}")
    if len(matches) > 1:
        raise AssertionError(f"{len(matches)} buttons match {wanted} on message {message.id}: "
                             f"{[b['custom_id'] for b in matches]}")
    return matches[0]


def _find_select(message: Message, name: str) -> dict[str, Any]:
    menus = message.selects()
    for test in (lambda s: s["custom_id"] == name,
                 lambda s: name in (s["custom_id"] or ""),
                 lambda s: s["placeholder"] == name,
                 lambda s: name in (s["placeholder"] or "")):
        matches = [s for s in menus if test(s)]
        if len(matches) == 1:
            return matches[0]
        if len(matches) > 1:
            raise AssertionError(f"{len(matches)} selects match {name!r} on message {message.id}")
    raise AssertionError(f"no select {name!r} on message {message.id}; it has "
                         f"{[s['custom_id'] for s in menus]}")


def _submitted(component: dict[str, Any], values: dict[str, str | list[str]]) -> dict[str, Any]:
    """One component of a modal as the client submits it, keeping its nesting."""
    kind = component.get("type")
    if kind == 1:
        return {"type": 1, "components": [_submitted(c, values) for c in component["components"]]}
    if kind == 18:
        return {"type": 18, "component": _submitted(component["component"], values)}
    if kind == comp.TEXT_INPUT:
        value = values.get(component["custom_id"], "")
        return {"type": kind, "custom_id": component["custom_id"], "value": value}
    if kind == comp.STRING_SELECT:
        picked = values.get(component["custom_id"], [])
        return {"type": kind, "custom_id": component["custom_id"],
                "values": [picked] if isinstance(picked, str) else list(picked)}
    return {"type": kind}
