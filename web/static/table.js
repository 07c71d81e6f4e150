// The Activity's table: draws what the server sends and sends what the player
// asks for. It holds no rule of the game: the moves it lights are the legal
// ones the server listed, and the server decides every move again.
import { DiscordSDK, Events } from "./@asset(vendor/embedded-app-sdk.js)";

const $ = (id) => document.getElementById(id);
const query = new URLSearchParams(location.search);
const base = new URL(".", location.href); // Discord's proxy maps this folder to the bot
const stillMotion = matchMedia("(prefers-reduced-motion: reduce)");
const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };
const RETRY_STEPS = [250, 500, 1000, 2000, 4000, 8000];

let state = null;
let picked = new Set();
let seq = 0;
let unanswered = null; // the intent sent and not yet answered: sent again after a reconnect
let ws = null;
let session = null;
let sdk = null;
let retries = 0;
// Why the server is closing the connection, said in a frame first: Discord's proxy
// may hand the page a bare 1005 or 1006 instead of the code.
let closing = null;
let countdown = null;
let whyTimer = null;
let participants = []; // who has the Activity open, as Discord says

// --- words ---------------------------------------------------------------------------
function escapeHtml(text) {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

// The server's texts are the chat's: **bold** is the only markup drawn; a
// backslash before a character only kept it from being markup in Discord.
function richText(element, text) {
  const safe = escapeHtml(text || "").replace(/\\(.)/g, "$1");
  element.innerHTML = safe.replace(/\*\*(.+?)\*\*/g, "<b>$1</b>");
}

function label(name) {
  return (state && state.labels && state.labels[name]) || "";
}

// --- cards ---------------------------------------------------------------------------
function rankOf(code) {
  const rank = code.slice(0, -1);
  return (state && state.ranks && state.ranks[rank]) || rank;
}

function cardElement(code, { tag = "span", small = false } = {}) {
  const card = document.createElement(tag);
  const suit = code.slice(-1);
  card.className = `card suit-${suit.toLowerCase()}${small ? " small" : ""}`;
  card.dataset.code = code;
  const rank = rankOf(code);
  card.setAttribute("aria-label", `${rank}${SUITS[suit]}`);
  card.innerHTML =
    `<span class="corner">${escapeHtml(rank)}<br>${SUITS[suit]}</span>` +
    `<span class="pip">${SUITS[suit]}</span>`;
  if (tag === "button") card.type = "button";
  return card;
}

// --- motion --------------------------------------------------------------------------
function where() {
  const found = new Map();
  for (const card of document.querySelectorAll(".card[data-code]")) {
    found.set(card.dataset.code, card.getBoundingClientRect());
  }
  return found;
}

function glide(element, from, duration = 260) {
  if (stillMotion.matches || !from) return;
  const to = element.getBoundingClientRect();
  const dx = from.left - to.left;
  const dy = from.top - to.top;
  if (Math.abs(dx) < 1 && Math.abs(dy) < 1) return;
  element.animate(
    [{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "none" }],
    { duration, easing: "cubic-bezier(.2,.7,.3,1)" },
  );
}

// Every card that moved glides from where it was; a card that came from a
// hidden place (the stock, another player's hand) glides from there.
function animateFrom(before, previous) {
  const seatRect = (key) => {
    const chip = document.querySelector(`.seat[data-key="${CSS.escape(key || "")}"]`);
    return chip ? chip.getBoundingClientRect() : null;
  };
  const stock = $("stock").getBoundingClientRect();
  for (const card of document.querySelectorAll(".card[data-code]")) {
    const code = card.dataset.code;
    if (before.has(code)) {
      glide(card, before.get(code));
    } else if (card.closest("#hand")) {
      glide(card, stock, 320);
    } else if (previous && previous.turn) {
      glide(card, seatRect(previous.turn), 320);
    }
  }
}

// --- drawing ---------------------------------------------------------------------------
function render(next) {
  const previous = state;
  if (previous && previous.version !== next.version && $("toast").classList.contains("refused")) {
    // A refusal spoke of the table as it was ("not your turn"): it goes once it moves on.
    $("toast").hidden = true;
  }
  const before = where();
  state = next;
  document.documentElement.lang = state.language || "en";
  $("app").setAttribute("aria-busy", "false");
  const handCodes = new Set(state.hand || []);
  picked = new Set([...picked].filter((code) => handCodes.has(code)));
  if (!state.legal) picked.clear();
  drawSeats();
  drawPiles();
  drawMelds();
  drawStatus();
  drawHand();
  drawMoves();
  drawTools();
  drawOutcome();
  if (previous && previous.format === state.format) animateFrom(before, previous);
  askWhy();
}

function drawSeats() {
  clearInterval(countdown);
  const seats = $("seats");
  seats.replaceChildren();
  for (const seat of state.seats || []) {
    const chip = document.createElement("div");
    chip.className = `seat${seat.turn ? " turn" : ""}${seat.you ? " you" : ""}`;
    chip.dataset.key = seat.key;
    chip.style.setProperty("--seat", seat.colour);
    const name = document.createElement("span");
    name.className = "name";
    name.textContent = seat.name;
    chip.append(name);
    if (seat.cards !== null && seat.cards !== undefined) {
      const count = document.createElement("span");
      count.className = "count";
      count.innerHTML = `<span class="mini-back" aria-hidden="true"></span>${seat.cards}`;
      chip.append(count);
    }
    if (seat.turn && state.deadline_in !== null && state.deadline_in !== undefined) {
      const clock = document.createElement("span");
      clock.className = "clock";
      chip.append(clock);
      tick(clock, Date.now() + state.deadline_in * 1000);
    }
    seats.append(chip);
  }
  // Who watches without a seat: the instance's participants, as Discord tells them.
  const seated = new Set((state.seats || []).map((seat) => seat.user).filter(Boolean));
  for (const person of participants) {
    if (seated.has(person.id)) continue;
    const chip = document.createElement("div");
    chip.className = "watcher";
    chip.textContent = `👁 ${person.nickname || person.global_name || person.username}`;
    seats.append(chip);
  }
}

function showParticipants(list) {
  participants = list || [];
  if (state) drawSeats();
}

function tick(clock, until) {
  clearInterval(countdown);
  const show = () => {
    const left = Math.max(0, Math.round((until - Date.now()) / 1000));
    clock.textContent = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
    clock.classList.toggle("short", left <= 15);
  };
  show();
  countdown = setInterval(show, 1000);
}

function drawPiles() {
  const playing = state.stage === "playing" || state.stage === "hand_over" || state.stage === "finished";
  $("felt").classList.toggle("idle", !playing);
  $("stock-count").textContent = playing ? state.stock_text : "";
  $("stock").setAttribute("aria-label", `${label("stock")} ${state.stock_text || ""}`);
  const top = $("discard-top");
  top.replaceChildren();
  if (state.discard_top) top.append(cardElement(state.discard_top));
  $("discard-count").textContent = playing && state.discard_count ? String(state.discard_count) : "";
  $("discard").setAttribute("aria-label", label("discard_pile"));
  const legal = state.legal;
  $("stock").classList.toggle("lit", Boolean(legal && legal.draw));
  $("discard").classList.toggle("lit", Boolean(legal && (legal.take || discardable())));
}

function drawMelds() {
  const melds = $("melds");
  melds.replaceChildren();
  for (const meld of state.melds || []) {
    const group = document.createElement("button");
    group.type = "button";
    group.className = "meld";
    group.dataset.drop = `meld:${meld.number - 1}`;
    group.classList.toggle("lit", layOffOnto(meld.number - 1) !== null);
    const number = document.createElement("span");
    number.className = "number";
    number.textContent = String(meld.number);
    group.append(number);
    for (const code of meld.cards) group.append(cardElement(code, { small: true }));
    group.title = meld.owners.join(", ");
    melds.append(group);
  }
}

function drawStatus() {
  richText($("status"), state.stage === "playing" ? state.status : state.text || "");
  const since = $("since");
  since.replaceChildren();
  for (const line of state.since || []) {
    const item = document.createElement("li");
    richText(item, line);
    since.append(item);
  }
}

function drawHand() {
  const hand = $("hand");
  hand.replaceChildren();
  const cards = state.hand || [];
  hand.style.setProperty("--cards", String(Math.max(cards.length, 1)));
  cards.forEach((code, index) => {
    const card = cardElement(code, { tag: "button" });
    card.style.setProperty("--i", String(index));
    card.classList.toggle("picked", picked.has(code));
    card.classList.toggle("fresh", code === state.fresh);
    card.disabled = !state.legal || state.phase !== "play";
    card.setAttribute("aria-pressed", picked.has(code) ? "true" : "false");
    hand.append(card);
  });
  hand.classList.toggle("watching", !state.you);
  if (!state.you && state.stage !== "none") {
    richText($("why"), label("spectating"));
  }
}

function sameCards(a, b) {
  return a.length === b.length && a.every((code) => b.includes(code));
}

function meldable() {
  const legal = state.legal;
  return Boolean(legal && legal.melds.some((cards) => sameCards(cards, [...picked])));
}

function layOffOnto(meld) {
  const legal = state && state.legal;
  if (!legal || !picked.size) return null;
  return legal.lay_offs.find((l) => l.meld === meld && sameCards(l.cards, [...picked])) || null;
}

function layOffs() {
  const legal = state.legal;
  if (!legal || !picked.size) return [];
  return legal.lay_offs.filter((l) => sameCards(l.cards, [...picked]));
}

function discardable() {
  const legal = state.legal;
  return Boolean(legal && picked.size === 1 && legal.discards.includes([...picked][0]));
}

function moveButton(name, text, enabled, onClick, kind = "") {
  const button = document.createElement("button");
  button.type = "button";
  button.className = `move ${kind}`;
  button.dataset.move = name;
  button.textContent = text;
  button.disabled = !enabled;
  button.addEventListener("click", onClick);
  return button;
}

function drawMoves() {
  const moves = $("moves");
  moves.replaceChildren();
  if (state.stage === "lobby" && !state.you) {
    moves.append(moveButton("join", label("join"), true, () => send("join"), "go"));
    return;
  }
  const legal = state.legal;
  if (!legal || state.stage !== "playing") return;
  if (state.phase === "draw") {
    moves.append(
      moveButton("draw", label("draw"), legal.draw, () => send("draw"), "go"),
      moveButton("take", label("take"), legal.take, () => send("take"), "go"),
    );
    return;
  }
  const targets = layOffs();
  moves.append(moveButton("meld", label("meld"), meldable(), () => send("meld", { cards: [...picked] }), "go"));
  moves.append(
    moveButton("lay_off", targets.length === 1 ? `${label("lay_off")} → ${targets[0].meld + 1}` : label("lay_off"),
      targets.length > 0, () => {
        if (targets.length === 1) send("lay_off", { cards: [...picked], meld: targets[0].meld });
      }, "go"),
  );
  moves.append(moveButton("discard", label("discard"), discardable(), () => send("discard", { cards: [...picked] }), "stop"));
}

function drawTools() {
  const playing = state.stage === "playing" && Boolean(state.you);
  $("tools").hidden = state.stage === "none";
  const sort = $("sort");
  sort.textContent = label("sort");
  sort.hidden = !playing;
  const hint = $("hint");
  hint.textContent = label("hint");
  hint.hidden = !state.hints;
  $("log").textContent = label("log");
  $("log").hidden = !state.hand_number;
  const menu = $("language");
  if (menu.options.length === 0 && state.languages) {
    for (const [code, name] of Object.entries(state.languages)) {
      const option = document.createElement("option");
      option.value = code;
      option.textContent = name;
      menu.append(option);
    }
  }
  menu.value = state.language;
  menu.setAttribute("aria-label", label("language") || "Language");
}

function drawOutcome() {
  const outcome = state.outcome;
  const sheet = $("sheet");
  if (sheet.dataset.kind === "log") return; // the log stays open until closed
  if (!outcome) {
    if (sheet.dataset.kind === "outcome") sheet.hidden = true;
    sheet.dataset.kind = "";
    return;
  }
  sheet.dataset.kind = "outcome";
  const body = $("sheet-body");
  body.replaceChildren();
  const heading = document.createElement("h2");
  heading.textContent = outcome.heading;
  const headline = document.createElement("p");
  richText(headline, outcome.headline);
  body.append(heading, headline, scoreTable(outcome));
  // One hand makes no line: the totals above say it all.
  if (outcome.chart && outcome.chart[0].totals.length > 1) body.append(chart(outcome.chart));
  if (outcome.next) {
    const next = document.createElement("p");
    next.className = "next";
    richText(next, outcome.next);
    body.append(next);
  }
  const actions = $("sheet-actions");
  actions.replaceChildren();
  if (state.stage === "hand_over" && state.you) {
    actions.append(moveButton("next_hand", label("next_hand"), true, () => send("next_hand"), "go"));
  } else if (state.stage === "finished" && state.you && outcome.match_over) {
    actions.append(moveButton("rematch", label("rematch"), true, () => send("rematch"), "go"));
  }
  sheet.hidden = false;
}

function scoreTable(outcome) {
  const rows = document.createElement("table");
  rows.className = "scores";
  rows.innerHTML = `<thead><tr><th></th><th>${escapeHtml(outcome.score)}</th>` +
    `<th>${escapeHtml(outcome.total)}</th></tr></thead>`;
  const tbody = document.createElement("tbody");
  for (const row of outcome.rows) {
    const line = document.createElement("tr");
    line.classList.toggle("winner", row.winner);
    const name = document.createElement("td");
    name.className = "who";
    name.style.setProperty("--seat", row.colour);
    name.textContent = row.name;
    const score = document.createElement("td");
    score.textContent = String(row.score);
    const total = document.createElement("td");
    total.textContent = String(row.total);
    line.append(name, score, total);
    tbody.append(line);
    if (row.cards.length) {
      const heldRow = document.createElement("tr");
      heldRow.className = "held-row";
      const held = document.createElement("td");
      held.colSpan = 3;
      held.className = "held";
      for (const code of row.cards) held.append(cardElement(code, { small: true }));
      heldRow.append(held);
      tbody.append(heldRow);
    }
  }
  rows.append(tbody);
  return rows;
}

// The match's running totals, a line a player in their colour (as the chat's chart).
function chart(series) {
  const hands = Math.max(...series.map((s) => s.totals.length));
  const top = Math.max(1, ...series.flatMap((s) => s.totals));
  const width = 320;
  const height = 140;
  const pad = 24;
  const x = (i) => pad + (hands > 1 ? (i * (width - 2 * pad)) / (hands - 1) : (width - 2 * pad) / 2);
  const y = (v) => height - pad - (v * (height - 2 * pad)) / top;
  const svgNS = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(svgNS, "svg");
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("class", "chart");
  svg.setAttribute("role", "img");
  const axis = document.createElementNS(svgNS, "path");
  axis.setAttribute("d", `M${pad} ${pad / 2}V${height - pad}H${width - pad / 2}`);
  axis.setAttribute("class", "axis");
  svg.append(axis);
  for (const line of series) {
    const points = line.totals.map((v, i) => `${x(i)},${y(v)}`).join(" ");
    const path = document.createElementNS(svgNS, hands > 1 ? "polyline" : "g");
    if (hands > 1) {
      path.setAttribute("points", points);
      path.setAttribute("fill", "none");
      path.setAttribute("stroke", line.colour);
      path.setAttribute("stroke-width", "3");
    }
    svg.append(path);
    line.totals.forEach((v, i) => {
      const dot = document.createElementNS(svgNS, "circle");
      dot.setAttribute("cx", String(x(i)));
      dot.setAttribute("cy", String(y(v)));
      dot.setAttribute("r", "4");
      dot.setAttribute("fill", line.colour);
      svg.append(dot);
    });
    const tag = document.createElementNS(svgNS, "text");
    tag.setAttribute("x", String(x(line.totals.length - 1) + 6));
    tag.setAttribute("y", String(y(line.totals.at(-1)) + 4));
    tag.setAttribute("fill", line.colour);
    tag.setAttribute("font-size", "11");
    tag.textContent = String(line.totals.at(-1));
    svg.append(tag);
  }
  svg.setAttribute("aria-label", series.map((s) => `${s.name} ${s.totals.at(-1)}`).join(", "));
  return svg;
}

function showLog(lines) {
  const sheet = $("sheet");
  sheet.dataset.kind = "log";
  const body = $("sheet-body");
  body.replaceChildren();
  const list = document.createElement("div");
  list.className = "log";
  lines.forEach((line, index) => {
    const item = document.createElement(index === 0 ? "h2" : "p");
    richText(item, line);
    list.append(item);
  });
  body.append(list);
  const actions = $("sheet-actions");
  actions.replaceChildren(moveButton("close", "✕", true, () => {
    sheet.dataset.kind = "";
    sheet.hidden = true;
    drawOutcome();
  }));
  sheet.hidden = false;
}

let toastTimer = null;
function toast(text, kind = "refused") {
  const box = $("toast");
  richText(box, text);
  box.className = `toast ${kind}`;
  box.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { box.hidden = true; }, kind === "hint" ? 8000 : 5000);
}

