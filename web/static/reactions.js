// Quick reactions at the table: a handful of emotes anyone at the table sends
// (a player, or a watcher cheering them on), shown over the sender's seat on
// every page of the table. The server passes them on beside the game and
// allows 3 in a row, then one every 2 seconds (web/reactions.py); the page keeps
// to the same pace, so its own refusal comes first and costs no frame.
import { $, app, label } from "./@asset(state.js)";
import { EMOTES, FRAMES } from "./@asset(protocol.js)";
import { play } from "./@asset(sound.js)";

const BURST = 3;
const EVERY = 2000;
let tokens = BURST;
let filled = Date.now();
let noteTimer = null;

function allowed() {
  const now = Date.now();
  tokens = Math.min(BURST, tokens + (now - filled) / EVERY);
  filled = now;
  if (tokens < 1) return false;
  tokens -= 1;
  return true;
}

function refused() {
  const said = $("emotes-note");
  said.textContent = label("reaction_refused");
  clearTimeout(noteTimer);
  noteTimer = setTimeout(() => { said.textContent = ""; }, 2500);
}

function send(emote) {
  if (!allowed()) {
    refused();
    return;
  }
  if (app.ws && app.ws.readyState === WebSocket.OPEN) {
    app.ws.send(JSON.stringify({ type: FRAMES.REACT, emote }));
  }
}

function chipOf(user) {
  const seat = ((app.state && app.state.seats) || []).find((s) => s.user === user);
  if (seat) return document.querySelector(`:is(#seats, #me) .seat[data-key="${CSS.escape(seat.key)}"]`);
  return document.querySelector(`#seats .watcher[data-user="${CSS.escape(user)}"]`);
}

// Discord tells each page of its participants on its own, so a reaction can
// come before its sender's chip does: it then shows over the middle of the
// seats, with the name the server sent, rather than not at all.
function show(user, emote, sender) {
  const chip = chipOf(user);
  const bubble = document.createElement("span");
  bubble.className = "bubble";
  bubble.textContent = emote;
  let name = sender || "";
  if (chip) {
    const box = chip.getBoundingClientRect();
    bubble.style.left = `${box.right - 14}px`;
    bubble.style.top = `${box.top - 6}px`;
    const shown = chip.querySelector(".name");
    name = shown ? shown.textContent : chip.textContent.trim();
  } else {
    const box = $("seats").getBoundingClientRect();
    bubble.style.left = `${box.left + box.width / 2}px`;
    bubble.style.top = `${box.top + 14}px`;
    if (name) {
      bubble.textContent = `${name} ${emote}`;
      bubble.classList.add("named");
    }
  }
  $("bubbles").append(bubble);
  setTimeout(() => bubble.remove(), 2600);
  $("heard").textContent = `${name} ${emote}`.trim();
  play("pop");
}

// Every frame of the table's socket passes here too: a reaction rides the
// connection the table holds (connection.js reads the rest). Only a frame that
// starts as a reaction's does (the server writes the type first) is read again.
function heard(event) {
  if (typeof event.data !== "string" || !event.data.startsWith(`{"type":"${FRAMES.REACTION}"`)) return;
  const frame = JSON.parse(event.data);
  if (frame.refused) refused();
  else show(frame.user, frame.emote, frame.name);
}

function listenToEverySocket() {
  let socket = app.ws;
  Object.defineProperty(app, "ws", {
    configurable: true,
    enumerable: true,
    get: () => socket,
    set: (ws) => {
      socket = ws;
      if (ws) ws.addEventListener("message", heard);
    },
  });
}

function open(opened) {
  $("emotes").hidden = !opened;
  $("react").setAttribute("aria-expanded", String(opened));
}

export function drawReactions() {
  const state = app.state;
  const toggle = $("react");
  toggle.hidden = !state || !["playing", "hand_over", "finished"].includes(state.stage);
  toggle.setAttribute("aria-label", label("reactions") || "Reactions");
  toggle.title = label("reactions");
  $("emotes").setAttribute("aria-label", label("reactions") || "Reactions");
  if (toggle.hidden) open(false);
}

export function watchReactions() {
  listenToEverySocket();
  const menu = $("emotes");
  for (const emote of EMOTES) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "emote";
    button.textContent = emote;
    button.addEventListener("click", () => send(emote));
    menu.append(button);
  }
  const said = document.createElement("span");
  said.id = "emotes-note";
  said.className = "emotes-note";
  said.setAttribute("role", "status");
  menu.append(said);
  $("react").addEventListener("click", () => open(menu.hidden));
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && !menu.hidden) open(false);
  });
}
