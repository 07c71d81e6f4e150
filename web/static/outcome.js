// What the page says besides the table: a hand's result (who held what, why
// the winner scored it, the totals), a match's end (the winner and the chart
// of the totals), the hand's log; the note above the hand, and the banner.
import { $, app, label } from "./@asset(state.js)";
import { cardElement } from "./@asset(cards.js)";
import { avatar } from "./@asset(people.js)";
import { OPS } from "./@asset(protocol.js)";
import { escapeHtml, moveButton, richText } from "./@asset(text.js)";

export function drawOutcome() {
  const state = app.state;
  const outcome = state.outcome;
  const sheet = $("sheet");
  if (sheet.dataset.kind === "log") return; // the log stays open until closed
  if (!outcome) {
    if (sheet.dataset.kind !== "") sheet.hidden = true;
    sheet.dataset.kind = "";
    return;
  }
  const sameHand = sheet.dataset.hand === String(state.hand_number);
  // Put aside to look at the table (or for a new game's form): it stays aside,
  // with the way back to it where the moves go, until another hand's result.
  if (sameHand && (sheet.dataset.kind === "aside" || sheet.dataset.kind === "closed")) {
    sheet.hidden = true;
    if (sheet.dataset.kind === "aside") $("moves").append(backToResult());
    return;
  }
  const fresh = sheet.dataset.kind !== "outcome" || !sameHand;
  // The same result drawn again (a later state of the same table) replaces its
  // buttons: the player's focus goes back where it was, not to the page.
  const focused = sheet.contains(document.activeElement) ? document.activeElement : null;
  const focusedMove = focused ? focused.dataset.move || focused.id : null;
  sheet.dataset.kind = "outcome";
  sheet.dataset.hand = String(state.hand_number);
  const body = $("sheet-body");
  body.replaceChildren();
  const heading = document.createElement("h2");
  heading.id = "sheet-heading";
  heading.textContent = outcome.heading;
  const headline = document.createElement("p");
  richText(headline, outcome.headline);
  body.append(heading, headline);
  if (outcome.winners) {
    const winners = document.createElement("p");
    winners.className = "winners";
    richText(winners, outcome.winners);
    body.append(winners);
  }
  for (const line of outcome.explained || []) {
    const why = document.createElement("p");
    why.className = "explained";
    richText(why, line);
    body.append(why);
  }
  body.append(scoreTable(outcome));
  if (outcome.chart) body.append(...chart(outcome.chart, outcome.total, outcome.hands));
  if (outcome.next) {
    const next = document.createElement("p");
    next.className = "next";
    richText(next, outcome.next);
    body.append(next);
  }
  const actions = $("sheet-actions");
  actions.replaceChildren();
  if (state.stage === "hand_over" && state.you) {
    actions.append(moveButton("next_hand", label("next_hand"), true, () => app.send(OPS.next_hand), "go"));
  } else if (state.stage === "finished" && outcome.match_over) {
    if (state.you) {
      actions.append(moveButton("rematch", label("rematch"), true, () => app.send(OPS.rematch), "go"));
    }
    if (state.new_game) {
      actions.append(moveButton("new_game", label("new_game"), true, () => {
        sheet.hidden = true;
        sheet.dataset.kind = "closed";
        app.showNewGame();
      }));
    }
  }
  actions.append(moveButton("see_table", label("see_table"), true, () => {
    sheet.dataset.kind = "aside";
    drawOutcome();
    $("moves").querySelector('[data-move="see_result"]').focus({ preventScroll: true });
  }));
  sheet.hidden = false;
  // A win's rain falls behind the result, never over its heading and buttons.
  $("celebrate").style.zIndex = "3";
  // The result is news: keyboard and screen reader are taken to it once.
  // After the rest of the drawing, which gives a card of the hand its focus back.
  heading.tabIndex = -1;
  if (fresh) {
    setTimeout(() => (actions.querySelector("button") || heading).focus({ preventScroll: true }));
  } else if (focusedMove) {
    const again = focusedMove === heading.id ? heading
      : actions.querySelector(`[data-move="${CSS.escape(focusedMove)}"]`);
    if (again) again.focus({ preventScroll: true });
  }
}

