// Sum helpers beyond Killer's cages: a cage of a pasted or generated puzzle
// (a constraint, not a Killer cage) gets the same digit-set helper; an arrow
// or a little killer diagonal under the cursor says what its digits add up to
// so far and what is left to place.

import { readingOrder } from "./constraints";
import type { CageShape, Cell, Geometry } from "./geometry";

/** What the helper says about an arrow or a little killer diagonal. */
export interface LineSum {
  /** "Arrow 12", "Little killer 23". */
  title: string;
  /** "5 + 4 = 9 so far; 3 to go in 1 empty cell". */
  detail: string;
}

/** The cage with a total (a `cage` constraint) holding `cell`, shaped for the cage helper. */
export function constraintCageAt(g: Geometry, cell: Cell | undefined): CageShape | undefined {
  if (cell === undefined) return undefined;
  for (const k of g.constraints) {
    if (k.type !== "cage" || k.sum == null) continue;
    const cells = k.cells.map(([r, c]) => r * g.cols + c);
    if (cells.includes(cell)) return { cells, sum: k.sum, labelCell: Math.min(...cells), outline: [] };
  }
  return undefined;
}

/** The arrow or little killer through `cell`, and how far its digits are (0 = empty). */
export function lineSumAt(g: Geometry, values: number[], cell: Cell | undefined): LineSum | undefined {
  if (cell === undefined) return undefined;
  const at = ([r, c]: [number, number]) => r * g.cols + c;
  const symbol = (v: number) => g.symbols[v - 1] ?? String(v);
  for (const k of g.constraints) {
    if (k.type === "arrow") {
      const circle = readingOrder(k.circle).map(at);
      const shaft = k.line.map(at);
      if (!circle.includes(cell) && !shaft.includes(cell)) continue;
      const read = circle.map((c) => values[c]);
      const target = read.every((v) => v !== 0) ? read.reduce((n, d) => n * 10 + d, 0) : undefined;
      return {
        title: target === undefined ? "Arrow" : `Arrow ${target}`,
        detail: progress(shaft.map((c) => values[c]), target, symbol, "the circle is still empty"),
      };
    }
    if (k.type === "littleKiller") {
      const cells = k.cells.map(at);
      if (!cells.includes(cell)) continue;
      return {
        title: `Little killer ${k.sum}`,
        detail: `${progress(cells.map((c) => values[c]), k.sum, symbol)} (digits may repeat)`,
      };
    }
  }
  return undefined;
}

/** "5 + 4 = 9 so far; 3 to go in 1 empty cell", or what is known without a target. */
function progress(v: number[], target: number | undefined, symbol: (v: number) => string, noTarget = ""): string {
  const filled = v.filter((x) => x !== 0);
  const sum = filled.reduce((s, x) => s + x, 0);
  const empty = v.length - filled.length;
  const sofar = filled.length === 0 ? "nothing placed yet" : `${filled.map(symbol).join(" + ")} = ${sum} so far`;
  const cells = `${empty} empty cell${empty === 1 ? "" : "s"}`;
  if (target === undefined) return `${sofar}; ${cells}; ${noTarget}`;
  const left = target - sum;
  if (left < 0) return `${sofar}: ${-left} too many`;
  if (empty === 0) return left === 0 ? `${sofar}: complete` : `${sofar}: ${left} short`;
  return `${sofar}; ${left} to go in ${cells}`;
}
