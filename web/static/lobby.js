// A game before it starts, inside the Activity: with none in the channel, the
// house rules a new one would have, to change, and Start a game; in a lobby,
// who sits, Join and Leave, and for its host the computers, Start and Cancel.
// The server decides every one of them again.
import { $, app, label } from "./@asset(state.js)";
import { seatChip } from "./@asset(people.js)";
import { OPS } from "./@asset(protocol.js)";
import { moveButton, richText } from "./@asset(text.js)";

let choosing = false; // the player asked for a new game over a finished one

export function showNewGame() {
  choosing = true;
  app.render(app.state);
}
app.showNewGame = showNewGame;

function heading(text) {
  const title = document.createElement("h2");
  title.textContent = text;
  return title;
}

function paragraph(text) {
  const line = document.createElement("p");
  richText(line, text);
  return line;
}

// The house rules a game started now would have, each a choice.
function newGameForm(form) {
  const view = document.createElement("form");
  const rules = document.createElement("details");
  const summary = document.createElement("summary");
  richText(summary, form.labels.rules);
  rules.append(summary);
  const fields = document.createElement("div");
  fields.className = "fields";
  for (const option of form.options) {
    const field = document.createElement("label");
    field.textContent = option.label;
    const menu = document.createElement("select");
    menu.name = option.name;
    for (const choice of option.choices) {
      const item = document.createElement("option");
      item.value = choice.value;
      item.textContent = choice.label;
      menu.append(item);
    }
    menu.value = option.value;
    field.append(menu);
    fields.append(field);
  }
  rules.append(fields);
  const start = moveButton("open", form.labels.start_game, true, () => {}, "go");
  start.type = "submit";
  view.append(start, rules);
  view.addEventListener("submit", (event) => {
    event.preventDefault();
    choosing = false;
    app.send(OPS.open, { rules: chosenRules(view) });
  });
  return view;
}

function chosenRules(form) {
  const rules = {};
  for (const menu of form.querySelectorAll("select")) {
    if (menu.name === "length") {
      const [kind, count] = menu.value.split(":");
      rules[kind] = Number(count);
    } else if (menu.name === "turn_timeout") {
      rules.turn_timeout = Number(menu.value);
    } else {
      rules[menu.name] = menu.value;
    }
  }
  return rules;
}

function lobbyView(state) {
  const lobby = state.lobby;
  const parts = [heading(lobby.labels.heading)];
  const seated = document.createElement("div");
  seated.className = "seated";
  seated.setAttribute("aria-label", lobby.seats_text.replaceAll("*", ""));
  for (const seat of state.seats || []) seated.append(seatChip(seat));
  parts.push(paragraph(lobby.seats_text), seated);
  if (lobby.awaited) parts.push(paragraph(lobby.awaited));
  const actions = document.createElement("div");
  actions.className = "actions";
  if (lobby.can_join) actions.append(moveButton("join", lobby.labels.join, true, () => app.send(OPS.join), "go"));
  if (lobby.can_leave) actions.append(moveButton("leave", lobby.labels.leave, true, () => app.send(OPS.leave)));
  if (lobby.host) {
    for (const level of lobby.levels) {
      actions.append(moveButton(`add_${level.value}`, level.label, lobby.can_add,
        () => app.send(OPS.add_computer, { level: level.value })));
    }
    actions.append(moveButton("remove_computer", lobby.labels.remove_computer, lobby.can_remove,
      () => app.send(OPS.remove_computer)));
    actions.append(moveButton("start", lobby.labels.start, lobby.can_start, () => app.send(OPS.start), "go"));
    actions.append(moveButton("cancel", lobby.labels.cancel, true, () => app.send(OPS.cancel), "stop"));
  } else if (!lobby.awaited) {
    // A rematch starts by itself once everyone awaited joined: the line above
    // says whom it waits for, and "waiting for the host" would contradict it.
    parts.push(paragraph(lobby.labels.waiting));
  }
  parts.push(actions);
  // The rules the game is played by, in sight: everyone may read them before Start.
  const rules = document.createElement("section");
  rules.className = "rules";
  const title = document.createElement("h3");
  richText(title, lobby.labels.rules);
  const list = document.createElement("ul");
  for (const line of lobby.rules) {
    const item = document.createElement("li");
    item.textContent = line;
    list.append(item);
  }
  rules.append(title, list);
  parts.push(rules);
  return parts;
}

// A new game's form; where a game has just stopped, first what happened to it,
// so that nobody is left at a table that is no longer there.
function offer(state) {
  const form = [paragraph(state.new_game.labels.intro), newGameForm(state.new_game)];
  if (!state.closed) return [heading(label("new_game")), ...form];
  const what = paragraph(state.closed.text);
  what.className = "closed";
  what.setAttribute("role", "status");
  return [heading(state.closed.heading), what, ...form];
}

// Whether the page shows a lobby (or the new game's rules) instead of the table.
export function drawLobby(state) {
  const view = $("lobby");
  const offered = state.new_game && (state.stage === "none" || choosing);
  const inLobby = state.stage === "lobby" && state.lobby;
  if (!offered && !inLobby) {
    view.hidden = true;
    return false;
  }
  const focused = document.activeElement && view.contains(document.activeElement)
    ? document.activeElement.dataset.move || document.activeElement.name : null;
  view.replaceChildren(...(inLobby ? lobbyView(state) : offer(state)));
  view.hidden = false;
  // The same control keeps the focus when the lobby is drawn anew.
  const again = focused && view.querySelector(`[data-move="${focused}"], [name="${focused}"]`);
  if (again) again.focus({ preventScroll: true });
  return true;
}
