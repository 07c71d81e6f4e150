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

export function moveButton(name, text, enabled, onClick, kind = "") {
  const button = document.createElement("button");
  button.type = "button";
  button.className = `move ${kind}`;
  button.dataset.move = name;
  button.textContent = text;
  button.disabled = !enabled;
  button.addEventListener("click", onClick);
  return button;
}
