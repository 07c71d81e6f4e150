// Short sounds for the player's turn, a deal, a win and a reaction, made on the
// spot (no file to load). On unless the player turned them off with the bar's
// button (the choice is kept for their next visit where the browser allows).
// A browser lets a page play nothing until it is touched, clicked or typed on:
// the sound starts with the first such gesture, and until then stays silent.
import { $, label } from "./@asset(state.js)";

const KEY = "rummy-sounds";
let on = true;
let audio = null;

try {
  on = localStorage.getItem(KEY) !== "off";
} catch {
  on = true; // a frame without storage: on, as for everyone at first
}

const TUNES = {
  turn: [[660, 0, 0.12], [880, 0.13, 0.14]],
  deal: [[440, 0, 0.06], [520, 0.07, 0.06], [600, 0.14, 0.08]],
  win: [[523, 0, 0.14], [659, 0.15, 0.14], [784, 0.3, 0.14], [1047, 0.45, 0.3]],
  pop: [[990, 0, 0.05]],
};

// Within a gesture: the one moment a browser lets the page's audio start.
function wake() {
  if (!on) return;
  try {
    audio = audio || new AudioContext();
    if (audio.state === "suspended") audio.resume();
  } catch {
    audio = null; // no audio here: the table stays silent
  }
}

export function play(tune) {
  if (!on || !TUNES[tune] || !audio || audio.state !== "running") return;
  const now = audio.currentTime;
  for (const [frequency, start, length] of TUNES[tune]) {
    const tone = audio.createOscillator();
    const loud = audio.createGain();
    tone.type = "triangle";
    tone.frequency.value = frequency;
    loud.gain.setValueAtTime(0.18, now + start);
    loud.gain.exponentialRampToValueAtTime(0.001, now + start + length);
    tone.connect(loud).connect(audio.destination);
    tone.start(now + start);
    tone.stop(now + start + length + 0.02);
  }
}

export function drawSoundButton() {
  const button = $("sound");
  button.textContent = on ? "🔊" : "🔇";
  button.setAttribute("aria-pressed", String(on));
  const named = on ? label("sound_on") : label("sound_off");
  button.setAttribute("aria-label", named || "Sounds");
  button.title = named;
}

export function watchSoundButton() {
  for (const gesture of ["pointerdown", "keydown"]) {
    window.addEventListener(gesture, wake, { capture: true, passive: true });
  }
  $("sound").addEventListener("click", () => {
    on = !on;
    try {
      localStorage.setItem(KEY, on ? "on" : "off");
    } catch {
      // kept for this visit only
    }
    wake();
    drawSoundButton();
    play("turn");
  });
}
