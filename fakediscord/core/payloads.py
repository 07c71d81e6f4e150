"""World objects as Discord's JSON: the shapes discord.py parses.

Several keys look optional but are read unconditionally by discord.py
(``member.roles``/``flags``, an interaction's ``version`` and
``attachment_size_limit``, an application's ``verify_key``...): a missing one
raises inside the client and kills it, so they are all always present.
"""

from __future__ import annotations

from typing import Any

from .components import Reason
from .oauth import TOKEN_LIFETIME
from .world import (
    ActivityInstance,
    AppEmoji,
    ChannelType,
    Guild,
    Interaction,
    Member,
    Message,
    OAuthToken,
    Role,
    User,
    World,
)

ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024
GATEWAY_INTENT_GUILD_MEMBERS = 1 << 1


def user(u: User) -> dict[str, Any]:
    return {
        "id": str(u.id), "username": u.name, "discriminator": "0", "global_name": u.name,
        "avatar": u.avatar, "bot": u.bot, "system": False, "public_flags": 0, "flags": 0,
        "banner": None, "accent_color": None, "avatar_decoration_data": None,
        "primary_guild": None,
    }


def member(m: Member, *, with_user: bool = True, permissions: int | None = None) -> dict[str, Any]:
    data: dict[str, Any] = {
        "roles": [str(r) for r in m.role_ids], "nick": m.nick, "avatar": None, "banner": None,
        "joined_at": m.joined_at, "premium_since": None, "deaf": False, "mute": False,
        "flags": 0, "pending": False, "communication_disabled_until": None,
    }
    if with_user:
        data["user"] = user(m.user)
    if permissions is not None:
        data["permissions"] = str(permissions)
    return data


def role(r: Role) -> dict[str, Any]:
    return {
        "id": str(r.id), "name": r.name, "color": 0, "hoist": False, "icon": None,
        "unicode_emoji": None, "position": r.position, "permissions": str(r.permissions),
        "managed": r.managed, "mentionable": False, "flags": 0,
        "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
    }


def channel(world: World, channel_id: int, *, viewer: int | None = None) -> dict[str, Any]:
    """A channel as ``viewer`` (default: the bot) is shown it."""
    c = world.channels[channel_id]
    last = str(c.last_message_id) if c.last_message_id else None
    if c.is_private:
        # Channel resource: a DM (1) or group DM (3) lists its people but the one
        # looking; a group DM has a name, an icon and an owner too.
        shown: dict[str, Any] = {
            "id": str(c.id), "type": c.type, "last_message_id": last, "flags": 0,
            "recipients": [user(world.users[u]) for u in c.recipient_ids if u != viewer]}
        if c.type == ChannelType.GROUP_DM:
            shown |= {"name": c.name, "icon": None, "owner_id": str(c.owner_id)}
        return shown
    if c.type == ChannelType.DM:
        assert c.recipient_id is not None
        return {"id": str(c.id), "type": c.type, "last_message_id": last, "flags": 0,
                "recipients": [user(world.users[c.recipient_id])]}
    shown = {
        "id": str(c.id), "type": c.type, "guild_id": str(c.guild_id), "name": c.name,
        "position": c.position, "topic": None, "nsfw": False,
        "permission_overwrites": [
            {"id": str(target), "type": kind, "allow": str(allow), "deny": str(deny)}
            for target, (kind, allow, deny) in c.overwrites.items()],
        "last_message_id": last, "rate_limit_per_user": 0, "parent_id": None, "flags": 0,
    }
    if c.type == ChannelType.GUILD_VOICE:
        # GuildChannelResponse's voice fields (OpenAPI); discord.py reads bitrate
        # and user_limit as required of a voice channel.
        shown |= {"bitrate": 64000, "user_limit": 0, "rtc_region": None,
                  "video_quality_mode": 1}
        del shown["topic"]
    return shown


