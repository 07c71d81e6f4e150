// The page of local play: draws what one member sees and sends what they do,
// as Discord's app would. Messages arrive drawn (one element each) over a
// WebSocket; this script places them, keeps their times live, and turns
// clicks, choices and the message box into the stand-in's interactions.
"use strict";

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const as = (params.get("as") || "ann").toLowerCase();
const state = {
  hello: null,
  channel: params.get("channel"),
  // The channel the address asked for, until the first hello says whether this
  // member may open it (a conversation of others is refused, in words).
  asked: params.get("channel"),
  logs: new Map(),        // channel id -> its element in #log
  unread: new Set(),
  dismissed: new Set(),   // ephemeral messages the person dismissed
  resetting: false,
  command: null,          // the slash command being filled in
  suggestions: [],
  active: 0,
};

// As in Discord's app, the newest message stays in sight while the messages
// grow under the reader (an image drawn once it loads, a message edited
// longer), unless they scrolled up to read: a page opened on a phone otherwise
// stayed where the first, imageless layout put it, at the oldest message.
let pinned = true;
$("log").addEventListener("scroll", () => { pinned = nearBottom(); }, { passive: true });
const grows = new ResizeObserver(() => toBottom(pinned));

// -- talking to the stand-in -----------------------------------------------------------
async function post(path, body) {
  const response = await fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ as, ...body }),
  });
  const text = await response.text();
  let data;
  try { data = JSON.parse(text); } catch { data = { error: text }; }
  if (!response.ok && !data.error) data.error = `${response.status} ${response.statusText}`;
  return data;
}

function connect() {
  const socket = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws?as=${encodeURIComponent(as)}`);
  socket.onopen = () => { $("offline").hidden = true; state.resetting = false; };
  socket.onmessage = (event) => receive(JSON.parse(event.data));
  socket.onclose = () => {
    if (!state.resetting) $("offline").textContent = "Reconnecting to the bot…";
    $("offline").hidden = false;
    setTimeout(connect, 1000);
  };
}

function receive(event) {
  if (event.type === "hello") hello(event);
  else if (event.type === "message") place(event);
  else if (event.type === "delete") document.querySelector(`#log .msg[data-message-id="${event.id}"]`)?.remove();
  else if (event.type === "problems") problems(event.items);
  else if (event.type === "activity") openActivity(event.url);
  else if (event.type === "reset") {
    // The old server closes this connection once it stops; the next one is
    // the fresh server's, whose first word clears the page.
    state.resetting = true;
    $("offline").textContent = "Starting afresh…";
    $("offline").hidden = false;
  }
}

// -- the Activity ------------------------------------------------------------------------
// Open table launched the bot's Activity for this member: Discord shows it over
// the channel until it is closed (closing leaves the instance).
function openActivity(launched) {
  // Discord's phone apps launch an Activity with platform=mobile among its
  // launch parameters (the SDK's PlatformTypes), its desktop and web apps with
  // desktop: a touch screen here stands for a phone.
  const phone = matchMedia("(pointer: coarse)").matches;
  const extra = new URLSearchParams();
  if (phone) extra.set("platform", "mobile");
  // ?sandbox=opaque frames it as Discord's iOS app is reported to: with an opaque origin.
  if (params.get("sandbox") === "opaque") extra.set("sandbox", "opaque");
  const url = extra.size ? `${launched}${launched.includes("?") ? "&" : "?"}${extra}` : launched;
  const frame = $("activity-frame");
  if (frame.dataset.url !== url) {
    frame.dataset.url = url;
    frame.src = url;
  }
  $("activity").hidden = false;
  // The Activity takes the keyboard, as Discord's app gives it when it opens.
  frame.focus();
}

// The App Launcher: Discord's app opens the Activity in this channel itself,
// with no interaction for the bot; the launch reaches this page like any other.
async function launch() {
  const answer = await post("/api/activity/launch", { channel: state.channel });
  if (answer.error) refuse(answer.error);
}

function closeActivity() {
  const frame = $("activity-frame");
  frame.src = "about:blank";
  frame.dataset.url = "";
  $("activity").hidden = true;
  inPip(false);
}

