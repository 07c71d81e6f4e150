// What the picked cards can do, read off the legal moves the server sent (the
// page holds no rule), and why they do nothing, asked of the server.
import { app } from "./@asset(state.js)";
import { noteOutlived, why } from "./@asset(outcome.js)";
import { OPS } from "./@asset(protocol.js)";

function sameCards(a, b) {
  return a.length === b.length && a.every((code) => b.includes(code));
}

export function meldable() {
  const legal = app.state.legal;
  return Boolean(legal && legal.melds.some((cards) => sameCards(cards, [...app.picked])));
}

// The lay-off of the picked cards onto the meld numbered ``number``, if legal.
export function layOffOnto(number) {
  const legal = app.state && app.state.legal;
  if (!legal || !app.picked.size) return null;
  return legal.lay_offs.find((l) => l.meld === number && sameCards(l.cards, [...app.picked])) || null;
}

export function layOffs() {
  const legal = app.state.legal;
  if (!legal || !app.picked.size) return [];
  return legal.lay_offs.filter((l) => sameCards(l.cards, [...app.picked]));
}

export function discardable() {
  const legal = app.state.legal;
  return Boolean(legal && app.picked.size === 1 && legal.discards.includes([...app.picked][0]));
}

// Why the picked cards make no move: asked of the server, which words it as the
// chat does, once for each pick on each picture of the table.
let whyAsked = "";
let whyTimer = null;
export function askWhy() {
  const state = app.state;
  if (!state.you) return;
  const picks = [...app.picked].sort().join(",");
  const key = `${state.version}|${state.language}|${picks}`;
  if (key === whyAsked) return;
  whyAsked = key;
  clearTimeout(whyTimer);
  noteOutlived({ picks });
  why("");
  if (!state.legal || state.phase !== "play" || !app.picked.size) return;
  if (meldable() || layOffs().length || discardable()) return;
  whyTimer = setTimeout(() => app.send(OPS.why, { cards: [...app.picked] }), 150);
}
