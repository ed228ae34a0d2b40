// How many of each digit are still to place: every digit fills the same number
// of cells in a solved grid (cells / values, when that divides evenly), so the
// count on the pad needs no solution, only the board.

import type { Geometry } from "./geometry";

/** Per value (index v - 1): how many more the board needs; `undefined` when the layout gives no fixed count. */
export function remainingDigits(g: Geometry, values: number[]): Array<number | undefined> {
  const each = g.cells.length / g.size;
  const placed = new Array<number>(g.size).fill(0);
  for (const c of g.cells) if (values[c] > 0 && values[c] <= g.size) placed[values[c] - 1]++;
  return placed.map((n) => (Number.isInteger(each) ? Math.max(0, each - n) : undefined));
}
