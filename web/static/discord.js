// What the page asks of Discord's app besides signing in: its invite dialog,
// or where that is not offered a link to share; the rich presence the
// player's friends see ("Playing Rummy", the hand, the seats taken); and on a
// phone, to keep the table upright.
import { Common } from "./@asset(vendor/embedded-app-sdk.js)";
import { $, app, label } from "./@asset(state.js)";

let presence = "";

// The link's custom_id names the channel's game (web.links checks it): whoever
// opens it lands in the instance's channel, and the server says if it was not
// this one's.
function linkId() {
  const game = app.state?.game_id;
  return `g.${app.sdk.channelId}${game ? `.${game}` : ""}`;
}

// Invite: Discord's invite dialog in a server's channel. In a DM or group DM
// Discord refuses it (the SDK: openInviteDialog throws INVALID_CHANNEL there),
// as it does a member who may not create invites: the page shares a link
// instead, which Discord's app sends where the player picks.
async function invite() {
  const sdk = app.sdk;
  if (sdk.guildId) {
    try {
      await sdk.commands.openInviteDialog();
      return;
    } catch (refused) {
      console.warn("no invite dialog here:", refused?.code, refused?.message);
    }
  }
  try {
    await sdk.commands.shareLink({ message: label("share_message"), custom_id: linkId() });
  } catch (failed) {
    console.warn("no link shared:", failed?.code, failed?.message);
  }
}

export function watchInvite() {
  $("invite").addEventListener("click", () => {
    if (app.sdk) invite();
  });
}

// Say where the match stands in the player's Discord status, once per change:
// the match line (or the lobby's heading), waiting or playing, and the seats
// taken of the most a game has, which Discord shows as the party's size.
export function showPresence(state) {
  if (!app.sdk || !app.session) return;
  const playing = state.stage === "playing" || state.stage === "hand_over";
  const lobby = state.stage === "lobby";
  const details = playing ? state.match_line : state.lobby?.labels?.heading || "";
  const activity = { type: 0, details: details || undefined };
  if ((playing || lobby) && state.party) {
    activity.state = label(playing ? "presence_playing" : "presence_lobby");
    activity.party = { id: linkId(), size: state.party };
  }
  const said = JSON.stringify(activity);
  if (said === presence) return;
  presence = said;
  app.sdk.commands.setActivity({ activity }).catch(() => {
    presence = ""; // not allowed (the scope was refused): nothing else depends on it
  });
}

// On a phone the table is drawn for a tall screen (the hand fanned along the
// bottom): Discord keeps it upright, in picture-in-picture too, which falls
// back to this lock (Discord's layout guide). A desktop has nothing to lock.
export function holdUpright() {
  if (!app.sdk || app.sdk.platform !== "mobile") return;
  const { PORTRAIT } = Common.OrientationLockStateTypeObject;
  app.sdk.commands.setOrientationLockState({ lock_state: PORTRAIT }).catch(() => {});
}

// Discord shows a running Activity as a small tile too: picture-in-picture
// while the player reads the chat, or a tile of a voice channel's grid. There
// the page shows only where the game stands (the match line, whose turn, the
// piles), which reads at that size; focused again, the whole table.
const LAYOUTS = ["focused", "pip", "grid"];

export function watchLayout() {
  if (!app.sdk) return;
  app.sdk.subscribe("ACTIVITY_LAYOUT_MODE_UPDATE", (event) => {
    document.documentElement.dataset.layout = LAYOUTS[event.layout_mode] || "focused";
  }).catch(() => {});
}
