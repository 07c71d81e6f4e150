// Drawing the table from the server's picture of it: where the match stands,
// the other players around the table (their faces, totals and cards as a fan
// of backs), the piles, the melds, the status, and the player's own side: their
// seat, the note above their hand, the hand, and the moves they may make now.
import { $, app, label } from "./@asset(state.js)";
import { animateFrom, cardElement, handCard, where } from "./@asset(cards.js)";
import { drawLobby } from "./@asset(lobby.js)";
import { drawOutcome, note, noteOutlived } from "./@asset(outcome.js)";
import { avatar, seatChip, shownName } from "./@asset(people.js)";
import { askWhy, discardable, layOffOnto, layOffs, meldable } from "./@asset(picking.js)";
import { OPS } from "./@asset(protocol.js)";
import { othersMoves, yourTurn } from "./@asset(motion.js)";
import { drawReactions } from "./@asset(reactions.js)";
import { drawSoundButton, play } from "./@asset(sound.js)";
import { moveButton, richText } from "./@asset(text.js)";

let countdown = null;
const stillMotion = matchMedia("(prefers-reduced-motion: reduce)");

export function render(next) {
  const previous = app.state;
  const moved = previous && previous.version !== next.version;
  const respoken = previous && previous.language !== next.language;
  noteOutlived({ moved, respoken });
  const before = where();
  const focused = focusedCard();
  app.state = next;
  const state = next;
  document.documentElement.lang = state.language || "en";
  $("app").setAttribute("aria-busy", "false");
  const handCodes = new Set(state.hand || []);
  app.picked = new Set([...app.picked].filter((code) => handCodes.has(code)));
  if (!state.legal) app.picked.clear();
  drawBar();
  const lobby = drawLobby(state);
  $("seats").hidden = lobby;
  $("felt").hidden = lobby;
  $("own").hidden = lobby;
  if (!lobby) {
    drawSeats();
    drawPiles();
    drawMelds();
    drawStatus();
    drawMe();
    drawHand();
    drawMoves();
    drawTools();
  }
  drawOutcome();
  if (previous && previous.format === state.format) animateFrom(before, previous);
  cheer(previous, state);
  restoreFocus(drawnJustNow(previous, state) || focused);
  askWhy();
}

// The card the player has just drawn, to take the focus to (the keyboard's next
// keys pick from the hand), unless they are busy with a menu.
function drawnJustNow(previous, state) {
  const drew = previous && previous.phase === "draw" && state.phase === "play"
    && state.you && state.turn === state.you && state.fresh;
  const busy = document.activeElement instanceof HTMLSelectElement;
  return drew && !busy ? { code: state.fresh, index: 0 } : null;
}
app.render = render;

// Sounds and the win's rain, each once, as the table moves on.
function cheer(previous, state) {
  if (!previous) return;
  const newHand = previous.hand_number !== state.hand_number && state.stage === "playing";
  if (newHand) {
    play("deal");
    const hand = $("hand");
    if (!stillMotion.matches) {
      hand.classList.add("dealing");
      setTimeout(() => hand.classList.remove("dealing"), 1200);
    }
  } else {
    yourTurn(previous, state);
    othersMoves(previous, state);
  }
  const won = (outcome) => outcome && outcome.rows.some((row) => row.you && row.winner);
  if (state.outcome && !previous.outcome && won(state.outcome)) {
    play("win");
    celebrate();
  }
}

function celebrate() {
  if (stillMotion.matches) return;
  const rain = $("celebrate");
  rain.replaceChildren();
  for (let i = 0; i < 24; i += 1) {
    const suit = document.createElement("span");
    suit.textContent = "♠♥♦♣"[i % 4];
    suit.style.left = `${(i * 37) % 100}%`;
    suit.style.animationDelay = `${(i % 6) * 0.12}s`;
    suit.style.color = i % 4 === 1 || i % 4 === 2 ? "#ff6b7a" : "#f3f5f4";
    rain.append(suit);
  }
  rain.hidden = false;
  setTimeout(() => { rain.hidden = true; }, 3000);
}

