// Signing in: Discord's client authorises the page, the bot's server trades the
// code for a session of this member in this instance. A sign-in that fails is
// tried again by itself where waiting can mend it (a busy server says how long),
// and otherwise the page says why and offers Try again: it never just stops.
import { app, label } from "./@asset(state.js)";
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
      throw new SignInFailed(label("signin_consent"), { person: true });
    }
    // What Discord said is for the debug log Discord keeps, not the player.
    console.warn("authorize failed:", error);
    throw new SignInFailed(label("signin_refused"));
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
      // Launched from a shared link: its custom_id, which the server checks.
      body: JSON.stringify({ code, instance_id: sdk.instanceId, custom_id: sdk.customId || undefined }),
    });
  } catch {
    throw new SignInFailed(label("signin_unreachable"));
  }
  const body = await reply.json().catch(() => ({}));
  // The server's reason is a log's words, in English: the player is told in
  // theirs by the status, and the reason goes to the debug log.
  if (!reply.ok) console.warn("sign-in refused:", reply.status, body.error);
  const wait = Number(reply.headers.get("Retry-After"));
  // The bot's own refusal with no wait: it cannot sign anybody in until its host mends it.
  if (reply.status === 503 && !(wait > 0) && body.error) throw new SignInFailed(label("signin_not_set_up"));
  if (reply.status === 429 || reply.status === 503) {
    throw new SignInFailed(label("signin_busy"), { wait: Number.isFinite(wait) && wait > 0 ? wait : null });
  }
  if (reply.status === 403) throw new SignInFailed(label("signin_here"), { final: true });
  if (reply.status === 401) throw new SignInFailed(label("signin_refused"));
  if (!reply.ok) throw new SignInFailed(label("signin_failed"));
  app.session = body.session;
  app.link = body.link || null;
  await sdk.commands.authenticate({ access_token: body.access_token });
}

// Waits until the player presses Try again under ``text``.
export function offerRetry(text) {
  return new Promise((chosen) => { banner(text, { label: label("try_again"), act: chosen }); });
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
      banner(`${failed.message} ${label("signin_retry_in").replace("{n}", String(Math.ceil(wait / 1000)))}`);
      await sleep(wait);
    }
  }
}

// Discord's handshake, given a while: a frame Discord never answers would
// otherwise leave a blank table for good.
export async function handshake(sdk) {
  const answered = await Promise.race([sdk.ready().then(() => true), sleep(READY_WITHIN).then(() => false)]);
  if (!answered) {
    await offerRetry(label("no_answer"));
    location.reload();
    return false;
  }
  return true;
}