def guild(world: World, g: Guild, *, intents: int) -> dict[str, Any]:
    """A GUILD_CREATE payload; without GUILD_MEMBERS only the bot's own member is sent."""
    if intents & GATEWAY_INTENT_GUILD_MEMBERS:
        members = list(g.members.values())
    else:
        members = [g.members[world.bot.id]]
    return {
        "id": str(g.id), "name": g.name, "icon": None, "splash": None, "discovery_splash": None,
        "owner_id": str(g.owner_id), "afk_channel_id": None, "afk_timeout": 300,
        "verification_level": 0, "default_message_notifications": 0,
        "explicit_content_filter": 0, "roles": [role(r) for r in g.roles.values()],
        "emojis": [], "stickers": [], "features": [], "mfa_level": 0,
        "system_channel_id": None, "system_channel_flags": 0, "rules_channel_id": None,
        "vanity_url_code": None, "description": None, "banner": None, "premium_tier": 0,
        "premium_subscription_count": 0, "preferred_locale": g.preferred_locale,
        "public_updates_channel_id": None, "nsfw_level": 0, "premium_progress_bar_enabled": False,
        "joined_at": g.members[world.bot.id].joined_at, "large": False, "unavailable": False,
        # member_count must equal the members sent when they are all sent, or
        # discord.py asks for the rest (op 8) and waits before on_ready.
        "member_count": len(g.members),
        "members": [member(m) for m in members],
        "channels": [channel(world, cid) for cid in g.channel_ids],
        "threads": [], "presences": [], "voice_states": [], "stage_instances": [],
        "guild_scheduled_events": [], "soundboard_sounds": [], "application_id": None,
        "max_members": 250000, "max_video_channel_users": 25, "safety_alerts_channel_id": None,
        "incidents_data": None,
    }


def message(world: World, m: Message, *, gateway: bool = False) -> dict[str, Any]:
    author = world.users[m.author_id]
    data: dict[str, Any] = {
        "id": str(m.id), "channel_id": str(m.channel_id), "type": m.type,
        "author": user(author), "content": m.content, "timestamp": m.created_at,
        "edited_timestamp": m.edited_at, "tts": m.tts, "mention_everyone": False,
        "mentions": [user(world.users[u]) for u in m.mentions], "mention_roles": [],
        "attachments": m.attachments,
        "embeds": m.embeds, "pinned": False, "flags": m.flags, "components": m.components,
    }
    if m.guild_id is not None:
        data["guild_id"] = str(m.guild_id)
        author_member = world.guilds[m.guild_id].members.get(m.author_id)
        if gateway and author_member is not None and m.webhook_id is None:
            data["member"] = member(author_member, with_user=False)
    if m.webhook_id is not None:
        data["webhook_id"] = str(m.webhook_id)
        data["application_id"] = str(world.application_id)
    if m.message_reference:
        data["message_reference"] = m.message_reference
    if m.interaction_id is not None:
        data.update(_interaction_metadata(world, m))
    return data


def _interaction_metadata(world: World, m: Message) -> dict[str, Any]:
    assert m.interaction_id is not None
    i = world.interactions[m.interaction_id]
    u = user(world.users[i.user_id])
    owners = i.owners or ({"0": str(i.guild_id)} if i.guild_id else {"1": str(i.user_id)})
    meta: dict[str, Any] = {"id": str(i.id), "type": i.type, "user": u,
                            "authorizing_integration_owners": owners}
    legacy: dict[str, Any] = {"id": str(i.id), "type": i.type, "user": u,
                              "name": i.data.get("name", "")}
    if i.type == 2:
        meta["name"] = i.data.get("name", "")
        meta["command_type"] = i.data.get("type", 1)
    if i.message_id is not None:
        meta["interacted_message_id"] = str(i.message_id)
    if i.original_message_id is not None and i.original_message_id != m.id:
        meta["original_response_message_id"] = str(i.original_message_id)
    return {"interaction_metadata": meta, "interaction": legacy}


def interaction(world: World, i: Interaction, *, app_permissions: int) -> dict[str, Any]:
    """An INTERACTION_CREATE payload, guild or DM."""
    c = world.channels[i.channel_id]
    # Receiving and Responding: where it came from (``context``) and for which
    # installs (``authorizing_integration_owners``, see ``installs.owners``).
    data: dict[str, Any] = {
        "id": str(i.id), "application_id": str(world.application_id), "type": i.type,
        "data": i.data, "channel_id": str(c.id),
        "channel": channel(world, c.id, viewer=i.user_id if c.is_private else None),
        "token": i.token, "version": 1, "locale": world.users[i.user_id].locale,
        "entitlements": [], "authorizing_integration_owners": dict(i.owners),
        "context": i.context,
        "app_permissions": str(app_permissions), "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
    }
    if i.guild_id is not None:
        g = world.guilds[i.guild_id]
        # Interactions carry the member's permissions in the channel, overwrites applied.
        perms = world.permissions_in(i.user_id, c)
        data.update({
            "guild_id": str(g.id),
            "guild": {"id": str(g.id), "locale": g.preferred_locale, "features": []},
            "guild_locale": g.preferred_locale,
            "member": member(g.members[i.user_id], permissions=perms),
        })
        data["channel"]["permissions"] = str(perms)
    else:
        data["user"] = user(world.users[i.user_id])
    if i.message_id is not None:
        data["message"] = message(world, world.messages[i.message_id])
    return data