// Back to the chat with the Activity running in a small window, and back to it:
// Discord's app tells the Activity its layout mode each time.
function inPip(pip) {
  $("activity").classList.toggle("pip", pip);
  // In the small window the same button brings the Activity back, and says so
  // (a label that changes, so no aria-pressed: that would read "pressed, Back to ...").
  $("activity-pip").setAttribute("aria-label", pip ? "Back to the Activity, full size"
    : "Back to the chat, the Activity in a small window");
  $("activity-pip").title = $("activity-pip").getAttribute("aria-label");
  $("activity-pip").textContent = pip ? "⤢" : "▭";
  $("activity-frame").contentWindow?.setLayoutMode?.(pip ? 1 : 0);
}

// -- who, where, what to type ----------------------------------------------------------
function hello(event) {
  state.hello = event;
  document.documentElement.lang = event.me.locale.split("-")[0];
  $("server-name").textContent = event.server.name;
  fill($("as"), event.members.map((m) => [m.key, m.name]), event.me.key);
  fill($("my-locale"), Object.entries(event.locales), event.me.locale);
  fill($("server-locale"), Object.entries(event.locales), event.server.locale);
  const text = event.channels.filter((c) => !conversation(c));
  // Discord's app lists DMs and group DMs apart from the server, each by who
  // else is in it (or a group DM's name): the bot's DM among them.
  const dms = event.channels.filter(conversation);
  list($("channels"), text, (c) => `${c.kind === "voice" ? "🔊" : "#"} ${c.name}`);
  list($("dms"), dms, (c) => `${c.kind === "group" ? "👥" : "@"} ${c.name}`);
  if (event.fresh) {
    // A new connection sends every message again: start from an empty log.
    $("log").replaceChildren();
    state.logs.clear();
  }
  for (const channel of event.channels) logOf(channel.id);
  const refused = state.asked !== null && !event.channels.some((c) => c.id === state.asked);
  state.asked = null;
  if (!event.channels.some((c) => c.id === state.channel)) state.channel = text[0]?.id ?? event.channels[0].id;
  show(state.channel);
  // A conversation of others is never opened: the page says so, rather than
  // showing another place as if it were the one asked for.
  if (refused) refuse(`${event.me.name} is not in that conversation: only its members can see it.`);
  problems(event.problems);
}

function conversation(channel) {
  return channel.kind === "dm" || channel.kind === "group";
}

function fill(select, entries, chosen) {
  select.replaceChildren(...entries.map(([value, label]) => new Option(label, value, false, value === chosen)));
}

function list(element, channels, label) {
  element.replaceChildren(...channels.map((channel) => {
    const item = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = label(channel);
    button.dataset.channel = channel.id;
    button.addEventListener("click", () => {
      // What was refused was refused where the person was: it does not follow them.
      refuse(null);
      show(channel.id);
      $("side").classList.remove("open");
    });
    item.append(button);
    return item;
  }));
}

function logOf(channelId) {
  let log = state.logs.get(channelId);
  if (!log) {
    log = document.createElement("div");
    log.className = "channel-log";
    log.dataset.channel = channelId;
    log.hidden = true;
    $("log").append(log);
    state.logs.set(channelId, log);
    grows.observe(log);
  }
  return log;
}

function show(channelId) {
  state.channel = channelId;
  state.unread.delete(channelId);
  logOf(channelId);
  for (const [id, log] of state.logs) log.hidden = id !== channelId;
  const channel = state.hello.channels.find((c) => c.id === channelId);
  sayWhatToType(channel);
  const name = `${{ dm: "@", voice: "🔊 ", group: "" }[channel.kind] ?? "#"}${channel.name}`;
  $("where").textContent = name;
  // Where the member's app offers the Entry Point: a server's channels, and
  // DMs and group DMs between people (not the bot's own DM).
  $("launch").hidden = !channel.launcher;
  document.title = `${name} · ${conversation(channel) ? "Direct messages" : state.hello.server.name}`;
  $("text").placeholder = `Message ${{ dm: "@", group: "" }[channel.kind] ?? "#"}${channel.name}`;
  for (const button of document.querySelectorAll("#side li button")) {
    button.setAttribute("aria-current", String(button.dataset.channel === channelId));
    button.classList.toggle("unread", state.unread.has(button.dataset.channel));
  }
  toBottom(true);
}

