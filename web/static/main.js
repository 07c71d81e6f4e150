// The Activity's table: draws what the server sends and sends what the player
// asks for. It holds no rule of the game: the moves it lights are the legal
// ones the server listed, and the server decides every move again.
import { DiscordSDK, Events } from "./@asset(vendor/embedded-app-sdk.js)";
import { $, app, label } from "./@asset(state.js)";
import { connect, participantsChanged } from "./@asset(connection.js)";
import { render, showParticipants } from "./@asset(drawing.js)";
import { holdUpright, showPresence, watchInvite, watchLayout } from "./@asset(discord.js)";
import { watchHand, watchTable } from "./@asset(input.js)";
import { watchKeys } from "./@asset(keys.js)";
import { banner } from "./@asset(outcome.js)";
import { handshake, signIn } from "./@asset(signin.js)";
import { watchSoundButton } from "./@asset(sound.js)";

// A page launched from a link to another conversation's game (or a made-up
// one) shows this conversation's table, and says so over it once.
function linkSaid() {
  if (app.link !== "elsewhere") return;
  app.link = null;
  banner(label("link_elsewhere"), { label: label("close"), act: () => {} });
}

async function start() {
  watchHand();
  watchTable();
  watchKeys();
  watchSoundButton();
  watchInvite();
  // The Activity takes the keyboard when it opens: the page, not the chat behind it.
  window.focus();
  $("app").tabIndex = -1;
  $("app").focus({ preventScroll: true });
  if (!new URLSearchParams(location.search).get("frame_id")) {
    banner(label("open_from_discord"));
    return;
  }
  const clientId = document.querySelector('meta[name="client-id"]').content;
  // The SDK hands the page's console to Discord, which keeps it in its debug
  // logs: the one place a player's phone shows what went wrong.
  app.sdk = new DiscordSDK(clientId);
  if (!(await handshake(app.sdk))) return;
  holdUpright();
  if (!(await signIn())) return;
  const drawn = app.render;
  app.render = (state) => {
    drawn(state);
    showPresence(state);
    linkSaid();
  };
  connect();
  watchLayout();
  app.sdk.subscribe(Events.ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE, (event) => {
    showParticipants(event.participants);
    participantsChanged();
  });
  const present = await app.sdk.commands.getInstanceConnectedParticipants();
  showParticipants(present.participants);
}

start();