function banner(text) {
  const box = $("banner");
  box.hidden = !text;
  box.textContent = text || "";
}

// --- the player's hands ----------------------------------------------------------------
function togglePick(code) {
  if (!state.legal || state.phase !== "play") return;
  if (picked.has(code)) picked.delete(code);
  else picked.add(code);
  drawHand();
  drawMoves();
  drawPiles();
  drawMelds();
  askWhy();
}

// Why the picked cards make no move: asked of the server, which words it as the
// chat does, once for each pick on each picture of the table.
let whyAsked = "";
function askWhy() {
  if (!state.you) return;
  const key = `${state.version}|${[...picked].sort().join(",")}`;
  if (key === whyAsked) return;
  whyAsked = key;
  clearTimeout(whyTimer);
  $("why").textContent = "";
  if (!state.legal || state.phase !== "play" || !picked.size) return;
  if (meldable() || layOffs().length || discardable()) return;
  whyTimer = setTimeout(() => send("why", { cards: [...picked] }), 150);
}

function dropTarget(x, y) {
  const under = document.elementFromPoint(x, y);
  return under ? under.closest("[data-drop]") : null;
}

function playOnto(target, code) {
  if (!target) return;
  const drop = target.dataset.drop;
  if (drop === "discard" && state.phase === "play") {
    picked = new Set([code]);
    if (discardable()) send("discard", { cards: [code] });
    else render(state);
  } else if (drop.startsWith("meld:")) {
    if (!picked.has(code)) picked = new Set([code]);
    const meld = Number(drop.slice(5));
    if (layOffOnto(meld)) send("lay_off", { cards: [...picked], meld });
    else render(state);
  }
}