// -- messages --------------------------------------------------------------------------
function place(event) {
  if (state.dismissed.has(event.id)) return;
  const template = document.createElement("template");
  template.innerHTML = event.html.trim();
  const element = template.content.firstElementChild;
  const log = logOf(event.channel);
  const old = log.querySelector(`.msg[data-message-id="${event.id}"]`);
  if (old) {
    const kept = focusIn(old);
    old.replaceWith(element);
    if (kept) refocus(element, kept);
  } else {
    const id = BigInt(event.id);
    const later = [...log.children].find((m) => BigInt(m.dataset.messageId) > id);
    log.insertBefore(element, later ?? null);
    if (event.channel !== state.channel) {
      state.unread.add(event.channel);
      document.querySelector(`#side button[data-channel="${event.channel}"]`)?.classList.add("unread");
    }
  }
  liveTimes(element);
  if (event.channel === state.channel) {
    $("empty").hidden = true;
    toBottom(pinned);
  }
}

// An edited message keeps the keyboard where it was: on the same control (by
// its custom id, else its label, else its place), as Discord's app keeps it.
function focusIn(message) {
  const had = document.activeElement;
  if (!had || !message.contains(had)) return null;
  const controls = [...message.querySelectorAll(".btn, .select")];
  return { id: had.dataset?.customId, text: had.textContent, index: controls.indexOf(had) };
}

function refocus(message, kept) {
  const controls = [...message.querySelectorAll(".btn, .select")];
  const again = controls.find((c) => kept.id && c.dataset.customId === kept.id)
    ?? controls.find((c) => c.textContent === kept.text)
    ?? controls[Math.max(0, Math.min(kept.index, controls.length - 1))];
  again?.focus({ preventScroll: true });
}

// A channel with no message yet says how to begin: a newcomer sees an empty
// chat and a text box otherwise.
function sayWhatToType(channel) {
  const empty = logOf(channel.id).children.length === 0;
  $("empty").hidden = !empty;
  const launcher = channel.launcher ? "🚀 above opens the table as an Activity instead." : "";
  if (!conversation(channel)) {
    $("empty").textContent = "Nothing here yet. Type /rummy start and press Enter twice to open a "
      + `game in this channel, then Add computer to play alone, or Join with the others. ${launcher}`;
  } else if (channel.bot) {
    $("empty").textContent = "Nothing yet: the bot's messages to you (your hand's deal, results) come here.";
  } else {
    // The bot is no member here: the game is played in the Activity alone.
    $("empty").textContent = "Nothing here yet. The bot is not in this conversation, so a game "
      + "here is played in the Activity: 🚀 above opens it, or type /rummy start and press "
      + "Enter twice for a Play button everyone here can press.";
  }
}

function nearBottom() {
  const log = $("log");
  return log.scrollHeight - log.scrollTop - log.clientHeight < 80;
}

function toBottom(wanted) {
  if (wanted) $("log").scrollTop = $("log").scrollHeight;
}

function problems(items) {
  $("dev-count").textContent = items.length ? String(items.length) : "";
  $("problems").replaceChildren(...items.map((text) => {
    const item = document.createElement("li");
    item.textContent = text;
    return item;
  }));
}

// Discord draws <t:...> in each reader's own language and keeps "in 2 minutes" current.
function liveTimes(root) {
  const locale = state.hello?.me.locale ?? "en-US";
  for (const time of root.querySelectorAll("time.ts[data-unix]")) {
    const when = new Date(Number(time.dataset.unix) * 1000);
    time.textContent = formatTime(when, time.dataset.style || "f", locale);
    time.title = when.toLocaleString(locale, { dateStyle: "full", timeStyle: "short" });
  }
}

function formatTime(when, style, locale) {
  if (style === "R") {
    const seconds = Math.round((when.getTime() - Date.now()) / 1000);
    const units = [["year", 31536000], ["month", 2592000], ["day", 86400], ["hour", 3600], ["minute", 60], ["second", 1]];
    const [unit, size] = units.find(([, s]) => Math.abs(seconds) >= s) ?? ["second", 1];
    return new Intl.RelativeTimeFormat(locale, { numeric: "auto" }).format(Math.round(seconds / size), unit);
  }
  const styles = {
    t: { timeStyle: "short" }, T: { timeStyle: "medium" }, d: { dateStyle: "short" },
    D: { dateStyle: "long" }, f: { dateStyle: "long", timeStyle: "short" },
    F: { dateStyle: "full", timeStyle: "short" },
  };
  return when.toLocaleString(locale, styles[style] ?? styles.f);
}

setInterval(() => liveTimes($("log")), 1000);

