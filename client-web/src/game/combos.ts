// The killer player's cage helper: the digit sets of a cage's size that add up
// to its sum, and which of them the digits already in the cage still allow.

import type { CageShape } from "./geometry";

/** Every set of `count` different digits from 1..`max` adding up to `sum`, each ascending, in ascending order. */
export function digitSets(count: number, sum: number, max: number): number[][] {
  const out: number[][] = [];
  const walk = (from: number, left: number, need: number, chosen: number[]) => {
    if (need === 0) {
      if (left === 0) out.push([...chosen]);
      return;
    }
    for (let d = from; d <= max; d++) {
      // The smallest `need` digits from d on already exceed what is left.
      if (need * d + (need * (need - 1)) / 2 > left) break;
      chosen.push(d);
      walk(d + 1, left - d, need - 1, chosen);
      chosen.pop();
    }
  };
  walk(1, sum, count, []);
  return out;
}

/** One digit set of a cage and whether the digits placed in the cage still allow it. */
export interface CageSet {
  digits: number[];
  possible: boolean;
}

/** The digit sets of `cage` given `values` (0 = empty): a set is still possible when it holds every digit placed in the cage. */
export function cageSets(cage: CageShape, values: number[], max: number): CageSet[] {
  const placed = cage.cells.map((c) => values[c]).filter((v) => v !== 0);
  return digitSets(cage.cells.length, cage.sum, max).map((digits) => ({
    digits,
    possible: placed.every((v) => digits.includes(v)) && new Set(placed).size === placed.length,
  }));
}

/** The cage holding `cell`, if any. */
export function cageOf(cages: CageShape[], cell: number | undefined): CageShape | undefined {
  return cell === undefined ? undefined : cages.find((c) => c.cells.includes(cell));
}
