"""fakediscord: a stand-in for Discord on this machine, speaking Discord's wire
protocol. The end-to-end tests run the real bot on it, and so does local play
(``python bot.py`` with no token, in the browser).

The real, unmodified discord.py client logs in to it over HTTP and a websocket
on 127.0.0.1 (a random free port), syncs its slash commands, and is then
driven by people ("actors", or a person in local play's page) who type
commands, click buttons and pick options the way people do in Discord's
client. Nothing is mocked inside discord.py: what passes here went through
discord.py's own HTTP, webhook and gateway code.

By concern:

- ``core/``, the stand-in itself: ``core.server`` (``FakeDiscord``, HTTP and
  the gateway, ``core.gateway``), ``core.world`` and ``core.models``
  (everything that exists), ``core.traffic`` (what went over the wire, both
  ways), ``core.oauth``, ``core.commands`` and ``core.command_rules``,
  ``core.installs`` (where the app is installed, and what that allows where),
  ``core.components``, ``core.layouts`` and ``core.emojis`` (what a message
  may hold), ``core.payloads`` (Discord's JSON shapes), ``core.history`` (how
  much of the past is kept), ``core.spec`` (every request checked against
  Discord's OpenAPI description, vendored in ``core/spec/``), and
  ``core.actors`` (the simulated people ``FakeDiscord.create_user`` makes);
- ``core/rest/``: the REST routes, each request's checks
  (``core.rest.request``), rate limits (``core.rest.ratelimits``) and the
  faults a test injects (``core.rest.faults``);
- ``transcript/``: messages drawn as Discord's app draws them, as HTML, and
  photographed;
- ``local/``: local play, its page, Discord's app around the Activity, and the
  world kept between runs;
- ``harness``: a discord.py client run on the stand-in, and the errors it
  logged.

Quick start (pytest; the fixtures live in ``tests/conftest.py``)
------------------------------------------------------------------
::

    async def test_lobby(fake_discord, start_bot):
        emu = fake_discord                                   # started, discord.py points at it
        guild = emu.create_guild("Test Server")
        channel = emu.create_text_channel(guild, "rummy")
        alice = emu.create_user("alice", guild=guild)
        bob = emu.create_user("bob", guild=guild, manage_messages=True)
        await start_bot(RummyBot())                          # logs in, syncs, waits for on_ready

        reply = await alice.slash(channel, "rummy start", target=50, ace="high_or_low")
        assert reply.type == 4 and not reply.ephemeral
        joined = await bob.click(reply.message, label="Join")
        assert joined.type == 7 and joined.message is reply.message   # updated in place
        assert str(bob.id) in reply.message.text()           # Messages are always current
        hand = await alice.click(reply.message, custom_id="rummy:hand")
        assert hand.ephemeral and hand.message in alice.visible_messages(channel)
        await alice.select(hand.message, "cards", ["10H", "10S", "10D"])

At teardown ``start_bot`` stops every bot and fails the test if a bot task
crashed, discord.py logged an error (an exception in a command, view or
event), or the emulator recorded a problem: an unknown route, a request body
that violates Discord's OpenAPI description (named by route and first
error), a 400 answer (e.g. content over 2000 characters), an interaction left
unanswered for 3 s. Use ``start_bot(bot, fail_on_logged_errors=False)`` when
errors are the point, and ``emu.take_problems()`` to claim expected problems.

Without pytest: ``async with FakeDiscord() as emu:``, then
``with point_discord_at(emu): runner = await run_client(emu, bot)`` and at the
end ``problems = await runner.stop(); emu.check()``.

The world
---------
``emu.create_guild(name, bot_permissions=...)`` -> ``Guild`` (the bot is a
member; permissions default to @everyone's plus manage_messages).
``emu.create_text_channel(guild, name)`` -> ``Channel``.
``emu.create_user(name, guild=None, permissions=None, **flags)`` -> ``Actor``;
with ``guild`` a member with @everyone's permissions plus ``permissions`` (an
int or ``discord.Permissions``) and flags such as ``manage_guild=True``.
``emu.add_member(actor, guild, ...)`` adds one to another server,
``emu.set_permissions(channel, who, send_messages=False)`` writes a channel
overwrite (``who``: an Actor, ``emu.bot_user``, or the Guild for @everyone).
Changes after the bot is ready reach it as gateway events.

Reading what people see: ``emu.messages(channel)`` (public messages, oldest
first; ``include_ephemeral=True`` for all), ``emu.message(channel_or_id, id)``
(any message, None once deleted), ``alice.visible_messages(channel)`` (public
plus alice's ephemerals), ``alice.dms()``, ``emu.commands(guild=None)``.
``await emu.wait_for(predicate, timeout=2.0)`` waits until ``predicate()`` is
truthy (woken by every change, polled every 50 ms) and returns its value.

A ``Message`` is the stored object, edited in place: ``.id, .channel_id,
.guild_id, .author_id, .content, .embeds, .components, .flags, .ephemeral,
.loading, .is_v2, .attachments, .file_data, .edits, .deleted`` and helpers
``.buttons()`` (dicts: label, custom_id, disabled, style, emoji, emoji_id,
url, id), ``.button(label)``, ``.selects()``, ``.text()`` (content, embed text
and text displays joined, for assertions), and for Components V2 layouts
``.text_displays()`` (each text display, sections' included, in reading
order), ``.accent_colors()`` (each container's, None if unset) and
``.media_urls()`` (thumbnails, gallery items, files). Buttons and selects are
found wherever they sit: action rows, containers, sections' accessories.

Components V2
-------------
A message whose ``flags`` carry ``IS_COMPONENTS_V2`` (``1 << 15``; what
discord.py's ``ui.LayoutView`` sends) is a layout (``core.layouts``): channel
messages, callbacks 4 and 7, followups and webhook edits take it, ephemeral or
not, with Discord's rules, each answered 400 (code 50035, the error tree
pointing at the fault): no ``content``/``embeds``/``poll``/``sticker_ids``;
top level action rows, sections, text displays, media galleries, files,
separators and containers (a container holds the same, but no container); a
section 1-3 text displays and a button or thumbnail accessory; a row up to 5
buttons or one select; at most 40 components counting nested ones and 4,000
characters of text displays in all; labels 80, option texts 100, placeholders
150, custom ids 100 characters and unique. The flag never goes away: an edit
sending ``flags`` without it, or content, is refused; one without ``flags``
keeps it. A "thinking" answer (type 5) may only carry the EPHEMERAL flag; the
layout comes with the edit or followup that fills it in. Stored and sent back
as Discord does: every component numbered (``id``), defaults filled in, media
unfurled. Legacy messages keep their own rules (content, up to 5 rows).

Application emojis
------------------
``GET/POST /applications/{id}/emojis`` and ``GET/PATCH/DELETE
/applications/{id}/emojis/{emoji_id}`` (discord.py's
``create_application_emoji``, ``fetch_application_emoji(s)``,
``Emoji.edit``/``delete``) keep ``AppEmoji`` objects (``id, name, image``
(bytes), ``content_type, animated, user_id, mention``) in
``emu.world.application_emojis`` (by id). Names are 2-32 of ``[A-Za-z0-9_]``
and unique (else 50035 ``APPLICATION_EMOJI_NAME_ALREADY_TAKEN``), images PNG,
JPEG, GIF, WEBP or AVIF data URIs up to 256 KiB (else 50035 "File cannot be
larger than 256.0 kb."), and at most ``world.max_application_emojis`` (2,000;
a test may lower it) exist (else 30008). ``emu.application_emojis()``,
``emu.application_emoji(name)`` read them; ``emu.add_application_emoji(name,
image=...)`` uploads one as the Developer Portal would, before the bot starts.
A custom emoji on a button or select option of any message must be one of
them (else 50035 ``BUTTON_COMPONENT_INVALID_EMOJI``); servers here have no
emojis of their own. Emoji in text (``<:name:id>``) are not checked.

Activities
----------
The server side of a Discord Activity (the application's embedded web page).
``world.enable_activities()`` is the portal's switch: it allows callback type
12 and registers the default Entry Point command (global, type 4
PRIMARY_ENTRY_POINT, ``handler`` 2, named "launch"); from then on a bulk
overwrite of global commands that leaves it out answers 400 code 50240 (so
does discord.py's ``tree.sync()``: send the Entry Point command along, or
delete it first), one that lists it (type 4) keeps its id. Type 4 commands
are refused (50035) without Activities, in a guild, or beside another; so is
a ``handler`` on any other type. ``world.entry_point()`` reads it.

LAUNCH_ACTIVITY (callback 12; discord.py's ``response.launch_activity()``)
answers a command or a click, not a modal: ``world.launch_activity(user_id,
channel_id)`` puts the person in the channel's instance (``ActivityInstance``:
``instance_id`` ``i-<snowflake>-gc-<guild>-<channel>``, ``launch_id``,
``channel_id``, ``guild_id``, ``users``), starting one if none runs; everyone
launching in one channel shares it, and a person is in one at a time.
``?with_response=1`` answers ``resource: {type: 12, activity_instance: {id}}``
and ``interaction.activity_instance_id``; the ``Reply`` has
``.activity_instance``. ``world.leave_activity(instance_id, user_id)`` ends
an instance once empty; ``world.activity_instance(id)``,
``world.activity_instances`` (by id) and ``world.activity_launches`` ((user
id, instance id), every launch, watchers woken) read them.
``GET /applications/{id}/activity-instances/{instance_id}`` (bot token)
answers Discord's EmbeddedActivityInstance, or 404 ``{"message": "404: Not
Found", "code": 0}``.

An instance in a DM or group DM between people is a private channel's: location
``{"id": "pc-<channel>", "kind": "pc", "channel_id"}`` with no guild, and only
the channel's people may be in it (``launch_activity`` refuses others).

OAuth2 of the Activity's handshake (``core.oauth``): ``world.issue_oauth_code(
user_id, scopes)`` is the client's ``commands.authorize`` (scopes checked
against Discord's list; the code is single use, 10 minutes).
``POST /oauth2/token`` takes a form (``grant_type=authorization_code`` and
``code``, or ``refresh_token``) and the client credentials (the client id is
``world.application_id``, the secret ``world.client_secret``, made with the
world and saved with it) as fields or HTTP Basic; no bot token. It answers
``access_token``, ``token_type`` Bearer, ``expires_in`` 604800,
``refresh_token``, ``scope``; refusals are OAuth2's (401 ``invalid_client``;
400 ``invalid_grant``, ``unsupported_grant_type``) and are not problems.
``GET /users/@me`` with ``Authorization: Bearer <token>`` (scope
``identify``) answers that person; an expired or unknown token 401.
``world.pass_time(seconds)`` moves the clock these expiries read.

User installs and interaction contexts
--------------------------------------
``core.installs``, after Discord's "Application Commands" (contexts),
"Interactions > Receiving and Responding" and "Application" pages.
``world.enable_user_install()`` is the portal's switch (the application's
``integration_types_config`` then lists "0" and "1"), ``world.install_for_user(
user)`` a person installing the app; ``emu.create_guild(name, installed=False)``
a server that never installed it (no bot: it sends the bot no events but its
members' interactions), ``emu.create_private_channel([alice, bob])`` a DM
between people (type 1) and ``emu.create_private_channel([...], name=...)`` or
three or more people a group DM (type 3, the first its owner), the bot no
member of either.

A synced command keeps ``integration_types`` (unset: the app's configured
installs) and ``contexts`` (unset: null, offered in servers and the bot's DM).
``slash`` raises ``installs.UnavailableCommand`` (an AssertionError) where the
person's client would not offer the command: a context it does not list (0 a
server, 1 the bot's DM, 2 a DM or group DM between people), or no install of
its types there (the server's, in a server whose bot is a member or the bot's
DM; the person's own, anywhere). Each interaction carries ``context``,
``authorizing_integration_owners`` ({"0": guild id, or "0" in the bot's DM;
"1": the installer's id}; a click keeps the owners of the interaction that made
the message) and ``app_permissions``: the bot's in a server that installed it;
attach files, embed links, mention everyone and external emojis, as far as the
channel grants the invoker, in one that did not; attach, embed and mention
everyone in a DM or group DM between people; in the bot's DM, its usual DM
permissions with those four added. A private channel's interaction carries
the channel as the invoker sees it (its other people; a group DM's name and
owner).

Where the bot is no member, the bot's token is refused 403 code 50001 (sending,
editing, reading) and recorded as a problem; the interaction's token answers
as anywhere, but with a user install alone 5 follow-ups an interaction at most
(the 6th: 400 code 40094), and in a server that did not install the app, a
member denied USE_EXTERNAL_APPS (``1 << 50``) gets every answer (callbacks 4
and 5, follow-ups) as an ephemeral message of their own.

Actors
------
``await alice.slash(channel, "rummy start", **options)`` builds the
interaction from the command the bot *synced*: subcommand groups and
subcommands by name, option types from the registration (integers, numbers,
booleans, strings, choices by value or name, bounds; user options take an
Actor and fill ``data.resolved``; channel options a Channel). What the
client would refuse raises AssertionError: unknown or missing options, a
command hidden by ``default_member_permissions``, DM-less commands in DMs, a
command not offered in that context or not installed there (see below).
``channel`` may be ``alice.dm_channel``, or a DM or group DM she is in.

``await alice.click(message, label=None, *, custom_id=None, emoji=None,
allow_disabled=False)`` clicks a button (``message`` may be a Message, a
Reply or an id; custom_id matches exactly or as a unique substring; emoji is
a unicode emoji, a custom emoji's name or id, or ``<:name:id>``).
``await alice.select(message, "cards", ["10H", "10S"])`` picks values in the
select whose custom_id or placeholder contains the name; values must be
offered and within min/max. ``forge_click(message, custom_id)`` and
``forge_select(message, custom_id, values)`` send what a modified client can:
any id, any values. ``await alice.submit_modal(reply, {custom_id:
value})`` submits the modal a reply opened. ``await alice.say(channel,
text)`` posts a plain message. Disabled, missing, link or ambiguous buttons,
messages someone else's ephemeral, deleted or still "thinking" all raise
AssertionError. Every action is a fresh interaction, so a message can be
clicked again and again; two actors may act at once (``asyncio.gather``).

Each action returns a ``Reply``: ``.type`` (callback type: 4 message,
5 thinking, 6 deferred update, 7 update, 9 modal, 12 Activity launched), ``.answered``,
``.latency`` (INTERACTION_CREATE sent -> callback received, s), ``.message``
(the message created or updated, current, None if deleted), ``.content``,
``.embeds``, ``.components``, ``.ephemeral``, ``.text_displays()``,
``.accent_colors()``, ``.followups`` (messages sent
through the followup webhook; the first one after a "thinking" defer fills
the original, so it is also ``.message``), ``.modal``, ``.text()``. The
action waits up to ``emu.interaction_timeout`` (3 s) for the callback and,
for types 5/6, up to ``emu.deferred_timeout`` (3 s) for the first edit or
followup.

Faults
------
- ``alice.close_dms()`` / ``open_dms()``: the bot's DMs to alice answer 403,
  code 50007 (so do DMs to someone who shares no server with the bot).
- ``emu.fail_next("POST /channels/*/messages", status=429, retry_after=0.05,
  times=1)``: the next matching requests answer 429 (with the ``Via`` header
  discord.py requires) or any other status (500: discord.py retries after
  1 s). The pattern globs the path or the route template, optional method
  first. Returns a ``Fault`` whose ``.hits`` counts answers given.
- ``await emu.drop_gateway(code=4000, wait=True)``: closes the websocket;
  events meanwhile are kept and replayed on RESUME (op 6), followed by
  RESUMED. With ``wait`` it returns once the client resumed. A code such as
  4004 cannot be resumed: the client task dies (reported as a crash).
- ``emu.expire_token(reply_or_interaction_or_token)`` / ``expire_all_tokens()``:
  webhook calls with the token answer 404 code 10015, a callback 404 code
  10062, as on Discord after 15 minutes.

Wire details
------------
REST under ``/api/v10`` (``emu.api_base``), the gateway at ``/``
(``emu.gateway_url``, also READY's ``resume_gateway_url``). JSON answers
carry exactly ``Content-Type: application/json``; gateway frames are TEXT
frames of plain JSON (``compress`` is ignored). IDENTIFY with a wrong token
closes 4004; a privileged intent not granted (``FakeDiscord(privileged_intents=...)``)
closes 4014. GUILD_CREATE carries all members only with the GUILD_MEMBERS
intent, and ``member_count`` always; op 8 member requests are answered.
Without MESSAGE_CONTENT, other people's server messages arrive blank unless
they mention the bot (``<@id>`` in what an actor says with ``say``).

Every request body (JSON, or ``payload_json`` of a multipart upload) is
validated against Discord's OpenAPI description vendored in ``core/spec/``
(MIT, see ``core/spec/LICENSE``), snowflakes accepted as strings or integers.
``emu.requests`` lists each ``RecordedRequest`` (method, path, route, query,
body, files, status, response, time); ``emu.events`` the gateway frames;
``emu.dispatched("MESSAGE_CREATE")`` the payloads of one event. With
``FAKEDISCORD_TRAFFIC=/path/file.jsonl`` all of it is also appended to that
file, one JSON object a line.

``FakeDiscord(record=False)`` keeps none of it in memory (a long load run);
``emu.traffic.on_http`` observers still see every request as it is answered.

``FakeDiscord(rate_limits=RateLimits())`` (``core.rest.ratelimits``) enforces Discord's
rate limits: 5 message sends or edits per 5 s per channel, other bot routes
(application emojis' too) 50 a second each, and 50 requests a second for the
whole bot (interaction callbacks and webhooks exempt), with the
``X-RateLimit-*`` headers discord.py paces itself by and a 429 past them.

``python -m tests.bench.bench`` prints login-to-ready time and
interaction round trips. ``python -m tests.bench.load`` is the load
benchmark: the real bot as a separate process, hundreds of simulated players
(``load_players``), and the figures docs/performance.md lists.

Limits
------
No rate limits unless asked for, no threads, reactions, pins, roles beyond
the per-member permission role, channel categories, voice, autocomplete or
message-edit limits (30046); unknown routes are reported, so a missing one
shows up at once.
"""

from .core.actors import Actor, Reply
from .core.rest.faults import Fault
from .core.server import FakeDiscord
from .core.traffic import RecordedRequest
from .core.world import AppEmoji, Channel, Guild, Interaction, Message, Role, User
from .harness import BotRunner, ErrorLog, point_discord_at, run_client

__all__ = [
    "Actor", "AppEmoji", "BotRunner", "Channel", "ErrorLog", "FakeDiscord", "Fault", "Guild",
    "Interaction", "Message", "RecordedRequest", "Reply", "Role", "User", "point_discord_at",
    "run_client",
]
