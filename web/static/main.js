// The Activity's table: draws what the server sends and sends what the player
// asks for. It holds no rule of the game: the moves it lights are the legal
// ones the server listed, and the server decides every move again.
import { DiscordSDK, Events } from "./@asset(vendor/embedded-app-sdk.js)";
import { app } from "./@asset(state.js)";
import { connect, participantsChanged } from "./@asset(connection.js)";
import { showParticipants } from "./@asset(drawing.js)";
import { watchHand, watchTable } from "./@asset(input.js)";
import { banner } from "./@asset(outcome.js)";
import { signIn } from "./@asset(signin.js)";

async function start() {
  watchHand();
  watchTable();
  if (!new URLSearchParams(location.search).get("frame_id")) {
    banner("Open this table from Discord: press Open table on the table in the chat.");
    return;
  }
  const clientId = document.querySelector('meta[name="client-id"]').content;
  app.sdk = new DiscordSDK(clientId, { disableConsoleLogOverride: true });
  await app.sdk.ready();
  try {
    await signIn();
  } catch (error) {
    banner(String(error.message || error));
    return;
  }
  connect();
  app.sdk.subscribe(Events.ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE, (event) => {
    showParticipants(event.participants);
    participantsChanged();
  });
  const present = await app.sdk.commands.getInstanceConnectedParticipants();
  showParticipants(present.participants);
}

start();