// A card is picked by a tap, or dragged onto the discard pile or a meld.
function watchHand() {
  const hand = $("hand");
  let drag = null;
  hand.addEventListener("pointerdown", (event) => {
    const card = event.target.closest(".card");
    if (!card || card.disabled) return;
    drag = { card, x: event.clientX, y: event.clientY, ghost: null };
  });
  window.addEventListener("pointermove", (event) => {
    if (!drag) return;
    const dx = event.clientX - drag.x;
    const dy = event.clientY - drag.y;
    if (!drag.ghost && Math.hypot(dx, dy) > 10) {
      drag.ghost = drag.card.cloneNode(true);
      drag.ghost.classList.add("ghost");
      document.body.append(drag.ghost);
      drag.card.classList.add("lifted");
    }
    if (drag.ghost) {
      drag.ghost.style.left = `${event.clientX}px`;
      drag.ghost.style.top = `${event.clientY}px`;
    }
  });
  window.addEventListener("pointerup", (event) => {
    if (!drag) return;
    const { card, ghost } = drag;
    drag = null;
    if (!ghost) {
      togglePick(card.dataset.code);
      return;
    }
    ghost.remove();
    card.classList.remove("lifted");
    playOnto(dropTarget(event.clientX, event.clientY), card.dataset.code);
  });
  window.addEventListener("pointercancel", () => {
    if (drag && drag.ghost) drag.ghost.remove();
    if (drag) drag.card.classList.remove("lifted");
    drag = null;
  });
  hand.addEventListener("keydown", (event) => {
    const card = event.target.closest(".card");
    if (card && (event.key === "Enter" || event.key === " ")) {
      event.preventDefault();
      togglePick(card.dataset.code);
    }
  });
}

