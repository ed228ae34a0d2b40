// Player colours: distinct within a room. A player's colour comes from their seat
// (their place in the room's player list): consecutive seats are a golden angle
// apart on the colour wheel, so every pair of the 16 possible seats differs
// clearly. Someone not seated (a spectator in chat) gets a colour from their id.

/** The golden angle, degrees: successive multiples spread evenly round the wheel. */
const GOLDEN_ANGLE = 137.508;

/**
 * Okabe and Ito's colours (yellow left out: it vanishes on white): told apart
 * with each common colour-vision deficiency. Past seven seats they repeat, and
 * the initials on co-op digits (and the names by every bar and dot) tell.
 */
export const SAFE_COLOURS = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#D55E00", "#56B4E9", "#8C8C8C"];

/** Whether player colours come from {@link SAFE_COLOURS} (the player's choice). */
let safe = false;

/** Chooses the colour-blind-safe colours (or the wheel again). */
export function useSafeColours(on: boolean) {
  safe = on;
}

/** Whether the colour-blind-safe colours are in use. */
export function safeColours(): boolean {
  return safe;
}

/** The colour of seat `index`. */
export function seatColour(index: number): string {
  if (safe) return SAFE_COLOURS[index % SAFE_COLOURS.length];
  return `hsl(${Math.round((210 + index * GOLDEN_ANGLE) % 360)} 70% 50%)`;
}

/** The colour of player `id` among `players` (seat order). */
export function colourIn(players: readonly { id: string }[] | undefined, id: string): string {
  const seat = players?.findIndex((p) => p.id === id) ?? -1;
  if (seat >= 0) return seatColour(seat);
  let hash = 0;
  for (const ch of id) hash = (hash * 31 + ch.charCodeAt(0)) >>> 0;
  if (safe) return SAFE_COLOURS[hash % SAFE_COLOURS.length];
  return `hsl(${hash % 360} 70% 50%)`;
}

/**
 * Each player's initials, for marks that must not rely on colour alone: the
 * first letter of the name, or its first two when another player's starts
 * the same way.
 */
export function initialsIn(players: readonly { id: string; name: string }[]): Map<string, string> {
  const first = (name: string, n: number) => Array.from(name.trim()).slice(0, n).join("").toUpperCase() || "?";
  const out = new Map<string, string>();
  for (const p of players) {
    const shared = players.some((q) => q.id !== p.id && first(q.name, 1) === first(p.name, 1));
    out.set(p.id, first(p.name, shared ? 2 : 1));
  }
  return out;
}
