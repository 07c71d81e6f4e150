// Signing in: Discord's client authorises the page, the bot's server trades the
// code for a session of this member in this instance. A sign-in that fails is
// tried again by itself where waiting can mend it (a busy server says how long),
// and otherwise the page says why and offers Try again: it never just stops.
import { app } from "./@asset(state.js)";
import { banner } from "./@asset(outcome.js)";

// The SDK's error code when the person closes Discord's consent screen (its
// RPCErrorCodes: OAUTH2_ERROR).
const CONSENT_REFUSED = 5000;
const TRIES_ALONE = 4; // waits of 1, 2, 4 and 8 seconds, then the player decides
const READY_WITHIN = 15000;

class SignInFailed extends Error {
  // ``wait``: seconds the server asked for; ``final``: no retry can mend it;
  // ``person``: only the player can mend it (Discord's consent screen).
  constructor(message, { wait = null, final = false, person = false } = {}) {
    super(message);
    this.wait = wait;
    this.final = final;
    this.person = person;
  }
}

const sleep = (ms) => new Promise((done) => { setTimeout(done, ms); });

// A wait that grows with each try, never the same for every page: after a
// restart of the bot, its pages do not all come back in the same instant.
export function backoff(attempt, base = 1000, most = 30000) {
  return Math.min(most, base * 2 ** attempt) * (0.5 + Math.random() / 2);
}

async function authorize(sdk) {
  try {
    const { code } = await sdk.commands.authorize({
      client_id: sdk.clientId,
      response_type: "code",
      state: "",
      prompt: "none",
      // Who the player is, and leave to show the match in their Discord status.
      scope: ["identify", "rpc.activities.write"],
    });
    return code;
  } catch (error) {
    if (error && error.code === CONSENT_REFUSED) {
      throw new SignInFailed("Rummy needs to know who you are to seat you at the table: "
        + "press Try again, then Authorize.", { person: true });
    }
    throw new SignInFailed(`Discord did not sign you in (${(error && error.message) || error}).`);
  }
}

async function signInOnce() {
  const sdk = app.sdk;
  const code = await authorize(sdk);
  let reply;
  try {
    reply = await fetch(new URL("api/token", new URL(".", location.href)), {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ code, instance_id: sdk.instanceId }),
    });
  } catch {
    throw new SignInFailed("The table's server could not be reached.");
  }
  const body = await reply.json().catch(() => ({}));
  const said = body.error || `the table's server answered ${reply.status}`;
  if (reply.status === 429 || reply.status === 503) {
    const wait = Number(reply.headers.get("Retry-After"));
    throw new SignInFailed(`${said[0].toUpperCase()}${said.slice(1)}.`,
      { wait: Number.isFinite(wait) && wait > 0 ? wait : null });
  }
  if (reply.status === 403) throw new SignInFailed(said, { final: true });
  if (!reply.ok) throw new SignInFailed(said);
  app.session = body.session;
  await sdk.commands.authenticate({ access_token: body.access_token });
}

// Waits until the player presses Try again under ``text``.
export function offerRetry(text) {
  return new Promise((chosen) => { banner(text, { label: "Try again", act: chosen }); });
}

// Signs in, however many tries it takes; false if it never can (a page opened
// outside a server's channel, or a member not in the instance).
export async function signIn() {
  for (let attempt = 0; ; attempt += 1) {
    try {
      await signInOnce();
      banner(null);
      return true;
    } catch (failed) {
      if (!(failed instanceof SignInFailed)) throw failed;
      if (failed.final) {
        banner(failed.message);
        return false;
      }
      if (failed.person || attempt >= TRIES_ALONE) {
        await offerRetry(failed.message);
        attempt = -1;
        continue;
      }
      const wait = failed.wait !== null ? failed.wait * 1000 : backoff(attempt);
      banner(`${failed.message} Trying again in ${Math.ceil(wait / 1000)} s…`);
      await sleep(wait);
    }
  }
}

// Discord's handshake, given a while: a frame Discord never answers would
// otherwise leave a blank table for good.
export async function handshake(sdk) {
  const answered = await Promise.race([sdk.ready().then(() => true), sleep(READY_WITHIN).then(() => false)]);
  if (!answered) {
    await offerRetry("Discord did not answer the table.");
    location.reload();
    return false;
  }
  return true;
}
