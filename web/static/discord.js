// What the page asks of Discord's app besides signing in: its invite dialog,
// and the rich presence the player's friends see ("Playing Rummy", the hand).
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
