// Broken constraints, from the rules alone (never the solution): the digits a
// player has placed that no completion could satisfy — two cells on a
// thermometer out of order, an arrow whose shaft already exceeds its circle, a
// Kropki pair that is not consecutive, … — flagged as a repeated digit in a
// house is. Each check reads only the filled cells; an empty cell counts as
// "anything still possible".

import type { Cell, Geometry } from "./geometry";

/** The filled cells of every constraint `values` (0 = empty) already break. */
export function constraintConflicts(g: Geometry, values: number[]): Set<Cell> {
  const bad = new Set<Cell>();
  const at = ([r, c]: [number, number]): Cell => r * g.cols + c;
  const flag = (cells: Cell[]) => cells.forEach((c) => values[c] !== 0 && bad.add(c));
  const marks = markedPairs(g, at);
  for (const k of g.constraints) {
    const cells = "cells" in k ? (k.cells as Array<[number, number]>).map(at) : [];
    const v = cells.map((c) => values[c]);
    switch (k.type) {
      case "even":
      case "odd":
      case "values":
        // Each cell on its own.
        cells.forEach((c, i) => {
          const ok = k.type === "even" ? v[i] % 2 === 0 : k.type === "odd" ? v[i] % 2 === 1 : k.values.includes(v[i]);
          if (v[i] !== 0 && !ok) bad.add(c);
        });
        break;
      case "thermometer":
        if (thermometerBroken(v, k.slow)) flag(cells);
        break;
      case "arrow": {
        const circle = readingOrder(k.circle).map(at);
        const shaft = k.line.map(at);
        if (arrowBroken(circle.map((c) => values[c]), shaft.map((c) => values[c]))) flag([...circle, ...shaft]);
        break;
      }
      case "difference":
        if (pairBroken(v, (a, b) => Math.abs(a - b) === k.value)) flag(cells);
        break;
      case "ratio":
        if (pairBroken(v, (a, b) => a === k.value * b || b === k.value * a)) flag(cells);
        break;
      case "xv":
        if (pairBroken(v, (a, b) => a + b === k.sum)) flag(cells);
        break;
      case "littleKiller":
        if (sumBroken(v, k.sum, 1)) flag(cells);
        break;
      case "cage":
        if (repeats(v) || (k.sum != null && sumBroken(v, k.sum, 1, true))) flag(cells);
        break;
      case "sandwich":
        if (sandwichBroken(v, k.sum, g.size)) flag(cells);
        break;
      case "renban": {
        const filled = v.filter((x) => x !== 0);
        if (repeats(v) || (filled.length > 0 && Math.max(...filled) - Math.min(...filled) > v.length - 1)) flag(cells);
        break;
      }
      case "whispers":
        if (neighboursBroken(v, (a, b) => Math.abs(a - b) >= k.difference)) flag(cells);
        break;
      case "palindrome":
        if (v.some((x, i) => x !== 0 && v[v.length - 1 - i] !== 0 && x !== v[v.length - 1 - i])) flag(cells);
        break;
      case "between":
        if (betweenBroken(v)) flag(cells);
        break;
      case "zipper":
        if (zipperBroken(v)) flag(cells);
        break;
      case "entropic": {
        const third = (x: number) => Math.floor(((x - 1) * 3) / g.size);
        const broken = v.some((x, i) =>
          [1, 2].some((d) => i + d < v.length && x !== 0 && v[i + d] !== 0 && third(x) === third(v[i + d])),
        );
        if (broken) flag(cells);
        break;
      }
      case "regionSum":
        if (regionSumBroken(g, cells, values)) flag(cells);
        break;
      case "minimum":
      case "maximum":
        for (const c of cells) {
          for (const n of orthogonal(g, c)) {
            // Compared with neighbours that are not themselves such cells (of any constraint).
            if (marks.extremes[k.type].has(n) || values[c] === 0 || values[n] === 0) continue;
            if (k.type === "minimum" ? values[c] >= values[n] : values[c] <= values[n]) flag([c, n]);
          }
        }
        break;
      case "quadruple": {
        const missing = [...k.values];
        for (const x of v) {
          const i = missing.indexOf(x);
          if (i >= 0) missing.splice(i, 1);
        }
        if (missing.length > v.filter((x) => x === 0).length) flag(cells);
        break;
      }
      case "xSum":
        if (v[0] !== 0 && v[0] <= v.length && sumBroken(v.slice(0, v[0]), k.sum, 1)) flag(cells.slice(0, v[0]));
        break;
      case "skyscraper":
        if (v.every((x) => x !== 0) && seen(v) !== k.count) flag(cells);
        break;
      case "indexer":
        for (const [r, c] of k.cells) {
          const x = values[at([r, c])];
          if (x === 0 || x > g.size) continue;
          const target = k.axis === "column" ? at([r, x - 1]) : at([x - 1, c]);
          const want = k.axis === "column" ? c + 1 : r + 1;
          if (target < values.length && values[target] !== 0 && values[target] !== want) flag([at([r, c]), target]);
        }
        break;
      case "clone":
        k.clones.map(at).forEach((clone, i) => {
          if (values[clone] !== 0 && v[i] !== 0 && values[clone] !== v[i]) flag([cells[i], clone]);
        });
        break;
      case "nonConsecutive":
        for (const [a, b] of orthogonalPairs(g)) {
          if (values[a] && values[b] && Math.abs(values[a] - values[b]) === 1 && !marks.kropki.has(key(a, b))) flag([a, b]);
        }
        break;
      case "antiKing":
      case "antiKnight": {
        const steps = k.type === "antiKing" ? [[1, 1], [1, -1]] : [[1, 2], [2, 1], [1, -2], [2, -1]];
        for (const c of g.cells) {
          const [r, col] = [Math.floor(c / g.cols), c % g.cols];
          for (const [dr, dc] of steps) {
            const [nr, nc] = [r + dr, col + dc];
            if (nr >= g.rows || nc < 0 || nc >= g.cols) continue;
            const n = nr * g.cols + nc;
            if (g.active[n] && values[c] !== 0 && values[c] === values[n]) flag([c, n]);
          }
        }
        break;
      }
      case "disjointGroups": {
        const boxes = g.houses.filter((h) => h.kind === "box").map((h) => [...h.cells].sort((a, b) => a - b));
        const size = boxes[0]?.length ?? 0;
        for (let i = 0; i < size; i++) {
          const group = boxes.filter((b) => b.length === size).map((b) => b[i]);
          const byValue = new Map<number, Cell>();
          for (const c of group) {
            const other = byValue.get(values[c]);
            if (values[c] !== 0 && other !== undefined) flag([c, other]);
            byValue.set(values[c], c);
          }
        }
        break;
      }
      case "negative":
        for (const [a, b] of orthogonalPairs(g)) {
          const [x, y] = [values[a], values[b]];
          if (!x || !y) continue;
          const ratio = k.ratio && !marks.kropki.has(key(a, b)) && marks.ratios.some((q) => x === q * y || y === q * x);
          const xv = k.xv && !marks.xv.has(key(a, b)) && (x + y === 5 || x + y === 10);
          if (ratio || xv) flag([a, b]);
        }
        break;
      case "table":
        if (!k.tuples.some((t) => t.every((x, i) => v[i] === 0 || v[i] === x))) flag(cells);
        break;
    }
  }
  return bad;
}