// A tap on the piles or a meld goes to the server even when it cannot be
// played: the player then reads why (not their turn, draw first, that card
// may not go back), in their language, as the chat would tell them.
function seatedAndPlaying() {
  // A watcher's tap goes too: the answer tells them only players can play.
  return Boolean(state && state.stage === "playing");
}

function watchTable() {
  $("stock").addEventListener("click", () => {
    if (seatedAndPlaying() && (!state.legal || state.phase === "draw")) send("draw");
  });
  $("discard").addEventListener("click", () => {
    if (!seatedAndPlaying()) return;
    if (!state.legal || state.phase === "draw") send("take");
    else if (picked.size) send("discard", { cards: [...picked] });
  });
  $("melds").addEventListener("click", (event) => {
    const meld = event.target.closest(".meld");
    if (!meld || !seatedAndPlaying() || !picked.size) return;
    send("lay_off", { cards: [...picked], meld: Number(meld.dataset.drop.slice(5)) });
  });
  $("sort").addEventListener("click", () => send("sort"));
  $("hint").addEventListener("click", () => send("hint"));
  $("log").addEventListener("click", () => send("log"));
  $("language").addEventListener("change", (event) => send("language", { language: event.target.value }));
}

// --- the server ----------------------------------------------------------------------
function send(op, extra = {}) {
  if (!state) return;
  seq += 1;
  const frame = { type: "intent", seq, op, version: state.version, ...extra };
  if (op !== "why") unanswered = frame;
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(frame));
}

