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

export const $ = (id) => document.getElementById(id);

export function label(name) {
  return (app.state && app.state.labels && app.state.labels[name]) || "";
}
