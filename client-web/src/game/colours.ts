// Player colours: distinct within a room. A player's colour comes from their seat
// (their place in the room's player list): consecutive seats are a golden angle
// apart on the colour wheel, so every pair of the 16 possible seats differs
// clearly. Someone not seated (a spectator in chat) gets a colour from their id.

/** The golden angle, degrees: successive multiples spread evenly round the wheel. */
const GOLDEN_ANGLE = 137.508;

/** The colour of seat `index`. */
export function seatColour(index: number): string {
  return `hsl(${Math.round((210 + index * GOLDEN_ANGLE) % 360)} 70% 50%)`;
}

/** The colour of player `id` among `players` (seat order). */
export function colourIn(players: readonly { id: string }[] | undefined, id: string): string {
  const seat = players?.findIndex((p) => p.id === id) ?? -1;
  if (seat >= 0) return seatColour(seat);
  let hash = 0;
  for (const ch of id) hash = (hash * 31 + ch.charCodeAt(0)) >>> 0;
  return `hsl(${hash % 360} 70% 50%)`;
}
