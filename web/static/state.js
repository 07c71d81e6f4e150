// The page's one state object: what the server last sent, what the player has
// picked, and the connection's bookkeeping. Every module reads and writes it
// here; none keeps a copy of its own.
export const app = {
  state: null, // the latest picture of the table the server sent
  picked: new Set(), // card codes the player has picked
  seq: 0, // the last intent's number
  unanswered: null, // the intent sent and not yet answered: sent again after a reconnect
  ws: null,
  session: null,
  // What the server said of the shared link the page was launched from
  // ("here", "elsewhere"), until the page has said so; null without one.
  link: null,
  sdk: null,
  retries: 0,
  // Why the server is closing the connection, said in a frame first: Discord's
  // proxy may hand the page a bare 1005 or 1006 instead of the code.
  closing: null,
  participants: [], // who has the Activity open, as Discord says
  // Set by the connection: sends an intent to the server.
  send: (_op, _extra) => {},
  // Set by the drawing: draws a picture of the table.
  render: (_state) => {},
  // Set by the lobby: shows the house rules of a new game over a finished one.
  showNewGame: () => {},
};

import { WORDS } from "./@asset(protocol.js)";

export const $ = (id) => document.getElementById(id);

// The language of the page's words before the server has said which: the
// browser's, where the catalogues have it.
function language() {
  if (app.state && app.state.language) return app.state.language;
  for (const tag of navigator.languages || [navigator.language]) {
    const code = String(tag || "").replace("-", "_");
    if (WORDS[code]) return code;
    if (WORDS[code.split("_")[0]]) return code.split("_")[0];
  }
  return "en";
}

// One of the page's words, in the player's language: the state's labels, else
// (signing in, a connection closed before the first state) the protocol's own.
export function label(name) {
  const said = app.state && app.state.labels && app.state.labels[name];
  return said || (WORDS[language()] || WORDS.en)[name] || "";
}
