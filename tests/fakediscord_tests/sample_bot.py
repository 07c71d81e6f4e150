"""A small discord.py bot that uses every feature the emulator must carry.

Not the project's bot: a fixture to test the emulator with. Each command
exercises one protocol path; ``bot.log`` records what the bot observed (e.g.
the Forbidden it got when a DM was refused) so tests can assert on it.
"""

from __future__ import annotations

import asyncio
import io
import re
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

CARDS = ["10H", "10S", "10D", "10C", "JH", "QH", "KH"]


class JoinButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                 template=r"sample:join:(?P<channel_id>\d+)"):
    """A click with a valid custom_id is handled whenever it arrives, even after a restart."""

    def __init__(self, channel_id: int) -> None:
        super().__init__(discord.ui.Button(label="Join", style=discord.ButtonStyle.primary,
                                           custom_id=f"sample:join:{channel_id}"))
        self.channel_id = channel_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> JoinButton:
        return cls(int(match["channel_id"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        bot = interaction.client
        assert isinstance(bot, SampleBot)
        async with bot.lock:
            players = bot.tables.setdefault(self.channel_id, [])
            if interaction.user.id in players:
                await interaction.response.send_message("You already joined.", ephemeral=True)
                return
            players.append(interaction.user.id)
            names = ", ".join(f"<@{p}>" for p in players)
            await interaction.response.edit_message(content=f"Players: {names}",
                                                    view=lobby_view(self.channel_id))


class RefreshButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"sample:refresh"):
    """Deferred update (callback type 6), then an edit of the message via @original."""

    def __init__(self) -> None:
        super().__init__(discord.ui.Button(label="Refresh", custom_id="sample:refresh"))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> RefreshButton:
        return cls()

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer()
        await asyncio.sleep(0.02)
        bot = interaction.client
        assert isinstance(bot, SampleBot)
        bot.refreshes += 1
        await interaction.edit_original_response(content=f"Refreshed {bot.refreshes} time(s)")


def lobby_view(channel_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(JoinButton(channel_id))
    view.add_item(RefreshButton())
    view.add_item(discord.ui.Button(label="Closed", disabled=True, custom_id="sample:closed"))
    view.add_item(discord.ui.Button(label="Rules", url="https://example.com/rules"))
    return view


class HandView(discord.ui.View):
    """An ordinary (non-persistent) view on an ephemeral message."""

    def __init__(self) -> None:
        super().__init__(timeout=60)

    @discord.ui.select(custom_id="sample:cards", placeholder="Pick cards", min_values=1,
                       max_values=3,
                       options=[discord.SelectOption(label=c, value=c) for c in CARDS])
    async def cards(self, interaction: discord.Interaction,
                    select: discord.ui.Select[HandView]) -> None:
        await interaction.response.edit_message(content=f"You picked {' '.join(select.values)}",
                                                view=None)


class FeedbackModal(discord.ui.Modal, title="Feedback"):
    text: discord.ui.TextInput[FeedbackModal] = discord.ui.TextInput(
        label="Your feedback", custom_id="sample:feedback:text")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"Thanks: {self.text.value}", ephemeral=True)


Emoji = discord.Emoji | discord.PartialEmoji | str


def notice_layout(text: str) -> discord.ui.LayoutView:
    """A one-line Components V2 message."""
    view = discord.ui.LayoutView()
    view.add_item(discord.ui.Container(discord.ui.TextDisplay(text)))
    return view


class TableLayout(discord.ui.LayoutView):
    """A Components V2 table: a container (accent colour) holding text displays, a
    section with a thumbnail, a section with a button accessory, a separator, a row
    of buttons and a select, then a text display outside it. Each control answers in
    another way: an update of the table, an ephemeral layout, a deferred followup."""

    def __init__(self, draws: int = 0, *, emoji: Emoji | None = None) -> None:
        super().__init__(timeout=60)
        self.draws = draws
        Button = discord.ui.Button[TableLayout]
        kick: Button = discord.ui.Button(label="Kick bob", custom_id="table:kick",
                                         style=discord.ButtonStyle.danger)
        kick.callback = self.kick  # type: ignore[method-assign]
        draw: Button = discord.ui.Button(label="Draw", custom_id="table:draw", emoji=emoji,
                                         style=discord.ButtonStyle.primary)
        draw.callback = self.draw  # type: ignore[method-assign]
        knock: Button = discord.ui.Button(label="Knock", custom_id="table:knock", disabled=True)
        cards: discord.ui.Select[TableLayout] = discord.ui.Select(
            custom_id="table:cards", placeholder="Pick cards", max_values=3,
            options=[discord.SelectOption(label=c, value=c) for c in CARDS])
        cards.callback = self.pick  # type: ignore[method-assign]
        self.cards = cards
        self.add_item(discord.ui.Container(
            discord.ui.TextDisplay("# Table 1"),
            discord.ui.Section(discord.ui.TextDisplay("alice: 12 cards"),
                               accessory=discord.ui.Thumbnail("https://example.com/alice.png")),
            discord.ui.Section(discord.ui.TextDisplay("bob: 9 cards"),
                               discord.ui.TextDisplay("bob is thinking"), accessory=kick),
            discord.ui.Separator(),
            discord.ui.ActionRow(draw, knock),
            discord.ui.ActionRow(cards),
            accent_colour=0x2ECC71,
        ))
        self.add_item(discord.ui.TextDisplay(f"Draws: {draws}"))

    def _log(self, interaction: discord.Interaction, what: str) -> None:
        """What discord.py made of the clicked message, for tests to compare."""
        bot = interaction.client
        assert isinstance(bot, SampleBot) and interaction.message is not None
        kinds = [type(c).__name__ for c in interaction.message.components]
        bot.log.append((what, (interaction.message.flags.components_v2, kinds)))

    async def draw(self, interaction: discord.Interaction) -> None:
        self._log(interaction, "draw")
        await interaction.response.edit_message(view=TableLayout(self.draws + 1))

    async def kick(self, interaction: discord.Interaction) -> None:
        self._log(interaction, "kick")
        await interaction.response.send_message(view=notice_layout("bob was kicked"),
                                                ephemeral=True)

    async def pick(self, interaction: discord.Interaction) -> None:
        self._log(interaction, "pick")
        await interaction.response.defer(thinking=True, ephemeral=True)
        picked = " ".join(self.cards.values)
        await interaction.followup.send(view=notice_layout(f"You picked {picked}"))
        await interaction.followup.send(view=notice_layout("Only you see this"), ephemeral=True)


game = app_commands.Group(name="game", description="Play a game")


@game.command(name="start", description="Open a lobby")
@app_commands.describe(target="Points to win", ace="How aces count")
async def game_start(interaction: discord.Interaction, target: app_commands.Range[int, 1, 500],
                     ace: Literal["high", "low", "high_or_low"] = "low") -> None:
    assert interaction.channel_id is not None
    embed = discord.Embed(title="Lobby", description=f"First to {target}, aces {ace}")
    await interaction.response.send_message("Players: none", embed=embed,
                                            view=lobby_view(interaction.channel_id))


class SampleBot(commands.Bot):
    def __init__(self, **options: Any) -> None:
        intents = discord.Intents.default()
        intents.message_content = True
        super().__init__(command_prefix="!", intents=intents, **options)
        self.lock = asyncio.Lock()
        self.tables: dict[int, list[int]] = {}
        self.refreshes = 0
        self.log: list[tuple[str, Any]] = []
        self.remembered: discord.Interaction | None = None
        self.tree.add_command(game)
        self._add_commands()

    async def setup_hook(self) -> None:
        self.add_dynamic_items(JoinButton, RefreshButton)
        await self.tree.sync()

    async def on_message(self, message: discord.Message) -> None:
        if message.author.id != self.user.id and message.content == "!hello":  # type: ignore[union-attr]
            await message.channel.send(f"Hello {message.author.name}")

    def _add_commands(self) -> None:
        tree = self.tree

        @tree.command(description="Your hand, only for you")
        async def hand(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("Your hand", view=HandView(), ephemeral=True)

        @tree.command(description="Send someone a DM")
        async def dm(interaction: discord.Interaction, who: discord.Member) -> None:
            try:
                await who.send(f"Psst, from {interaction.user.name}")
            except discord.Forbidden as exc:
                self.log.append(("dm_forbidden", exc.code))
                await interaction.response.send_message(f"Cannot DM {who.name}", ephemeral=True)
                return
            await interaction.response.send_message(f"DM sent to {who.name}", ephemeral=True)

        @tree.command(description="Think, then answer")
        async def slow(interaction: discord.Interaction, private: bool = False) -> None:
            await interaction.response.defer(thinking=True, ephemeral=private)
            await asyncio.sleep(0.05)
            await interaction.followup.send("Done thinking")
            await interaction.followup.send("And one more thing", ephemeral=True)

        @tree.command(description="Post, then edit a channel message")
        async def edit(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("Editing...", ephemeral=True)
            assert isinstance(interaction.channel, discord.TextChannel)
            message = await interaction.channel.send("version 1")
            await message.edit(content="version 2")
            await interaction.edit_original_response(content=f"Edited {message.id}")

        @tree.command(description="A Components V2 table")
        async def table(interaction: discord.Interaction) -> None:
            await interaction.response.send_message(view=TableLayout())

        @tree.command(description="Think, then show the table")
        async def table_later(interaction: discord.Interaction) -> None:
            await interaction.response.defer(thinking=True)
            await asyncio.sleep(0.02)
            await interaction.edit_original_response(view=TableLayout())

        @tree.command(description="Post a file")
        async def upload(interaction: discord.Interaction) -> None:
            file = discord.File(io.BytesIO(b"10H 10S 10D"), filename="hand.txt")
            await interaction.response.send_message("Here is a file", file=file)

        @tree.command(description="Announce in the channel (REST, not a response)")
        async def announce(interaction: discord.Interaction, text: str) -> None:
            await interaction.response.defer(thinking=True)
            assert isinstance(interaction.channel, discord.TextChannel)
            await interaction.channel.send(text)
            await interaction.followup.send("Announced")

        @tree.command(description="Poke a member")
        async def poke(interaction: discord.Interaction, who: discord.Member) -> None:
            await interaction.response.send_message(f"{interaction.user.name} pokes {who.name}")

        @tree.command(description="Remember this interaction")
        async def remember(interaction: discord.Interaction) -> None:
            self.remembered = interaction
            await interaction.response.send_message("Remembered", ephemeral=True)

        @tree.command(description="Edit the remembered response")
        async def recall(interaction: discord.Interaction) -> None:
            assert self.remembered is not None
            await interaction.response.send_message("Recalling", ephemeral=True)
            try:
                await self.remembered.edit_original_response(content="Edited later")
            except discord.NotFound as exc:
                self.log.append(("token_expired", exc.code))
                await interaction.followup.send("Too late to edit", ephemeral=True)

        @tree.command(description="Tell us what you think")
        async def feedback(interaction: discord.Interaction) -> None:
            await interaction.response.send_modal(FeedbackModal())

        @tree.command(description="Only for moderators")
        @app_commands.default_permissions(manage_messages=True)
        async def purge(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("Purged", ephemeral=True)

        @tree.command(description="Answers, then fails")
        async def boom(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("About to fail")
            raise RuntimeError("boom")

        @tree.command(description="Never answers")
        async def ignore(interaction: discord.Interaction) -> None:
            self.log.append(("ignored", interaction.id))


everywhere = app_commands.allowed_installs(guilds=True, users=True)
any_place = app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)


class InstallsBot(SampleBot):
    """The sample bot, installable to people too: its extra commands are offered
    for both installs in every place (``/where``, ``/chatty``, ``/intrude``,
    ``/play``), or for the user install alone (``/mine``). ``seen`` records what
    discord.py made of each interaction."""

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.seen: list[discord.Interaction] = []
        self.refusals: list[tuple[str, int, int]] = []  # (what, HTTP status, Discord code)
        tree = self.tree

        @tree.command(description="Say where you are")
        @everywhere
        @any_place
        async def where(interaction: discord.Interaction) -> None:
            self.seen.append(interaction)
            await interaction.response.send_message(f"context {interaction.context}")

        @tree.command(description="Answer, then follow up")
        @everywhere
        @any_place
        async def chatty(interaction: discord.Interaction, count: int) -> None:
            self.seen.append(interaction)
            await interaction.response.send_message("Here we go")
            for number in range(count):
                try:
                    await interaction.followup.send(f"Follow-up {number + 1}")
                except discord.HTTPException as exc:
                    self.refusals.append(("followup", exc.status, exc.code))
                    return
            await interaction.edit_original_response(content="All sent")

        @tree.command(description="Write in the channel with the bot's token")
        @everywhere
        @any_place
        async def intrude(interaction: discord.Interaction) -> None:
            self.seen.append(interaction)
            await interaction.response.defer(thinking=True)
            channel = interaction.channel
            assert isinstance(channel, discord.abc.Messageable)
            try:
                await channel.send("The bot was here")
            except discord.HTTPException as exc:
                self.refusals.append(("send", exc.status, exc.code))
            try:
                await self.http.get_channel(interaction.channel_id or 0)
            except discord.HTTPException as exc:
                self.refusals.append(("read", exc.status, exc.code))
            await interaction.followup.send("Tried")

        @tree.command(description="Play in the Activity")
        @everywhere
        @any_place
        async def play(interaction: discord.Interaction) -> None:
            self.seen.append(interaction)
            await interaction.response.launch_activity()

        @tree.command(description="Only for those who installed it")
        @app_commands.allowed_installs(guilds=False, users=True)
        @any_place
        async def mine(interaction: discord.Interaction) -> None:
            self.seen.append(interaction)
            await interaction.response.send_message("Yours")