def callback_response(world: World, i: Interaction, kind: int,
                      resource: Message | ActivityInstance | None) -> dict[str, Any]:
    """The ``?with_response=1`` body of an interaction callback."""
    if isinstance(resource, ActivityInstance):
        # A launch made no message: the instance stands where the message would
        # (Discord's LaunchActivityInteractionCallbackResponse).
        return {
            "interaction": {"id": str(i.id), "type": i.type,
                            "activity_instance_id": resource.instance_id},
            "resource": {"type": kind, "activity_instance": {"id": resource.instance_id}},
        }
    target = world.messages.get(i.original_message_id or 0)
    body: dict[str, Any] = {
        "interaction": {
            "id": str(i.id), "type": i.type,
            "response_message_id": str(target.id) if target else None,
            "response_message_loading": bool(target and target.loading),
            "response_message_ephemeral": bool(target and target.ephemeral),
        },
        "resource": {"type": kind},
    }
    if resource is not None:
        body["resource"]["message"] = message(world, resource)
    return body


def activity_instance(world: World, a: ActivityInstance) -> dict[str, Any]:
    """Discord's EmbeddedActivityInstance: where it runs and who is in it."""
    location: dict[str, Any] = {"id": a.location_id, "kind": a.location_kind,
                                "channel_id": str(a.channel_id)}
    if a.guild_id is not None:
        location["guild_id"] = str(a.guild_id)
    return {"application_id": str(world.application_id), "instance_id": a.instance_id,
            "launch_id": a.launch_id, "location": location, "users": [str(u) for u in a.users]}


def oauth_token(t: OAuthToken) -> dict[str, Any]:
    """The token endpoint's answer: a fresh token lives ``TOKEN_LIFETIME`` seconds."""
    return {"access_token": t.access_token, "token_type": "Bearer", "expires_in": TOKEN_LIFETIME,
            "refresh_token": t.refresh_token, "scope": " ".join(t.scopes)}


def oauth_user(u: User, scopes: list[str]) -> dict[str, Any]:
    """``GET /users/@me`` read with a person's token: email and verified only with
    the ``email`` scope (people here have no address)."""
    data = {**user(u), "mfa_enabled": False, "locale": u.locale, "premium_type": 0}
    if "email" in scopes:
        data.update({"email": None, "verified": False})
    return data


def application(world: World) -> dict[str, Any]:
    return {
        "id": str(world.application_id), "name": world.bot.name, "icon": None,
        "description": "", "summary": "", "type": None, "bot_public": True,
        "bot_require_code_grant": False, "owner": user(world.owner), "team": None,
        "verify_key": "0" * 64, "flags": 0, "bot": user(world.bot), "rpc_origins": [],
        "terms_of_service_url": None, "privacy_policy_url": None, "guild_id": None,
        "primary_sku_id": None, "slug": None, "cover_image": None, "tags": [],
        "install_params": None, "custom_install_url": None,
        "role_connections_verification_url": None,
        "interactions_endpoint_url": None,
        "approximate_guild_count": sum(world.bot.id in g.members for g in world.guilds.values()),
        "approximate_user_install_count": len(world.user_installs),
        # Application resource: one entry per installation context the portal enables.
        "redirect_uris": [],
        "integration_types_config": {str(t): {} for t in world.installation_contexts},
    }


def app_emoji(world: World, e: AppEmoji) -> dict[str, Any]:
    """An application's emoji; ``user`` is who uploaded it (the bot, through the API)."""
    return {
        "id": str(e.id), "name": e.name, "roles": [],
        "user": user(world.users[e.user_id] if e.user_id is not None else world.bot),
        "require_colons": True, "managed": False, "animated": e.animated, "available": True,
    }


def error(code: int, message: str, errors: dict[str, Reason] | None = None) -> dict[str, Any]:
    """Discord's JSON error body. Field errors nest by path, as Discord's do:
    ``components.0.label`` becomes ``{"components": {"0": {"label": {"_errors": [...]}}}}``;
    a reason is a message (code ``BASE_TYPE_INVALID``) or Discord's ``(code, message)``."""
    body: dict[str, Any] = {"message": message, "code": code}
    if errors:
        tree: dict[str, Any] = {}
        for path, reason in errors.items():
            node = tree
            for part in path.split("."):
                node = node.setdefault(part, {})
            error_code, text = reason if isinstance(reason, tuple) else ("BASE_TYPE_INVALID",
                                                                         reason)
            node.setdefault("_errors", []).append({"code": error_code, "message": text})
        body["errors"] = tree
    return body