// The way back to a result put aside.
function backToResult() {
  return moveButton("see_result", label("see_result"), true, () => {
    $("moves").querySelector('[data-move="see_result"]').remove();
    $("sheet").dataset.kind = "";
    drawOutcome();
  }, "go");
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
    name.append(avatar({ user: row.user, name: row.name, colour: row.colour, computer: !row.user }),
      (row.winner ? "🏆 " : "") + row.name);
    const score = document.createElement("td");
    score.textContent = String(row.score);
    const total = document.createElement("td");
    total.textContent = String(row.total);
    line.append(name, score, total);
    tbody.append(line);
    const heldRow = document.createElement("tr");
    heldRow.className = "held-row";
    const held = document.createElement("td");
    held.colSpan = 3;
    held.className = "held";
    for (const code of row.cards) held.append(cardElement(code, { small: true }));
    held.append(` ${row.held}`);
    heldRow.append(held);
    tbody.append(heldRow);
  }
  rows.append(tbody);
  return rows;
}

// The match's running totals, a line a player in their colour (as the chat's
// chart), with the hands along the bottom, the points up the side, and a key.
function chart(series, totalLabel, handsLabel) {
  const hands = Math.max(...series.map((s) => s.totals.length));
  const top = Math.max(1, ...series.flatMap((s) => s.totals));
  const width = 360;
  const height = 190;
  const left = 40;
  const right = 44;
  const bottom = 40;
  const upper = 26;
  const x = (i) => left + (hands > 1 ? (i * (width - left - right)) / (hands - 1) : (width - left - right) / 2);
  const y = (v) => height - bottom - (v * (height - bottom - upper)) / top;
  const svgNS = "http://www.w3.org/2000/svg";
  const make = (tag, attributes, text) => {
    const element = document.createElementNS(svgNS, tag);
    for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
    if (text !== undefined) element.textContent = text;
    return element;
  };
  const svg = make("svg", { viewBox: `0 0 ${width} ${height}`, class: "chart", role: "img" });
  svg.append(make("path", { d: `M${left} ${upper - 8}V${height - bottom}H${width - right + 12}`, class: "axis" }));
  // Each axis says what it counts: the totals up the side, the hands along the bottom.
  svg.append(make("text", { x: left, y: upper - 14, "text-anchor": "middle", class: "axis-name" }, totalLabel));
  svg.append(make("text", { x: (left + width - right) / 2, y: height - 4, "text-anchor": "middle",
    class: "axis-name" }, handsLabel || ""));
  for (let i = 0; i < hands; i += 1) {
    svg.append(make("text", { x: x(i), y: height - bottom + 16, "text-anchor": "middle" }, String(i + 1)));
  }
  svg.append(make("text", { x: left - 6, y: y(top) + 4, "text-anchor": "end" }, String(top)));
  svg.append(make("text", { x: left - 6, y: y(0) + 4, "text-anchor": "end" }, "0"));
  // One hand makes no line: each player's points stand as a bar over it.
  const barWidth = Math.min(36, (width - left - right) / (series.length * 1.6));
  series.forEach((line, index) => {
    const last = line.totals.at(-1);
    if (hands === 1) {
      const middle = x(0) + (index - (series.length - 1) / 2) * barWidth * 1.4;
      svg.append(make("rect", { x: middle - barWidth / 2, y: y(last), width: barWidth,
        height: Math.max(1, y(0) - y(last)), fill: line.colour, rx: 3 }));
      svg.append(make("text", { x: middle, y: y(last) - 5, "text-anchor": "middle", fill: line.colour },
        String(last)));
      return;
    }
    svg.append(make("polyline", {
      points: line.totals.map((v, i) => `${x(i)},${y(v)}`).join(" "),
      fill: "none", stroke: line.colour, "stroke-width": 3,
    }));
    line.totals.forEach((v, i) => {
      svg.append(make("circle", { cx: x(i), cy: y(v), r: 4, fill: line.colour }));
    });
    svg.append(make("text", { x: x(line.totals.length - 1) + 7, y: y(last) + 4, fill: line.colour }, String(last)));
  });
  svg.setAttribute("aria-label", `${totalLabel}: ${series.map((s) => `${s.name} ${s.totals.at(-1)}`).join(", ")}`);
  const key = document.createElement("ul");
  key.className = "legend";
  for (const line of series) {
    const item = document.createElement("li");
    item.style.setProperty("--seat", line.colour);
    item.textContent = `${line.name} · ${line.totals.at(-1)}`;
    key.append(item);
  }
  return [svg, key];
}

