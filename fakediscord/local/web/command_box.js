// The message box of local play's page: slash commands as Discord's app takes
// them, picked from the list with their options in fields, or typed whole with
// their options after them. Loaded after client.js, whose page state ($, state,
// post, refuse) it shares.
"use strict";

// -- the message box: slash commands as Discord's app takes them ------------------------
function localised(record, field, locale) {
  return record[`${field}_localizations`]?.[locale] ?? record[field];
}

function commandChoices() {
  const locale = state.hello.me.locale;
  const found = [];
  // Only what the member's app offers where they type: by each command's
  // contexts and installs, as the stand-in decides (the hello's lists).
  const here = new Set(state.hello.channels.find((c) => c.id === state.channel)?.commands ?? []);
  for (const command of state.hello.commands) {
    if ((command.type ?? 1) !== 1 || !here.has(command.id)) continue;
    const subs = (command.options ?? []).filter((o) => o.type === 1 || o.type === 2);
    const entries = subs.length ? subs.flatMap((sub) => sub.type === 2
      ? (sub.options ?? []).map((leaf) => [sub, leaf]) : [[sub]]) : [[]];
    for (const path of entries) {
      const parts = [command, ...path];
      const last = parts[parts.length - 1];
      found.push({
        english: parts.map((p) => p.name).join(" "),
        shown: parts.map((p) => localised(p, "name", locale)).join(" "),
        description: localised(last, "description", locale),
        options: (last.options ?? []).filter((o) => o.type !== 1 && o.type !== 2),
      });
    }
  }
  return found;
}

$("text").addEventListener("input", () => {
  const text = $("text").value;
  if (state.command && !text.startsWith(`/${state.command.shown}`)) setCommand(null);
  if (!state.command && text.startsWith("/")) suggest(text.slice(1).toLowerCase());
  else hideSuggestions();
  refuse(null);
});

$("text").addEventListener("keydown", (event) => {
  if ($("suggestions").hidden) return;
  if (event.key === "ArrowDown" || event.key === "ArrowUp") {
    event.preventDefault();
    const step = event.key === "ArrowDown" ? 1 : -1;
    state.active = (state.active + step + state.suggestions.length) % state.suggestions.length;
    markActive();
  } else if (event.key === "Enter" || event.key === "Tab") {
    event.preventDefault();
    setCommand(state.suggestions[state.active]);
  } else if (event.key === "Escape") hideSuggestions();
});

function suggest(typed) {
  state.suggestions = commandChoices().filter((c) => c.shown.toLowerCase().startsWith(typed.trim())
    || c.english.startsWith(typed.trim()) || c.shown.toLowerCase().includes(typed.trim()));
  state.active = 0;
  const box = $("suggestions");
  box.replaceChildren(...state.suggestions.map((choice, index) => {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "suggestion";
    button.innerHTML = `<b></b><span class="desc"></span>`;
    button.querySelector("b").textContent = `/${choice.shown}`;
    button.querySelector(".desc").textContent = choice.description;
    button.addEventListener("click", () => setCommand(state.suggestions[index]));
    return button;
  }));
  box.hidden = state.suggestions.length === 0;
  markActive();
}

function markActive() {
  [...$("suggestions").children].forEach((child, index) => child.classList.toggle("active", index === state.active));
}

function hideSuggestions() { $("suggestions").hidden = true; }

function setCommand(choice) {
  state.command = choice;
  hideSuggestions();
  const options = $("options");
  if (!choice) { options.hidden = true; options.replaceChildren(); return; }
  $("text").value = `/${choice.shown} `;
  $("text").focus();
  const locale = state.hello.me.locale;
  options.replaceChildren(...choice.options.map((option) => optionField(option, locale)));
  options.hidden = choice.options.length === 0;
}

function optionField(option, locale) {
  const label = document.createElement("label");
  label.className = "option";
  label.title = localised(option, "description", locale);
  const name = document.createElement("span");
  name.textContent = localised(option, "name", locale);
  if (option.required) {
    const star = document.createElement("span");
    star.className = "required";
    star.textContent = " *";
    name.append(star);
  }
  let input;
  if (option.choices?.length || option.type === 5 || option.type === 6) {
    input = document.createElement("select");
    const entries = option.type === 5 ? [["true", "True"], ["false", "False"]]
      : option.type === 6 ? state.hello.members.map((m) => [m.id, m.name])
        : option.choices.map((c, index) => [String(index), localised(c, "name", locale)]);
    input.append(new Option("", ""), ...entries.map(([value, text]) => new Option(text, value)));
  } else {
    input = document.createElement("input");
    if (option.type === 4 || option.type === 10) {
      input.type = "number";
      input.step = option.type === 4 ? "1" : "any";
      if (option.min_value !== undefined) input.min = option.min_value;
      if (option.max_value !== undefined) input.max = option.max_value;
    }
  }
  input.dataset.option = option.name;
  label.append(name, input);
  return label;
}