/** Cells in reading order (row, then column): how a pill reads as a number. */
export function readingOrder(cells: Array<[number, number]>): Array<[number, number]> {
  return [...cells].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
}

/** The pairs that carry a Kropki dot (white or black) or an X or V, the ratios black dots use, and every minimum and maximum cell. */
function markedPairs(g: Geometry, at: (rc: [number, number]) => Cell) {
  // A pair with either dot is exempt from both non-consecutive and the negative ratio rule.
  const kropki = new Set<string>();
  const xv = new Set<string>();
  const ratios = new Set<number>();
  const extremes = { minimum: new Set<Cell>(), maximum: new Set<Cell>() };
  for (const k of g.constraints) {
    if (k.type === "minimum" || k.type === "maximum") for (const rc of k.cells) extremes[k.type].add(at(rc));
    if (k.type !== "difference" && k.type !== "ratio" && k.type !== "xv") continue;
    const pair = key(at(k.cells[0]), at(k.cells[1]));
    if (k.type === "difference") kropki.add(pair);
    if (k.type === "ratio") {
      kropki.add(pair);
      ratios.add(k.value);
    }
    if (k.type === "xv") xv.add(pair);
  }
  return { kropki, xv, ratios: ratios.size > 0 ? [...ratios] : [2], extremes };
}

function key(a: Cell, b: Cell): string {
  return a < b ? `${a}:${b}` : `${b}:${a}`;
}

/** Each orthogonally neighbouring pair of active cells, once. */
function orthogonalPairs(g: Geometry): Array<[Cell, Cell]> {
  const pairs: Array<[Cell, Cell]> = [];
  for (const c of g.cells) {
    if (c % g.cols < g.cols - 1 && g.active[c + 1]) pairs.push([c, c + 1]);
    if (c + g.cols < g.rows * g.cols && g.active[c + g.cols]) pairs.push([c, c + g.cols]);
  }
  return pairs;
}

