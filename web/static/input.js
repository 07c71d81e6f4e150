// The player's hands on the table: a card is picked by a tap, Enter or Space,
// or dragged (by mouse or finger) onto the discard pile or a meld; a tap on the
// piles or a meld plays there. A tap the player cannot play is sent all the
// same, and the answer says why (not their turn, draw first, that card may not
// go back) in their language, as the chat would tell them.
import { $, app } from "./@asset(state.js)";
import { drawHand, drawMelds, drawMoves, drawPiles, render } from "./@asset(drawing.js)";
import { moveFocus } from "./@asset(keys.js)";
import { askWhy, discardable, layOffOnto } from "./@asset(picking.js)";
import { OPS } from "./@asset(protocol.js)";
import { watchReactions } from "./@asset(reactions.js)";

function togglePick(code) {
  const state = app.state;
  if (!state.legal || state.phase !== "play") return;
  if (app.picked.has(code)) app.picked.delete(code);
  else app.picked.add(code);
  const hand = $("hand");
  const hadFocus = hand.contains(document.activeElement);
  hand.dataset.focus = code;
  drawHand();
  drawMoves();
  drawPiles();
  drawMelds();
  askWhy();
  // The card just picked keeps the focus, for the next key.
  const card = hand.querySelector(`.card[data-code="${CSS.escape(code)}"]`);
  if (hadFocus && card) moveFocus(card);
}

function dropTarget(x, y) {
  const under = document.elementFromPoint(x, y);
  return under ? under.closest("[data-drop]") : null;
}

function playOnto(target, code) {
  if (!target) return;
  const drop = target.dataset.drop;
  if (drop === "discard" && app.state.phase === "play") {
    app.picked = new Set([code]);
    if (discardable()) app.send(OPS.discard, { cards: [code] });
    else render(app.state);
  } else if (drop.startsWith("meld:")) {
    if (!app.picked.has(code)) app.picked = new Set([code]);
    const meld = Number(drop.slice(5));
    if (layOffOnto(meld)) app.send(OPS.lay_off, { cards: [...app.picked], meld });
    else render(app.state);
  }
}

export function watchHand() {
  const hand = $("hand");
  let drag = null;
  hand.addEventListener("pointerdown", (event) => {
    const card = event.target.closest(".card");
    if (!card || card.hasAttribute("disabled")) return;
    drag = { card, x: event.clientX, y: event.clientY, ghost: null };
    // Every move of this finger or mouse comes here, wherever it goes.
    card.setPointerCapture(event.pointerId);
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

function playing() {
  // A watcher's tap goes too: the answer tells them only players can play.
  return Boolean(app.state && app.state.stage === "playing");
}

export function watchTable() {
  watchReactions();
  $("stock").addEventListener("click", () => {
    if (playing() && (!app.state.legal || app.state.phase === "draw")) app.send(OPS.draw);
  });
  $("discard").addEventListener("click", () => {
    if (!playing()) return;
    if (!app.state.legal || app.state.phase === "draw") app.send(OPS.take);
    else if (app.picked.size) app.send(OPS.discard, { cards: [...app.picked] });
  });
  $("melds").addEventListener("click", (event) => {
    const meld = event.target.closest(".meld");
    if (!meld || !playing() || !app.picked.size) return;
    app.send(OPS.lay_off, { cards: [...app.picked], meld: Number(meld.dataset.drop.slice(5)) });
  });
  $("sort").addEventListener("click", () => app.send(OPS.sort));
  $("hint").addEventListener("click", () => app.send(OPS.hint));
  $("log").addEventListener("click", () => app.send(OPS.log));
  $("language").addEventListener("change", (event) => app.send(OPS.language, { language: event.target.value }));
}
