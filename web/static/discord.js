// What the page asks of Discord's app besides signing in: its invite dialog,
// the rich presence the player's friends see ("Playing Rummy", the hand), and
// on a phone, to keep the table upright.
import { Common } from "./@asset(vendor/embedded-app-sdk.js)";
import { $, app } from "./@asset(state.js)";

let presence = "";

export function watchInvite() {
  $("invite").addEventListener("click", () => {
    if (app.sdk) app.sdk.commands.openInviteDialog().catch(() => {});
  });
}

// Say where the match stands in the player's Discord status, once per change.
export function showPresence(state) {
  if (!app.sdk || !app.session) return;
  const playing = state.stage === "playing" || state.stage === "hand_over";
  const details = playing ? state.match_line : state.lobby?.labels?.heading || "";
  if (details === presence) return;
  presence = details;
  const activity = { type: 0, details: details || undefined };
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
