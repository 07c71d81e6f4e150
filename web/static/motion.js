// The table coming alive: the moment the turn comes to the player (a word over
// the felt, their seat lit, a sound), and the other players' draws shown as a
// card flying from the stock (or the discard pile) to their seat; their
// discards glide from their seat to the pile (cards.js). Only after the table is
// drawn, and never with reduced motion: none of it holds up a move.
import { $, label } from "./@asset(state.js)";
import { cardElement } from "./@asset(cards.js)";
import { play } from "./@asset(sound.js)";

const still = matchMedia("(prefers-reduced-motion: reduce)");
let turnTimer = null;

export function yourTurn(previous, state) {
  const mine = state.stage === "playing" && state.you && state.turn === state.you;
  const word = $("your-turn");
  if (!mine) {
    // The turn went on, the hand ended or the game stopped while the word was
    // up: it says what is no longer so, and goes at once.
    clearTimeout(turnTimer);
    word.hidden = true;
    return;
  }
  if (!previous || previous.turn === state.turn) return;
  play("turn");
  word.textContent = label("your_turn");
  word.hidden = !word.textContent;
  clearTimeout(turnTimer);
  turnTimer = setTimeout(() => { word.hidden = true; }, 1600);
  const seat = $("me").querySelector(".seat");
  if (seat && !still.matches) {
    seat.animate([{ boxShadow: "0 0 0 0 var(--gold)" }, { boxShadow: "0 0 0 10px transparent" }],
      { duration: 700, iterations: 2 });
  }
}

function seatOf(key) {
  return document.querySelector(`#seats .seat[data-key="${CSS.escape(key)}"]`);
}

// A card on its way from one place to another, above everything, then gone.
function fly(card, from, to) {
  if (!from || !to) return;
  const a = from.getBoundingClientRect();
  const b = to.getBoundingClientRect();
  card.classList.add("flyer");
  card.setAttribute("aria-hidden", "true");
  card.style.left = `${a.left + a.width / 2}px`;
  card.style.top = `${a.top + a.height / 2}px`;
  document.body.append(card);
  const dx = b.left + b.width / 2 - (a.left + a.width / 2);
  const dy = b.top + b.height / 2 - (a.top + a.height / 2);
  const flight = card.animate(
    [{ transform: "none", opacity: 1 }, { transform: `translate(${dx}px, ${dy}px) scale(0.45)`, opacity: 0.7 }],
    { duration: 480, easing: "cubic-bezier(.3,.6,.3,1)" },
  );
  flight.finished.then(() => card.remove(), () => card.remove());
}

// Another player drew since the last picture: theirs was the turn, to draw,
// and it has moved on (to their play, or to the next seat). The stock holding
// fewer cards says it came from there; else it was the discard pile's top.
export function othersMoves(previous, state) {
  if (still.matches || !previous || previous.hand_number !== state.hand_number) return;
  const mover = (state.seats || []).find((seat) => seat.key === previous.turn && !seat.you);
  const drew = previous.phase === "draw" && (state.turn !== previous.turn || state.phase === "play");
  if (!mover || !drew) return;
  if ((state.stock || 0) < (previous.stock || 0) || !previous.discard_top) {
    const back = document.createElement("span");
    back.className = "back";
    fly(back, $("stock"), seatOf(mover.key));
  } else {
    fly(cardElement(previous.discard_top), $("discard"), seatOf(mover.key));
  }
}