/** The active orthogonal neighbours of `c`. */
function orthogonal(g: Geometry, c: Cell): Cell[] {
  const [r, col] = [Math.floor(c / g.cols), c % g.cols];
  return [
    [r - 1, col],
    [r + 1, col],
    [r, col - 1],
    [r, col + 1],
  ]
    .filter(([nr, nc]) => nr >= 0 && nr < g.rows && nc >= 0 && nc < g.cols && g.active[nr * g.cols + nc])
    .map(([nr, nc]) => nr * g.cols + nc);
}

/** Two filled digits repeat. */
function repeats(v: number[]): boolean {
  const filled = v.filter((x) => x !== 0);
  return new Set(filled).size < filled.length;
}

/** A filled pair that `ok` rejects. */
function pairBroken(v: number[], ok: (a: number, b: number) => boolean): boolean {
  return v[0] !== 0 && v[1] !== 0 && !ok(v[0], v[1]);
}

/** Filled neighbours along a line that `ok` rejects. */
function neighboursBroken(v: number[], ok: (a: number, b: number) => boolean): boolean {
  return v.some((x, i) => i > 0 && x !== 0 && v[i - 1] !== 0 && !ok(v[i - 1], x));
}

/** Digits on a thermometer too close for the cells between them (strict), or falling (slow). */
export function thermometerBroken(v: number[], slow: boolean): boolean {
  for (let i = 0; i < v.length; i++) {
    for (let j = i + 1; j < v.length; j++) {
      if (v[i] === 0 || v[j] === 0) continue;
      if (slow ? v[j] < v[i] : v[j] - v[i] < j - i) return true;
    }
  }
  return false;
}

/**
 * A sum the filled digits already pass (with `least` for each empty cell, or
 * 1, 2, 3, … when the digits are `distinct`), or, every cell filled, miss.
 */
export function sumBroken(v: number[], sum: number, least: number, distinct = false): boolean {
  const filled = v.reduce((s, x) => s + x, 0);
  const empty = v.filter((x) => x === 0).length;
  const rest = distinct ? (empty * (empty + 1)) / 2 : empty * least;
  return filled + rest > sum || (empty === 0 && filled !== sum);
}

/** An arrow whose shaft already adds up to more than its (filled) circle, or, full, to another number. */
export function arrowBroken(circle: number[], shaft: number[]): boolean {
  if (circle.some((x) => x === 0)) return false;
  const target = circle.reduce((n, d) => n * 10 + d, 0);
  return sumBroken(shaft, target, 1);
}

/** A sandwich whose 1 and highest digit are placed and whose digits between already pass, or (all filled) miss, the clue. */
export function sandwichBroken(v: number[], sum: number, highest: number): boolean {
  const a = v.indexOf(1);
  const b = v.indexOf(highest);
  if (a < 0 || b < 0) return false;
  return sumBroken(v.slice(Math.min(a, b) + 1, Math.max(a, b)), sum, 2);
}

/** A between line whose filled middle digits are not strictly between its filled ends. */
function betweenBroken(v: number[]): boolean {
  const [first, last] = [v[0], v[v.length - 1]];
  if (first === 0 || last === 0) return false;
  const [lo, hi] = [Math.min(first, last), Math.max(first, last)];
  return v.slice(1, -1).some((x) => x !== 0 && !(x > lo && x < hi));
}

/** A zipper whose complete pairs (those the same distance from the middle) add up to different totals. */
function zipperBroken(v: number[]): boolean {
  const totals = new Set<number>();
  const half = Math.floor(v.length / 2);
  if (v.length % 2 === 1 && v[half] !== 0) totals.add(v[half]);
  for (let i = 0; i < half; i++) {
    const [a, b] = [v[i], v[v.length - 1 - i]];
    if (a !== 0 && b !== 0) totals.add(a + b);
  }
  return totals.size > 1;
}

/** A region-sum line whose complete segments (its runs through one box or region) add up to different totals. */
function regionSumBroken(g: Geometry, cells: Cell[], values: number[]): boolean {
  const regionOf = (c: Cell) => g.houses.findIndex((h) => (h.kind === "box" || h.kind === "region") && h.cells.includes(c));
  const totals = new Set<number>();
  let start = 0;
  for (let i = 1; i <= cells.length; i++) {
    if (i < cells.length && regionOf(cells[i]) === regionOf(cells[start])) continue;
    const run = cells.slice(start, i).map((c) => values[c]);
    if (run.every((x) => x !== 0)) totals.add(run.reduce((s, x) => s + x, 0));
    start = i;
  }
  return totals.size > 1;
}

/** How many digits of a full line are higher than every digit before them. */
function seen(v: number[]): number {
  let top = 0;
  let count = 0;
  for (const x of v) {
    if (x > top) {
      top = x;
      count++;
    }
  }
  return count;
}
