// The table by keyboard alone. The hand is one tab stop: the arrow keys move
// along it, Space or Enter picks a card, and the focus stays on that card as
// the table is drawn anew. A few keys play at once, as the buttons name them:
// D draws (or discards the one card picked), T takes the discard, M melds,
// L lays off, S sorts, H asks for a hint, Escape lets go of the cards picked.
import { $, app, label } from "./@asset(state.js)";
import { note } from "./@asset(outcome.js)";
import { layOffs } from "./@asset(picking.js)";
import { OPS } from "./@asset(protocol.js)";

function cardsOfHand() {
  return [...$("hand").querySelectorAll(".card")];
}

export function moveFocus(card) {
  const hand = $("hand");
  for (const other of cardsOfHand()) other.tabIndex = other === card ? 0 : -1;
  hand.dataset.focus = card.dataset.code;
  card.focus({ preventScroll: true });
}

function alongTheHand(event) {
  const cards = cardsOfHand();
  const here = cards.indexOf(event.target.closest(".card"));
  if (here < 0) return false;
  const to = { ArrowLeft: here - 1, ArrowRight: here + 1, ArrowUp: here - 1, ArrowDown: here + 1,
    Home: 0, End: cards.length - 1 }[event.key];
  if (to === undefined) return false;
  moveFocus(cards[Math.max(0, Math.min(cards.length - 1, to))]);
  return true;
}

function typing(event) {
  const target = event.target;
  return target instanceof HTMLSelectElement || target instanceof HTMLInputElement
    || event.altKey || event.ctrlKey || event.metaKey;
}

// A key that names a move plays it even when the page knows it will not do (out
// of turn, nothing picked): the table answers with the chat's own reason, in a
// note, as it answers a careless tap. Lay off is the one that needs a meld
// named, so it plays only when the cards picked fit exactly one.
function play(key) {
  const state = app.state;
  if (!state || state.stage !== "playing" || !state.you) return false;
  const picked = [...app.picked];
  const drawing = !state.legal || state.phase === "draw";
  if (key === "d") app.send(drawing ? OPS.draw : OPS.discard, drawing ? {} : { cards: picked });
  else if (key === "t") app.send(OPS.take);
  else if (key === "m") app.send(OPS.meld, { cards: picked });
  else if (key === "l") layOff(picked, drawing);
  else if (key === "s") app.send(OPS.sort);
  else if (key === "h" && state.hints) app.send(OPS.hint);
  else return false;
  return true;
}

// L lays the picked cards off on the one meld they fit. Where they fit none, or
// several (the key cannot say which), it says so; out of turn, before the draw
// or with nothing picked, the server answers why, as it does for the other keys.
function layOff(picked, drawing) {
  const fits = layOffs();
  if (fits.length === 1) app.send(OPS.lay_off, { cards: picked, meld: fits[0].meld });
  else if (drawing || !picked.length || app.state.turn !== app.state.you) {
    app.send(OPS.lay_off, { cards: picked });
  } else note(label(fits.length ? "lay_off_which" : "lay_off_none"));
}

export function watchKeys() {
  document.addEventListener("keydown", (event) => {
    if (alongTheHand(event)) {
      event.preventDefault();
      return;
    }
    // A key held down repeats: one press is one move.
    if (typing(event) || event.repeat) return;
    if (event.key === "Escape") {
      const sheet = $("sheet");
      if (!sheet.hidden && sheet.dataset.kind === "log") {
        sheet.querySelector('[data-move="close"]').click();
      } else if (app.picked.size) {
        app.picked.clear();
        app.render(app.state);
      }
      return;
    }
    if (play(event.key.toLowerCase())) event.preventDefault();
  });
}
