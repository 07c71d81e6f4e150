// The sheet over the table: a hand's result, the match's chart, the hand's log;
// and the short notes the page shows (a toast, a banner).
import { $, app, label } from "./@asset(state.js)";
import { cardElement } from "./@asset(cards.js)";
import { OPS } from "./@asset(protocol.js)";
import { escapeHtml, moveButton, richText } from "./@asset(text.js)";

export function drawOutcome() {
  const state = app.state;
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
    actions.append(moveButton("next_hand", label("next_hand"), true, () => app.send(OPS.next_hand), "go"));
  } else if (state.stage === "finished" && state.you && outcome.match_over) {
    actions.append(moveButton("rematch", label("rematch"), true, () => app.send(OPS.rematch), "go"));
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

export function showLog(lines) {
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
export function toast(text, kind = "refused") {
  const box = $("toast");
  richText(box, text);
  box.className = `toast ${kind}`;
  box.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { box.hidden = true; }, kind === "hint" ? 8000 : 5000);
}

export function banner(text) {
  const box = $("banner");
  box.hidden = !text;
  box.textContent = text || "";
}
