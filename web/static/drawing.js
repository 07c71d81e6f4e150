// Drawing the table from the server's picture of it: the seats, the piles, the
// melds, the status, the player's hand and the moves they may make now.
import { $, app, label } from "./@asset(state.js)";
import { animateFrom, cardElement, where } from "./@asset(cards.js)";
import { drawOutcome } from "./@asset(outcome.js)";
import { askWhy, discardable, layOffOnto, layOffs, meldable } from "./@asset(picking.js)";
import { OPS } from "./@asset(protocol.js)";
import { moveButton, richText } from "./@asset(text.js)";

let countdown = null;

export function render(next) {
  const previous = app.state;
  const moved = previous && previous.version !== next.version;
  const respoken = previous && previous.language !== next.language;
  const toast = $("toast");
  if ((moved && toast.classList.contains("refused"))
      || (respoken && !toast.classList.contains("done"))) {
    // A refusal spoke of the table as it was ("not your turn"), and a note
    // other than the change's own answer speaks the language the page left.
    toast.hidden = true;
  }
  const before = where();
  app.state = next;
  const state = next;
  document.documentElement.lang = state.language || "en";
  $("app").setAttribute("aria-busy", "false");
  const handCodes = new Set(state.hand || []);
  app.picked = new Set([...app.picked].filter((code) => handCodes.has(code)));
  if (!state.legal) app.picked.clear();
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

export function drawSeats() {
  const state = app.state;
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
  for (const person of app.participants) {
    if (seated.has(person.id)) continue;
    const chip = document.createElement("div");
    chip.className = "watcher";
    chip.textContent = `👁 ${person.nickname || person.global_name || person.username}`;
    seats.append(chip);
  }
}

export function showParticipants(list) {
  app.participants = list || [];
  if (app.state) drawSeats();
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

export function drawPiles() {
  const state = app.state;
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

export function drawMelds() {
  const state = app.state;
  const melds = $("melds");
  melds.replaceChildren();
  for (const meld of state.melds || []) {
    const group = document.createElement("button");
    group.type = "button";
    group.className = "meld";
    group.dataset.drop = `meld:${meld.number}`;
    group.classList.toggle("lit", layOffOnto(meld.number) !== null);
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
  const state = app.state;
  richText($("status"), state.stage === "playing" ? state.status : state.text || "");
  const since = $("since");
  since.replaceChildren();
  for (const line of state.since || []) {
    const item = document.createElement("li");
    richText(item, line);
    since.append(item);
  }
}

export function drawHand() {
  const state = app.state;
  const hand = $("hand");
  hand.replaceChildren();
  const cards = state.hand || [];
  hand.style.setProperty("--cards", String(Math.max(cards.length, 1)));
  cards.forEach((code, index) => {
    const card = cardElement(code, { tag: "button" });
    card.style.setProperty("--i", String(index));
    card.classList.toggle("picked", app.picked.has(code));
    card.classList.toggle("fresh", code === state.fresh);
    card.disabled = !state.legal || state.phase !== "play";
    card.setAttribute("aria-pressed", app.picked.has(code) ? "true" : "false");
    hand.append(card);
  });
  hand.classList.toggle("watching", !state.you);
  if (!state.you && state.stage !== "none") {
    richText($("why"), label("spectating"));
  }
}

export function drawMoves() {
  const state = app.state;
  const moves = $("moves");
  moves.replaceChildren();
  if (state.stage === "lobby" && !state.you) {
    moves.append(moveButton("join", label("join"), true, () => app.send(OPS.join), "go"));
    return;
  }
  const legal = state.legal;
  if (!legal || state.stage !== "playing") return;
  if (state.phase === "draw") {
    moves.append(
      moveButton("draw", label("draw"), legal.draw, () => app.send(OPS.draw), "go"),
      moveButton("take", label("take"), legal.take, () => app.send(OPS.take), "go"),
    );
    return;
  }
  const targets = layOffs();
  const picked = [...app.picked];
  moves.append(moveButton("meld", label("meld"), meldable(), () => app.send(OPS.meld, { cards: picked }), "go"));
  moves.append(
    moveButton("lay_off", targets.length === 1 ? `${label("lay_off")} → ${targets[0].meld}` : label("lay_off"),
      targets.length > 0, () => {
        if (targets.length === 1) app.send(OPS.lay_off, { cards: picked, meld: targets[0].meld });
      }, "go"),
  );
  moves.append(moveButton("discard", label("discard"), discardable(), () => app.send(OPS.discard, { cards: picked }), "stop"));
}

function drawTools() {
  const state = app.state;
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
