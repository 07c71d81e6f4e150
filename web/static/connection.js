// The connection to the bot's server: intents out, numbered so that one sent
// again after a reconnect is played once; pictures of the table and answers in.
import { app, label } from "./@asset(state.js)";
import { banner, note, showLog, why } from "./@asset(outcome.js)";
import { CLOSE, FRAMES } from "./@asset(protocol.js)";
import { backoff, signIn } from "./@asset(signin.js)";

// Closed for a reason a reconnect would not mend: the page says why and waits.
const FINAL = new Set([CLOSE.BAD_FRAME, CLOSE.NOT_IN_INSTANCE, CLOSE.OPENED_ELSEWHERE]);

// What the player is told of each close, in their language, and the button
// that mends it: the server's own reason is a log's words, never shown.
const SAID = {
  [CLOSE.OPENED_ELSEWHERE]: ["closed_elsewhere", "play_here"],
  [CLOSE.NOT_IN_INSTANCE]: ["closed_not_in_instance", "try_again"],
  [CLOSE.BAD_FRAME]: ["closed_broken", "try_again"],
  [CLOSE.TOO_FAST]: ["closed_too_fast", null],
};

// The banner for a close; one a reconnect will not mend waits for the button.
function sayClosed(code) {
  const [text, again] = SAID[code];
  banner(label(text), FINAL.has(code) ? { label: label(again), act: connect } : null);
}

export function send(op, extra = {}) {
  if (!app.state) return;
  app.seq += 1;
  const frame = { type: FRAMES.INTENT, seq: app.seq, op, version: app.state.version, ...extra };
  if (op !== "why") app.unanswered = frame;
  if (app.ws && app.ws.readyState === WebSocket.OPEN) app.ws.send(JSON.stringify(frame));
}
app.send = send;

function answered(frame) {
  if (app.unanswered && app.unanswered.seq === frame.seq) app.unanswered = null;
}

function receive(frame) {
  switch (frame.type) {
    case FRAMES.STATE:
      app.render(frame);
      break;
    case FRAMES.DONE:
    case FRAMES.DUPLICATE:
      answered(frame);
      if (frame.text) note(frame.text, "done");
      break;
    case FRAMES.REFUSED:
      answered(frame);
      note(frame.text);
      break;
    case FRAMES.WHY:
      if (app.picked.size) why(frame.text ? `✋ ${frame.text}` : "");
      break;
    case FRAMES.HINT:
      answered(frame);
      app.picked = new Set(frame.cards || []);
      if (app.state) app.render(app.state);
      note(frame.text, "hint");
      break;
    case FRAMES.LOG:
      answered(frame);
      showLog(frame.lines || []);
      break;
    case FRAMES.ERROR:
      answered(frame);
      note(frame.text || "");
      break;
    case FRAMES.CLOSING:
      app.closing = frame;
      break;
    default:
      break;
  }
}

export function connect() {
  const url = new URL("ws", new URL(".", location.href));
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(url);
  app.ws = ws;
  ws.addEventListener("open", () => {
    app.retries = 0;
    ws.send(JSON.stringify({ type: FRAMES.HELLO, session: app.session }));
    // An intent that got no answer before the connection dropped is sent again:
    // the server plays a seq once, and answers a repeat with where things stand.
    if (app.unanswered) ws.send(JSON.stringify(app.unanswered));
    banner(null);
  });
  ws.addEventListener("message", (event) => receive(JSON.parse(event.data)));
  ws.addEventListener("close", async (closed) => {
    const said = app.closing && (closed.code === 1005 || closed.code === 1006) ? app.closing : null;
    const event = said ? { code: said.code, reason: said.reason } : closed;
    app.closing = null;
    if (event.code === CLOSE.SESSION_REFUSED) {
      // The session ran out: ask Discord again, silently if it can be.
      if (await signIn()) connect();
      return;
    }
    if (SAID[event.code]) {
      sayClosed(event.code);
      if (FINAL.has(event.code)) return;
    } else {
      banner(label("reconnecting"));
    }
    app.retries += 1;
    setTimeout(connect, backoff(app.retries - 1, 250, 8000));
  });
}

// Someone came or went: the server asks Discord who is left.
export function participantsChanged() {
  if (app.ws && app.ws.readyState === WebSocket.OPEN) {
    app.ws.send(JSON.stringify({ type: FRAMES.PARTICIPANTS }));
  }
}
