// A card's face, and the motion of cards from where they were to where they are.
import { $, app } from "./@asset(state.js)";
import { escapeHtml } from "./@asset(text.js)";

const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };
const stillMotion = matchMedia("(prefers-reduced-motion: reduce)");

function rankOf(code) {
  const rank = code.slice(0, -1);
  return (app.state && app.state.ranks && app.state.ranks[rank]) || rank;
}

export function cardElement(code, { tag = "span", small = false } = {}) {
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

// A card of the hand: a control, but not a <button>. A disabled button drops the
// keyboard's focus (to the page's body after every discard, where the arrows do
// nothing); a card out of play keeps its place in reach of the arrows, marked
// disabled for the eye and aria-disabled for readers.
export function handCard(code, { playable, picked, fresh, freshLabel }) {
  const card = cardElement(code);
  card.setAttribute("role", "button");
  card.toggleAttribute("disabled", !playable);
  card.setAttribute("aria-disabled", String(!playable));
  card.setAttribute("aria-pressed", String(picked));
  card.classList.toggle("picked", picked);
  card.classList.toggle("fresh", fresh);
  if (fresh && freshLabel) {
    // The card just drawn says so, in words as well as by its lift.
    const tag = document.createElement("span");
    tag.className = "tag";
    tag.textContent = freshLabel;
    tag.setAttribute("aria-hidden", "true");
    card.append(tag);
    card.setAttribute("aria-label", `${card.getAttribute("aria-label")}, ${freshLabel}`);
  }
  return card;
}

export function where() {
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
export function animateFrom(before, previous) {
  const seatRect = (key) => {
    const chip = document.querySelector(`.seat[data-key="${CSS.escape(key || "")}"]`);
    return chip ? chip.getBoundingClientRect() : null;
  };
  const stock = $("stock").getBoundingClientRect();
  for (const card of document.querySelectorAll(".card[data-code]")) {
    // A result's cards are a list of what each held, not cards on the move:
    // gliding in from the seats, they crossed the sheet's rows.
    if (card.closest("#sheet")) continue;
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
