// Short sounds for the player's turn, a deal and a win, made on the spot (no
// file to load). Off until the player turns them on with the bar's button;
// the choice is kept for their next visit where the browser allows.
import { $, label } from "./@asset(state.js)";

const KEY = "rummy-sounds";
let on = false;
let audio = null;

try {
  on = localStorage.getItem(KEY) === "on";
} catch {
  on = false; // a frame without storage: off, as always at first
}

const TUNES = {
  turn: [[660, 0, 0.12]],
  deal: [[440, 0, 0.06], [520, 0.07, 0.06], [600, 0.14, 0.08]],
  win: [[523, 0, 0.14], [659, 0.15, 0.14], [784, 0.3, 0.14], [1047, 0.45, 0.3]],
};

export function play(tune) {
  if (!on || !TUNES[tune]) return;
  audio = audio || new AudioContext();
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
  $("sound").addEventListener("click", () => {
    on = !on;
    try {
      localStorage.setItem(KEY, on ? "on" : "off");
    } catch {
      // kept for this visit only
    }
    drawSoundButton();
    play("turn");
  });
}
