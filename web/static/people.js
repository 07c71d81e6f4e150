// The people at the table, as Discord shows them: a face (their avatar from
// Discord's CDN, their initial on their seat's colour for a member with none of
// their own, a robot for a computer) and a name. A face that cannot be loaded
// shows the initial instead.
import { app } from "./@asset(state.js)";

const CDN = "https://cdn.discordapp.com";

// What Discord tells the page of a member in the Activity, by their id.
export function participant(userId) {
  return app.participants.find((person) => person.id === userId) || null;
}

export function shownName(person) {
  return person.nickname || person.global_name || person.username || "";
}

// A member's own avatar on Discord's CDN; none for a member with Discord's
// default one, whose face is their initial on their seat's colour here.
function avatarUrl(userId) {
  const person = participant(userId);
  return person && person.avatar ? `${CDN}/avatars/${userId}/${person.avatar}.png?size=64` : null;
}

export function avatar({ user, name, colour, computer }) {
  const face = document.createElement("span");
  face.className = "avatar";
  face.setAttribute("aria-hidden", "true");
  if (colour) face.style.setProperty("--seat", colour);
  face.textContent = computer ? "🤖" : (name || "?").trim().charAt(0).toUpperCase();
  const url = !computer && user ? avatarUrl(user) : null;
  if (url) {
    const img = document.createElement("img");
    img.alt = "";
    img.src = url;
    img.decoding = "async";
    img.addEventListener("error", () => img.remove());
    face.append(img);
  }
  return face;
}

// A seat as a chip: its player's face and name, in the seat's colour, lit on
// its turn. The table adds the total, the clock and the fan of backs.
export function seatChip(seat) {
  const chip = document.createElement("div");
  chip.className = `seat${seat.turn ? " turn" : ""}${seat.you ? " you" : ""}`;
  chip.dataset.key = seat.key;
  chip.style.setProperty("--seat", seat.colour);
  const name = document.createElement("span");
  name.className = "name";
  // A computer's level too, as the chat shows it ("Ada (hard)").
  name.textContent = seat.named || seat.name;
  chip.append(avatar({ user: seat.user, name: seat.name, colour: seat.colour, computer: seat.computer }),
    name);
  return chip;
}