function receive(frame) {
  switch (frame.type) {
    case "state":
      render(frame);
      break;
    case "done":
    case "duplicate":
      if (unanswered && unanswered.seq === frame.seq) unanswered = null;
      if (frame.text) toast(frame.text, "done");
      break;
    case "refused":
      if (unanswered && unanswered.seq === frame.seq) unanswered = null;
      toast(frame.text);
      break;
    case "why":
      if (picked.size) richText($("why"), frame.text ? `✋ ${frame.text}` : "");
      break;
    case "hint":
      if (unanswered && unanswered.seq === frame.seq) unanswered = null;
      picked = new Set(frame.cards || []);
      toast(frame.text, "hint");
      if (state) render(state);
      break;
    case "log":
      if (unanswered && unanswered.seq === frame.seq) unanswered = null;
      showLog(frame.lines || []);
      break;
    case "error":
      if (unanswered && unanswered.seq === frame.seq) unanswered = null;
      toast(frame.text || "");
      break;
    case "closing":
      closing = frame;
      break;
    default:
      break;
  }
}


function connect() {
  const url = new URL("ws", base);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  ws = new WebSocket(url);
  ws.addEventListener("open", () => {
    retries = 0;
    ws.send(JSON.stringify({ type: "hello", session }));
    // An intent that got no answer before the connection dropped is sent again:
    // the server plays a seq once, and answers a repeat with where things stand.
    if (unanswered) ws.send(JSON.stringify(unanswered));
    banner(null);
  });
  ws.addEventListener("message", (event) => receive(JSON.parse(event.data)));
  ws.addEventListener("close", async (closed) => {
    const said = closing && (closed.code === 1005 || closed.code === 1006) ? closing : null;
    const event = said ? { code: said.code, reason: said.reason } : closed;
    closing = null;
    if (event.code === 4401) {
      await signIn(); // the session ran out: ask Discord again, silently
      connect();
      return;
    }
    if ([4400, 4403, 4409, 4429].includes(event.code)) {
      banner(event.reason || "Closed");
      if (event.code !== 4429) return;
    } else {
      banner(label("reconnecting") || "Reconnecting…");
    }
    const wait = RETRY_STEPS[Math.min(retries, RETRY_STEPS.length - 1)];
    retries += 1;
    setTimeout(connect, wait);
  });
}

