// Words and small controls: the server's texts as the page shows them.

function escapeHtml(text) {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export { escapeHtml };

// The server's texts are the chat's: **bold** is the only markup drawn; a
// backslash before a character only kept it from being markup in Discord.
export function richText(element, text) {
  const safe = escapeHtml(text || "").replace(/\\(.)/g, "$1");
  element.innerHTML = safe.replace(/\*\*(.+?)\*\*/g, "<b>$1</b>");
}

// A move's button; ``key``: the key that presses it too (shown beside its name).
export function moveButton(name, text, enabled, onClick, kind = "", key = "") {
  const button = document.createElement("button");
  button.type = "button";
  button.className = `move ${kind}`;
  button.dataset.move = name;
  button.textContent = text;
  if (key) {
    const hint = document.createElement("kbd");
    hint.textContent = key;
    hint.setAttribute("aria-hidden", "true");
    button.append(hint);
    button.setAttribute("aria-keyshortcuts", key);
  }
  button.disabled = !enabled;
  button.addEventListener("click", onClick);
  return button;
}
