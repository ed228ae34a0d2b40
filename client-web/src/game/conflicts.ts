// Rule conflicts, from the rules alone (never the solution): repeated values in a
// house or cage, a cage whose digits already exceed or miss its sum, the two
// cells of a different-pair holding the same value, and the digits of a broken
// constraint (constraints.ts).

import { constraintConflicts, sumBroken } from "./constraints";
import type { CageShape, Cell, Geometry } from "./geometry";

/** The cells that break a rule on `values` (0 = empty, one entry per layout cell). */
export function conflicts(g: Geometry, values: number[]): Set<Cell> {
  const bad = new Set<Cell>();
  for (const group of g.groups) markRepeats(group, values, bad);
  for (const cage of g.cages) {
    if (cageBroken(cage, values)) for (const c of cage.cells) if (values[c] !== 0) bad.add(c);
  }
  for (const [a, b] of g.different) {
    if (values[a] !== 0 && values[a] === values[b]) {
      bad.add(a);
      bad.add(b);
    }
  }
  for (const c of constraintConflicts(g, values)) bad.add(c);
  return bad;
}

/** Whether the digits in `cage` already exceed its sum (with the least the empty cells could add) or, the cage full, miss it. */
export function cageBroken(cage: CageShape, values: number[]): boolean {
  return sumBroken(cage.cells.map((c) => values[c]), cage.sum, 1, true);
}

function markRepeats(group: Cell[], values: number[], bad: Set<Cell>) {
  const seen = new Map<number, Cell>();
  for (const c of group) {
    const v = values[c];
    if (v === 0) continue;
    const first = seen.get(v);
    if (first === undefined) {
      seen.set(v, c);
    } else {
      bad.add(first);
      bad.add(c);
    }
  }
}

/** The cells that see `cell`: every other cell of its houses and cages, and its pair partners. */
export function peersOf(g: Geometry, cell: Cell): Set<Cell> {
  const peers = new Set<Cell>();
  for (const i of g.groupsOf[cell]) for (const c of g.groups[i]) peers.add(c);
  for (const c of g.partners[cell]) peers.add(c);
  peers.delete(cell);
  return peers;
}
