// Discord's app around an Activity, as far as the Activity can tell: it loads
// the Activity's page in a frame (through the stand-in's proxy, on this
// origin, as Discord's proxy serves it on its own) and answers the Embedded
// App SDK's postMessage protocol: the handshake, AUTHORIZE, AUTHENTICATE, the
// instance's participants and their updates, the invite and share dialogs,
// rich presence. Every answer has the shape the
// SDK's own schemas check (a reply that fails them is dropped and the call
// never returns). Every frame both ways is kept in window.rpcFrames for tests,
// and every message it did not answer in window.rpcRefused.
const HANDSHAKE = 0;
const FRAME = 1;
const CLOSE = 2;
const query = new URLSearchParams(location.search);
const member = query.get("as");
const instanceId = query.get("instance");
const platform = query.get("platform") === "mobile" ? "mobile" : "desktop";
// Framed sandboxed without allow-same-origin, as one developer reports Discord's
// iOS app frames an Activity (embedded-app-sdk issue 280): the page's origin
// is then opaque, "null" to everyone it talks to.
const opaque = query.get("sandbox") === "opaque";
const frameOrigin = opaque ? "null" : location.origin;
const frame = document.getElementById("activity");
const note = document.getElementById("note");
const subscriptions = new Set();
let launch = null;
let participantsSeen = null; // the participants the Activity was last told of
let grantedScopes = []; // what the person authorised the Activity to do
// The frame_id this page launched the Activity with, in the frame's address
// only: the SDK sends it in its handshake, a document navigated into the frame
// from elsewhere cannot know it. Nothing is answered before a handshake with
// it, and a handshake with another one stops the answers until the Activity
// (reloaded, say) handshakes with it again.
let frameId = null;
let handshaken = false;

let layoutMode = 0;
// The page around calls this as the member leaves the Activity for the chat and
// comes back (``inPip`` in client.js); tests may too.
window.setLayoutMode = (mode) => {
  layoutMode = mode;
  if (subscriptions.has("ACTIVITY_LAYOUT_MODE_UPDATE")) dispatch("ACTIVITY_LAYOUT_MODE_UPDATE", { layout_mode: mode });
};

window.rpcFrames = [];
window.rpcRefused = [];
window.capturedLogs = [];
// Every link the Activity asked Discord's app to share (SHARE_LINK), as asked.
window.shares = [];

async function ask(path, body) {
  const reply = await fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ as: member, instance: instanceId, ...body }),
  });
  const answer = await reply.json();
  if (!reply.ok) throw Object.assign(new Error(answer.error || reply.status), { answer });
  return answer;
}

function post(message) {
  // Nothing goes to a frame whose document has not handshaken as the Activity:
  // not even the events it subscribed to before something else took its place.
  if (!handshaken) return;
  window.rpcFrames.push({ to: "activity", message });
  // An opaque origin cannot be named as a message's target: any will do.
  frame.contentWindow.postMessage(message, opaque ? "*" : location.origin);
}

// Discord's app says what it would show: a dialog the stand-in has not drawn.
function say(text) {
  note.textContent = text;
  note.hidden = false;
  setTimeout(() => { note.hidden = true; }, 3000);
}

function reply(command, data) {
  post([FRAME, { cmd: command.cmd, evt: null, nonce: command.nonce, data }]);
}

function refuse(command, code, message) {
  post([FRAME, { cmd: command.cmd, evt: "ERROR", nonce: command.nonce, data: { code, message } }]);
}

function dispatch(evt, data) {
  post([FRAME, { cmd: "DISPATCH", evt, nonce: null, data }]);
}