async function signIn() {
  const clientId = sdk.clientId;
  const { code } = await sdk.commands.authorize({
    client_id: clientId,
    response_type: "code",
    state: "",
    prompt: "none",
    scope: ["identify"],
  });
  const reply = await fetch(new URL("api/token", base), {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ code, instance_id: sdk.instanceId }),
  });
  const body = await reply.json();
  if (!reply.ok) throw new Error(body.error || `HTTP ${reply.status}`);
  session = body.session;
  await sdk.commands.authenticate({ access_token: body.access_token });
}

async function start() {
  watchHand();
  watchTable();
  if (!query.get("frame_id")) {
    banner("Open this table from Discord: press Open table on the table in the chat.");
    return;
  }
  const clientId = document.querySelector('meta[name="client-id"]').content;
  sdk = new DiscordSDK(clientId, { disableConsoleLogOverride: true });
  await sdk.ready();
  try {
    await signIn();
  } catch (error) {
    banner(String(error.message || error));
    return;
  }
  connect();
  sdk.subscribe(Events.ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE, (event) => {
    showParticipants(event.participants);
    // Someone came or went: the server asks Discord who is left.
    if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: "participants" }));
  });
  const present = await sdk.commands.getInstanceConnectedParticipants();
  showParticipants(present.participants);
}

start();