function drawBar() {
  const state = app.state;
  $("match").textContent = state.match_line || "Rummy";
  const invite = $("invite");
  invite.textContent = label("invite") || "Invite";
  invite.hidden = !app.sdk;
  drawSoundButton();
  drawReactions();
}

function seatElement(seat, { fan }) {
  const chip = seatChip(seat);
  const score = document.createElement("span");
  score.className = "score";
  score.textContent = app.state.hand_number ? `${label("total")}: ${seat.total}` : "";
  chip.append(score);
  if (seat.turn && app.state.deadline_in !== null && app.state.deadline_in !== undefined) {
    const clock = document.createElement("span");
    clock.className = "clock";
    score.append(clock);
    tick(clock, Date.now() + app.state.deadline_in * 1000);
  }
  if (fan && seat.cards !== null && seat.cards !== undefined) chip.append(backs(seat.cards));
  // Read as one: who, their total, and how many cards they hold.
  const held = seat.cards !== null && seat.cards !== undefined
    ? `, ${label("cards_in_hand")}: ${seat.cards}` : "";
  chip.setAttribute("role", "group");
  chip.setAttribute("aria-label", `${seat.name}, ${seat.total}${held}`);
  return chip;
}

// Another player's cards, as a fan of backs: as many as they hold, up to ten.
function backs(count) {
  const fan = document.createElement("span");
  fan.className = "fan";
  fan.setAttribute("aria-hidden", "true");
  const shown = Math.min(count, 10);
  for (let i = 0; i < shown; i += 1) {
    const back = document.createElement("span");
    back.className = "mini-back";
    back.style.setProperty("--tilt", `${(i - (shown - 1) / 2) * 7}deg`);
    fan.append(back);
  }
  const number = document.createElement("span");
  number.className = "count";
  number.textContent = String(count);
  fan.append(number);
  return fan;
}

function drawSeats() {
  clearInterval(countdown);
  const state = app.state;
  const seats = $("seats");
  seats.replaceChildren();
  for (const seat of state.seats || []) {
    if (!seat.you) seats.append(seatElement(seat, { fan: true }));
  }
  // Who watches without a seat: the instance's participants, as Discord tells them.
  const seated = new Set((state.seats || []).map((seat) => seat.user).filter(Boolean));
  for (const person of app.participants) {
    if (seated.has(person.id)) continue;
    const chip = document.createElement("div");
    chip.className = "watcher";
    const name = shownName(person);
    chip.dataset.user = person.id;
    chip.append(avatar({ user: person.id, name }), `👁 ${name}`);
    seats.append(chip);
  }
}

function drawMe() {
  const mine = (app.state.seats || []).find((seat) => seat.you);
  const me = $("me");
  me.replaceChildren();
  if (mine) me.append(seatElement(mine, { fan: false }));
}

export function showParticipants(list) {
  app.participants = list || [];
  if (app.state && !$("seats").hidden) drawSeats();
}

