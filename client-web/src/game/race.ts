// A race as it runs: each racer's live place (finishers by time, then the others
// by cells filled) and what to announce when someone finishes.

import type { PlayerView } from "../protocol";

/** Each racer's place now, by id (1 = leading); racers who left or are out of lives have none. */
export function livePlaces(players: readonly PlayerView[]): Map<string, number> {
  const racing = players.filter((p) => !p.left && !p.out);
  const key = (p: PlayerView): [number, number] => (p.finished_ms !== null ? [0, p.finished_ms] : [1, -p.filled]);
  const sorted = [...racing].sort((a, b) => {
    const [ka, kb] = [key(a), key(b)];
    return ka[0] - kb[0] || ka[1] - kb[1];
  });
  const places = new Map<string, number>();
  sorted.forEach((p, i) => {
    const prev = sorted[i - 1];
    const tied = prev && key(prev)[0] === key(p)[0] && key(prev)[1] === key(p)[1];
    places.set(p.id, tied ? (places.get(prev.id) ?? i + 1) : i + 1);
  });
  return places;
}

/** "1st", "2nd", "3rd", "4th"… */
export function ordinal(n: number): string {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? "th" : ["th", "st", "nd", "rd"][n % 10] ?? "th";
  return `${n}${suffix}`;
}