// -- clicks and choices ----------------------------------------------------------------
$("log").addEventListener("click", async (event) => {
  const message = event.target.closest(".msg");
  if (message && event.target.closest(".dismiss")) {
    // As in Discord's app: gone from this page for good, edits included.
    state.dismissed.add(message.dataset.messageId);
    message.remove();
    return;
  }
  const button = event.target.closest(".btn");
  if (message && button) {
    if (button.classList.contains("disabled") || button.classList.contains("pending")) return;
    if (button.classList.contains("link")) {
      if (button.dataset.url) window.open(button.dataset.url, "_blank", "noopener");
      return;
    }
    button.classList.add("pending");
    const answer = await post("/api/click", { message: message.dataset.messageId, custom_id: button.dataset.customId });
    button.classList.remove("pending");
    refuse(answer.error);
    return;
  }
  const select = event.target.closest(".select");
  if (message && select && !select.classList.contains("disabled")) openMenu(select, message);
});

// A menu opened from the keyboard: Enter or Space on it, as on a button.
$("log").addEventListener("keydown", (event) => {
  const select = event.target.closest(".select");
  const message = event.target.closest(".msg");
  if (!select || !message || (event.key !== "Enter" && event.key !== " ")) return;
  event.preventDefault();
  if (!select.classList.contains("disabled")) openMenu(select, message);
});

function openMenu(select, message) {
  const menu = $("menu-popup");
  const most = Number(select.dataset.maxValues || 1);
  const picked = new Set();
  const options = [...select.querySelectorAll(".select-options .select-option")].map((source) => {
    const option = source.cloneNode(true);
    // Each choice a tab stop, taken with Enter or Space; Escape closes the menu.
    option.tabIndex = 0;
    option.setAttribute("role", "option");
    option.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        option.click();
      } else if (event.key === "Escape") {
        closeMenu();
        select.focus();
      }
    });
    option.addEventListener("click", async (event) => {
      event.stopPropagation();
      if (most > 1) {
        option.classList.toggle("default");
        if (picked.has(option.dataset.value)) picked.delete(option.dataset.value);
        else picked.add(option.dataset.value);
        return;
      }
      await choose([option.dataset.value]);
    });
    return option;
  });
  async function choose(values) {
    closeMenu();
    const answer = await post("/api/select", { message: message.dataset.messageId, custom_id: select.dataset.customId, values });
    refuse(answer.error);
  }
  if (most > 1) {
    const done = document.createElement("div");
    done.className = "select-option";
    done.textContent = "✔";
    done.addEventListener("click", (event) => { event.stopPropagation(); choose([...picked]); });
    done.tabIndex = 0;
    done.setAttribute("role", "option");
    done.setAttribute("aria-label", "Done");
    done.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        done.click();
      }
    });
    options.push(done);
  }
  menu.replaceChildren(...options);
  const box = select.getBoundingClientRect();
  menu.style.left = `${Math.max(4, box.left)}px`;
  menu.style.width = `${Math.min(box.width, window.innerWidth - 8)}px`;
  const below = window.innerHeight - box.bottom;
  if (below > 200 || below > box.top) { menu.style.top = `${box.bottom + 4}px`; menu.style.bottom = ""; }
  else { menu.style.bottom = `${window.innerHeight - box.top + 4}px`; menu.style.top = ""; }
  menu.hidden = false;
  if (select.contains(document.activeElement) || document.activeElement === select) {
    options[0]?.focus();
  }
}

function closeMenu() { $("menu-popup").hidden = true; }
document.addEventListener("click", (event) => {
  if (!event.target.closest(".select") && !event.target.closest("#menu-popup")) closeMenu();
});

function refuse(error) {
  $("refusal").hidden = !error;
  $("refusal").textContent = error || "";
}

// -- the side bar ----------------------------------------------------------------------
$("as").addEventListener("change", () => {
  const next = new URLSearchParams(location.search);
  next.set("as", $("as").value);
  location.search = next.toString();
});
$("my-locale").addEventListener("change", async () => refuse((await post("/api/locale", { locale: $("my-locale").value })).error));
$("server-locale").addEventListener("change", async () => refuse((await post("/api/locale", { locale: $("server-locale").value, server: true })).error));
$("reset").addEventListener("click", async () => {
  if (!confirm("Start afresh? Every game, score and message of this local session is wiped.")) return;
  refuse((await post("/api/reset", {})).error);
});
$("dev-toggle").addEventListener("click", () => { $("dev").hidden = !$("dev").hidden; });
$("activity-close").addEventListener("click", closeActivity);
$("activity-pip").addEventListener("click", () => inPip(!$("activity").classList.contains("pip")));
$("launch").addEventListener("click", launch);
$("menu").addEventListener("click", () => $("side").classList.toggle("open"));

connect();