function tick(clock, until) {
  const show = () => {
    const left = Math.max(0, Math.round((until - Date.now()) / 1000));
    clock.textContent = ` ⏱ ${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
    clock.classList.toggle("short", left <= 15);
  };
  show();
  countdown = setInterval(show, 1000);
}

export function drawPiles() {
  const state = app.state;
  const playing = ["playing", "hand_over", "finished"].includes(state.stage);
  $("felt").classList.toggle("idle", !playing);
  $("stock-count").textContent = playing ? state.stock_text : "";
  $("stock").setAttribute("aria-label", `${label("stock")} ${state.stock_text || ""}`);
  const top = $("discard-top");
  top.replaceChildren();
  if (state.discard_top) top.append(cardElement(state.discard_top));
  $("discard-count").textContent = playing && state.discard_count ? String(state.discard_count) : "";
  const topName = state.discard_top ? top.firstChild.getAttribute("aria-label") : "";
  // The count last: the pile's name holds its visible text, in the order it shows.
  const piled = playing && state.discard_count ? String(state.discard_count) : "";
  $("discard").setAttribute("aria-label", `${label("discard_pile")} ${topName} ${piled}`.trim());
  const legal = state.legal;
  $("stock").classList.toggle("lit", Boolean(legal && legal.draw));
  $("discard").classList.toggle("lit", Boolean(legal && (legal.take || discardable())));
}

export function drawMelds() {
  const state = app.state;
  const melds = $("melds");
  melds.replaceChildren();
  melds.setAttribute("aria-label", label("melds"));
  for (const meld of state.melds || []) {
    const group = document.createElement("button");
    group.type = "button";
    group.className = "meld";
    group.dataset.drop = `meld:${meld.number}`;
    group.classList.toggle("lit", layOffOnto(meld.number) !== null);
    // Named from its content, in the order it shows: "Melds" is read but not
    // shown, then the number and each card's own name, so what a reader hears
    // always holds what a sighted player sees.
    const spoken = document.createElement("span");
    spoken.className = "unseen";
    spoken.textContent = `${label("melds")} `;
    const number = document.createElement("span");
    number.className = "number";
    number.textContent = `${meld.number} `;
    group.append(spoken, number);
    for (const code of meld.cards) group.append(cardElement(code, { small: true }), " ");
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
  hand.setAttribute("aria-label", label("cards_in_hand"));
  const playable = Boolean(state.legal) && state.phase === "play";
  const focusable = cards.includes(hand.dataset.focus) ? hand.dataset.focus : cards[0];
  // A phone cannot give eleven cards a thumb's width in one row: past seven
  // they go in two (the style decides by the screen's width).
  const rows = cards.length > 7 ? 2 : 1;
  hand.style.setProperty("--per-row", String(Math.ceil(cards.length / rows) || 1));
  hand.classList.toggle("rows", rows === 2);
  cards.forEach((code, index) => {
    const card = handCard(code, { playable, picked: app.picked.has(code),
      fresh: code === state.fresh, freshLabel: label("drawn") });
    card.style.setProperty("--i", String(index));
    // One tab stop for the whole hand; the arrow keys move along it.
    card.tabIndex = code === focusable ? 0 : -1;
    hand.append(card);
  });
  hand.classList.toggle("watching", !state.you);
  if (!state.you && state.stage !== "none" && !$("note").dataset.kind) {
    note(label("spectating"), "why");
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
      moveButton("draw", label("draw"), legal.draw, () => app.send(OPS.draw), "go", "D"),
      moveButton("take", label("take"), legal.take, () => app.send(OPS.take), "go", "T"),
    );
    return;
  }
  const targets = layOffs();
  const picked = [...app.picked];
  moves.append(moveButton("meld", label("meld"), meldable(), () => app.send(OPS.meld, { cards: picked }), "go", "M"));
  moves.append(
    moveButton("lay_off", targets.length === 1 ? `${label("lay_off")} → ${targets[0].meld}` : label("lay_off"),
      targets.length > 0, () => {
        if (targets.length === 1) app.send(OPS.lay_off, { cards: picked, meld: targets[0].meld });
        else note(label("lay_off_which"));
      }, "go", "L"),
  );
  moves.append(moveButton("discard", label("discard"), discardable(), () => app.send(OPS.discard, { cards: picked }), "stop", "D"));
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

// Where the keyboard's focus was on the table, to give it back once drawn anew:
// a card of the hand (by its code and place), or a move's button that the
// drawing replaces (then the hand takes it, not the page's body).
function focusedCard() {
  const active = document.activeElement;
  if (!active || !active.closest) return null;
  if (active.closest("#hand")) {
    const index = [...$("hand").querySelectorAll(".card")].indexOf(active);
    return { code: active.dataset.code, index };
  }
  return active.closest("#moves, #stock, #discard, #melds") ? { code: null, index: 0, lost: true } : null;
}

function restoreFocus(wanted) {
  if (!wanted || (wanted.lost && document.activeElement !== document.body)) return;
  const hand = $("hand");
  const cards = [...hand.querySelectorAll(".card")];
  // A card played away hands the focus on to the card that took its place.
  const again = cards.find((card) => card.dataset.code === wanted.code)
    || cards[Math.min(wanted.index, cards.length - 1)];
  if (again) {
    hand.dataset.focus = again.dataset.code;
    for (const card of cards) card.tabIndex = card === again ? 0 : -1;
    again.focus({ preventScroll: true });
  }
}