function optionValues() {
  const values = {};
  for (const input of $("options").querySelectorAll("[data-option]")) {
    if (input.value === "") continue;
    const option = state.command.options.find((o) => o.name === input.dataset.option);
    if (option.choices?.length) values[option.name] = option.choices[Number(input.value)].value;
    else if (option.type === 4) values[option.name] = Number.parseInt(input.value, 10);
    else if (option.type === 10) values[option.name] = Number.parseFloat(input.value);
    else if (option.type === 5) values[option.name] = input.value === "true";
    else if (option.type === 6) values[option.name] = { user: input.value };
    else values[option.name] = input.value;
  }
  return values;
}

// Options typed after the command, as Discord's app takes them too:
// "/rummy start hands:1 target:200". The command is the longest one the text
// starts with; each "name:" runs to the next one.
function typedCommand(text) {
  const body = text.slice(1).toLowerCase();
  const names = (choice) => [choice.shown.toLowerCase(), choice.english];
  const starts = (choice) => names(choice).find((name) => body === name || body.startsWith(`${name} `));
  const found = commandChoices().filter(starts)
    .sort((a, b) => starts(b).length - starts(a).length)[0];
  return found ? { choice: found, rest: text.slice(1 + starts(found).length) } : null;
}

function typedValue(option, raw, locale) {
  const value = raw.trim();
  const lowered = value.toLowerCase();
  if (option.choices?.length) {
    const choice = option.choices.find((c) => localised(c, "name", locale).toLowerCase() === lowered
      || String(c.value).toLowerCase() === lowered);
    if (!choice) throw `${value} is not one of the choices for ${localised(option, "name", locale)}`;
    return choice.value;
  }
  if (option.type === 4 || option.type === 10) {
    const number = option.type === 4 ? Number.parseInt(value, 10) : Number.parseFloat(value);
    if (!/^-?[0-9]+([.][0-9]+)?$/.test(value) || Number.isNaN(number)) {
      throw `${localised(option, "name", locale)} takes a number, not ${value}`;
    }
    return number;
  }
  if (option.type === 5) {
    if (!["true", "false"].includes(lowered)) throw `${localised(option, "name", locale)} is True or False`;
    return lowered === "true";
  }
  if (option.type === 6) {
    const member = state.hello.members.find((m) => m.name.toLowerCase() === lowered.replace(/^@/, ""));
    if (!member) throw `nobody called ${value} is in the server`;
    return { user: member.id };
  }
  return value;
}

function typedOptions(choice, rest) {
  const locale = state.hello.me.locale;
  const values = {};
  const found = [...rest.matchAll(/(\S+):\s*(.*?)(?=\s+\S+:|\s*$)/g)];
  const leftover = rest.replace(/(\S+):\s*(.*?)(?=\s+\S+:|\s*$)/g, "").trim();
  if (leftover) throw `${leftover} is not an option: type name:value, as in hands:1`;
  for (const [, name, value] of found) {
    const option = choice.options.find((o) => o.name === name.toLowerCase()
      || localised(o, "name", locale).toLowerCase() === name.toLowerCase());
    if (!option) throw `/${choice.shown} has no option ${name}`;
    values[option.name] = typedValue(option, value, locale);
  }
  return values;
}

// What is wrong with a command typed whole that matches none: its first word,
// or the word after a command that has sub-commands.
function unknownCommand(text) {
  const [first, second] = text.slice(1).split(/\s+/);
  const known = commandChoices().filter((c) => c.shown.split(" ")[0].toLowerCase() === first.toLowerCase());
  if (known.length && second) {
    return `${second} is not a command of /${first}: pick one from the list.`;
  }
  return `/${first} is not a command here: pick one from the list.`;
}

async function sendCommand(text) {
  const typed = typedCommand(text);
  const choice = state.command ?? typed?.choice;
  if (!choice) return { error: unknownCommand(text) };
  const rest = state.command ? text.slice(1 + state.command.shown.length) : typed.rest;
  let options;
  try {
    options = { ...(state.command ? optionValues() : {}), ...typedOptions(choice, rest) };
  } catch (problem) {
    return { error: String(problem) };
  }
  return post("/api/command", { channel: state.channel, command: choice.english, options });
}

$("box").addEventListener("submit", async (event) => {
  event.preventDefault();
  const text = $("text").value.trim();
  let answer;
  if (state.command || text.startsWith("/")) {
    answer = await sendCommand(text);
  } else if (text) {
    answer = await post("/api/say", { channel: state.channel, text });
  } else return;
  refuse(answer.error);
  if (!answer.error) { $("text").value = ""; setCommand(null); }
});
