// Signing in: Discord's client authorises the page, the bot's server trades the
// code for a session of this member in this instance.
import { app } from "./@asset(state.js)";

export async function signIn() {
  const sdk = app.sdk;
  const { code } = await sdk.commands.authorize({
    client_id: sdk.clientId,
    response_type: "code",
    state: "",
    prompt: "none",
    // Who the player is, and leave to show the match in their Discord status.
    scope: ["identify", "rpc.activities.write"],
  });
  const reply = await fetch(new URL("api/token", new URL(".", location.href)), {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ code, instance_id: sdk.instanceId }),
  });
  const body = await reply.json();
  if (!reply.ok) throw new Error(body.error || `HTTP ${reply.status}`);
  app.session = body.session;
  await sdk.commands.authenticate({ access_token: body.access_token });
}
