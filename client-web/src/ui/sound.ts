// Short tones for race events, made with Web Audio (no sound files): off unless
// the player turns them on.

import type { Cue } from "../game/session";

/** Pitch (Hz) and length (ms) of each cue's tones. */
const TONES: Record<Cue, Array<[number, number]>> = {
  tick: [[660, 90]],
  go: [[990, 220]],
  finish: [[520, 120], [390, 160]],
  win: [[523, 110], [659, 110], [784, 220]],
};

/** Plays cues when enabled; the audio context is made on first use (after a user gesture). */
export class Sounds {
  enabled = false;
  private context?: AudioContext;

  /** Plays `cue` (nothing when sound is off or the browser has no Web Audio). */
  play(cue: Cue) {
    if (!this.enabled || typeof AudioContext === "undefined") return;
    this.context ??= new AudioContext();
    const ctx = this.context;
    let at = ctx.currentTime;
    for (const [hz, ms] of TONES[cue]) {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.frequency.value = hz;
      gain.gain.setValueAtTime(0.15, at);
      gain.gain.exponentialRampToValueAtTime(0.001, at + ms / 1000);
      osc.connect(gain).connect(ctx.destination);
      osc.start(at);
      osc.stop(at + ms / 1000);
      at += ms / 1000;
    }
  }
}