async function answer(command) {
  switch (command.cmd) {
    case "AUTHORIZE": {
      // A person may close Discord's consent screen instead of authorising: the
      // SDK's promise then fails with RPC error 5000 (its OAUTH2_ERROR). Tests
      // make the next refusals happen by setting window.consentRefusals.
      if (window.consentRefusals > 0) {
        window.consentRefusals -= 1;
        refuse(command, 5000, "The authorization was cancelled");
        break;
      }
      const { code } = await ask("api/activity/authorize", {
        client_id: command.args.client_id,
        scopes: command.args.scope || [],
      });
      reply(command, { code });
      break;
    }
    case "AUTHENTICATE": {
      const signed = await ask("api/activity/authenticate", { access_token: command.args.access_token });
      grantedScopes = signed.scopes;
      reply(command, signed);
      break;
    }
    case "GET_ACTIVITY_INSTANCE_CONNECTED_PARTICIPANTS": {
      const found = await ask("api/activity/participants", {});
      participantsSeen = JSON.stringify(found.participants.map((p) => p.id));
      reply(command, found);
      break;
    }
    case "SUBSCRIBE":
      subscriptions.add(command.evt);
      reply(command, { evt: command.evt });
      // A layout mode is told at once, then at each change (the SDK's
      // ACTIVITY_LAYOUT_MODE_UPDATE: 0 focused, 1 picture-in-picture, 2 grid).
      if (command.evt === "ACTIVITY_LAYOUT_MODE_UPDATE") dispatch(command.evt, { layout_mode: layoutMode });
      break;
    case "UNSUBSCRIBE":
      subscriptions.delete(command.evt);
      reply(command, { evt: command.evt });
      break;
    case "CAPTURE_LOG":
      // The SDK sends the Activity's console here (unless the Activity turns
      // that off), as Discord keeps it in its own debug logs; kept for tests.
      window.capturedLogs.push({ level: command.args.level, message: command.args.message });
      reply(command, null);
      break;
    case "SET_ORIENTATION_LOCK_STATE":
      reply(command, null);
      break;
    case "OPEN_INVITE_DIALOG":
      // Not in a DM or group DM (an instance whose location kind is "pc"): the
      // SDK's own note on openInviteDialog says it throws RPC error
      // INVALID_CHANNEL (4005) in (G)DM contexts, so an Activity there shares
      // a link instead (SHARE_LINK below).
      if (launch.location_kind === "pc") {
        refuse(command, 4005, "Invalid channel");
        break;
      }
      // Discord's app opens its own dialog to invite friends or a channel; the
      // Activity is answered at once, whatever the person then does (the SDK
      // parses this command's reply with its empty-response schema: null).
      say("Discord would open its invite dialog here.");
      reply(command, null);
      break;
    case "SHARE_LINK": {
      // Discord's app shows its share dialog for a link to the Activity, with
      // the Activity's message; whoever opens the link launches the Activity
      // with its custom_id among the frame's query parameters, which the SDK
      // reads as discordSdk.customId (Discord's Activities guide, "Growth and
      // Referrals": shareLink and custom_id). The SDK's schema (2.5.0) of the
      // request: message (at most 1000 characters), custom_id and link_id (at
      // most 64 each, optional); of the reply: success, didCopyLink and
      // didSendMessage, all booleans, all required (a reply without one is
      // dropped and the call never returns). Here the person always sends it.
      const { message, custom_id: customId, link_id: linkId } = command.args || {};
      const text = (value, most) => typeof value === "string" && value.length <= most;
      if (!text(message, 1000) || (customId != null && !text(customId, 64))
          || (linkId != null && !text(linkId, 64))) {
        refuse(command, 4000, "Invalid payload");
        break;
      }
      window.shares.push({ message, custom_id: customId ?? null, link_id: linkId ?? null });
      say("Discord would open its share dialog here.");
      reply(command, { success: true, didCopyLink: false, didSendMessage: true });
      break;
    }
    case "SET_ACTIVITY": {
      // Rich presence needs the scope rpc.activities.write among those granted
      // (Discord's setActivity reference); the reply is the activity as set,
      // which the SDK parses with its activity schema. An Activity may set
      // only type, state, details (and their urls), timestamps, assets, party
      // ({id, size: [current, max]}), secrets and instance: the SDK's
      // SetActivity schema picks those of Activity, and drops the rest.
      if (!grantedScopes.includes("rpc.activities.write")) {
        refuse(command, 4006, "Not authenticated or invalid scope");
        break;
      }
      const shown = command.args.activity || {};
      window.presence = shown;
      reply(command, { ...shown, name: launch.application_name, application_id: launch.application_id });
      break;
    }
    default:
      refuse(command, 4002, `${command.cmd} is not a command the stand-in answers`);
  }
}

// Whether a message from the frame comes from the Activity this page launched.
// A message names its frame, not the document in it: the frame's policy
// (frame-src) keeps other origins' documents out, the frame_id the rest.
function fromTheActivity(opcode, payload) {
  if (opcode === HANDSHAKE) {
    handshaken = frameId !== null && payload?.frame_id === frameId;
    // A new document subscribes anew.
    subscriptions.clear();
  }
  return handshaken;
}

window.addEventListener("message", (event) => {
  if (event.source !== frame.contentWindow || event.origin !== frameOrigin) return;
  const [opcode, payload] = Array.isArray(event.data) ? event.data : [];
  if (!fromTheActivity(opcode, payload)) {
    // No answer at all: an error would tell a stranger what is listening.
    window.rpcRefused.push(event.data);
    return;
  }
  window.rpcFrames.push({ to: "discord", message: event.data });
  if (opcode === HANDSHAKE) {
    dispatch("READY", {
      v: 1,
      config: { cdn_host: "cdn.discordapp.com", api_endpoint: "//discord.com/api", environment: "production" },
      user: { id: launch.user.id, username: launch.user.username, discriminator: "0" },
    });
  } else if (opcode === FRAME) {
    answer(payload).catch((error) => refuse(payload, 4000, String(error.message || error)));
  } else if (opcode === CLOSE) {
    note.textContent = `The Activity closed: ${payload.message || payload.code}`;
    note.hidden = false;
  }
});

// The stand-in has no gateway for the Activity: the participants are looked
// at now and then, and a change is dispatched as Discord would.
async function watchParticipants() {
  try {
    if (subscriptions.has("ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE")) {
      const { participants } = await ask("api/activity/participants", {});
      const seen = JSON.stringify(participants.map((p) => p.id));
      if (participantsSeen !== null && seen !== participantsSeen) {
        dispatch("ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE", { participants });
      }
      participantsSeen = seen;
    }
  } catch {
    // The stand-in is restarting: Discord's app keeps the Activity open meanwhile.
  } finally {
    setTimeout(watchParticipants, 1000);
  }
}

async function start() {
  launch = await ask("api/activity/join", { opaque });
  frameId = crypto.randomUUID();
  const params = new URLSearchParams({
    frame_id: frameId,
    instance_id: launch.instance_id,
    platform,
    guild_id: launch.guild_id,
    channel_id: launch.channel_id,
  });
  // Launched from a shared link: its custom_id, as Discord's app passes it on.
  if (launch.custom_id) params.set("custom_id", launch.custom_id);
  if (opaque) frame.sandbox = "allow-scripts allow-popups allow-popups-to-escape-sandbox allow-forms";
  frame.src = `activity-app/${launch.path}/?${params}`;
  window.addEventListener("pagehide", () => {
    // keepalive: sent even as the page goes away. JSON, as the page's server
    // takes nothing else (a beacon's text would be refused).
    fetch("api/activity/leave", {
      method: "POST",
      keepalive: true,
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ as: member, instance: instanceId }),
    });
  });
  watchParticipants();
}

start().catch((error) => {
  note.textContent = String(error.message || error);
  note.hidden = false;
});