export function showLog(lines) {
  const sheet = $("sheet");
  sheet.dataset.kind = "log";
  const body = $("sheet-body");
  body.replaceChildren();
  const list = document.createElement("div");
  list.className = "log";
  lines.forEach((line, index) => {
    const item = document.createElement(index === 0 ? "h2" : "p");
    if (index === 0) item.id = "sheet-heading";
    richText(item, line);
    list.append(item);
  });
  body.append(list);
  const actions = $("sheet-actions");
  const close = moveButton("close", "✕", true, () => {
    sheet.dataset.kind = "";
    sheet.hidden = true;
    drawOutcome();
    $("log").focus();
  });
  close.setAttribute("aria-label", label("close") || "Close");
  actions.replaceChildren(close);
  sheet.hidden = false;
  close.focus();
}

let noteTimer = null;
// Why the picked cards make nothing, kept while an answer to the player's own
// action is up: "Saved." or a refusal is read first, then the why line follows.
let waitingWhy = "";
// A note above the hand: a refusal, a hint, why the pick makes nothing, or
// that a change was made. It never covers a card, and goes after a while.
export function note(text, kind = "refused") {
  const box = $("note");
  richText(box, text || "");
  box.className = `note ${text ? kind : ""}`;
  box.dataset.kind = text ? kind : "";
  box.dataset.picks = [...app.picked].sort().join(",");
  clearTimeout(noteTimer);
  if (text && kind !== "why") {
    noteTimer = setTimeout(() => {
      const next = waitingWhy;
      waitingWhy = "";
      note(next, "why");
    }, kind === "hint" ? 10000 : 6000);
  }
}

// A note speaks of the table, the language and the cards picked when it came.
// When the table moves on, a refusal or a hint goes (a hint names a move in a
// position that is gone: "discard Q♥" after Q♥ went is untrue); when the
// language changes, any note but the change's own answer; when the player
// picks anew, a refusal or a done.
export function noteOutlived({ moved = false, respoken = false, picks = null } = {}) {
  const box = $("note");
  const shown = box.dataset.kind;
  const answered = shown === "refused" || shown === "done";
  if ((moved && (shown === "refused" || shown === "hint")) || (respoken && shown !== "done")
      || (picks !== null && picks !== box.dataset.picks && answered)) {
    note("");
  }
}

// The standing why line for the current pick ("" when the pick is fine, or
// there is none): shown at once, unless another note is still being read.
export function why(text) {
  const shown = $("note").dataset.kind;
  if (shown && shown !== "why") {
    waitingWhy = text;
    return;
  }
  waitingWhy = "";
  note(text, "why");
}

// A line across the top for what stops the whole table (signing in, the
// connection); ``action``: a button under it, such as Try again.
export function banner(text, action = null) {
  const box = $("banner");
  box.hidden = !text;
  box.textContent = text || "";
  if (text && action) {
    const button = moveButton("retry", action.label, true, () => {
      banner(null);
      action.act();
    }, "go");
    box.append(" ", button);
    button.focus();
  }
}
