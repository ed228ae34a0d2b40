// Puzzle geometries the bundled plugins do not offer yet — Killer (from the shared
// krazydad dataset), Jigsaw and Samurai — so the board is tested on them before
// their plugins exist. Used by unit tests and the e2e fixture screenshots.

import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { House, PuzzleV1 } from "../src/protocol";
import { plainPaint } from "../src/game/render";

type RC = [number, number];

/** The shared datasets directory: $ARENA_DATASETS, else `shared/datasets` beside an ancestor. */
export function datasetsDir(): string {
  if (process.env.ARENA_DATASETS) return process.env.ARENA_DATASETS;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, "shared", "datasets");
    if (existsSync(candidate)) return candidate;
    const parent = resolve(dir, "..");
    if (parent === dir) throw new Error("shared/datasets not found; set ARENA_DATASETS");
    dir = parent;
  }
}

/** Rows, columns and 3x3 boxes of a 9x9 grid whose top-left corner is (r0, c0). */
function classicHouses(r0: number, c0: number, boxes = true): House[] {
  const houses: House[] = [];
  for (let i = 0; i < 9; i++) {
    houses.push({ kind: "row", cells: Array.from({ length: 9 }, (_, j) => [r0 + i, c0 + j] as RC) });
    houses.push({ kind: "column", cells: Array.from({ length: 9 }, (_, j) => [r0 + j, c0 + i] as RC) });
    if (boxes) {
      const [br, bc] = [r0 + 3 * Math.floor(i / 3), c0 + 3 * (i % 3)];
      houses.push({ kind: "box", cells: Array.from({ length: 9 }, (_, j) => [br + Math.floor(j / 3), bc + (j % 3)] as RC) });
    }
  }
  return houses;
}

/** A classic n x n puzzle with br x bc boxes and no givens. */
export function classic(br: number, bc: number): PuzzleV1 {
  const n = br * bc;
  const range = (k: number) => Array.from({ length: k }, (_, i) => i);
  const houses = range(n).flatMap((i) => [
    { kind: "row" as const, cells: range(n).map((j) => [i, j] as [number, number]) },
    { kind: "column" as const, cells: range(n).map((j) => [j, i] as [number, number]) },
    {
      kind: "box" as const,
      cells: range(n).map((j) => [br * Math.floor(i / br) + Math.floor(j / bc), bc * (i % br) + (j % bc)] as [number, number]),
    },
  ]);
  return { format: "sudoku-arena/puzzle@1", size: n, layout: { rows: n, cols: n }, houses, grid: range(n).map(() => range(n).map(() => 0)) };
}

const empty = (rows: number, cols: number) => Array.from({ length: rows }, () => new Array<number>(cols).fill(0));

/** The first puzzle of the killer CSV, with its cages, and its shipped solution. */
export function killerFixture(): { puzzle: PuzzleV1; solution: number[][] } {
  const csv = readFileSync(join(datasetsDir(), "killer", "krazydad-intermediate.csv"), "utf8");
  const line = csv.split("\n")[1];
  // ptitle,vol,book,puzzle,puzz_color,"puzz_hint",solved,"sOrder"
  const m = /^[^,]*,[^,]*,[^,]*,[^,]*,[^,]*,K([A-Za-z]{81}),"([0-9,]+)",([1-9]{81}),/.exec(line);
  if (!m) throw new Error("the first killer CSV row does not parse");
  const [, colours, hints, solved] = m;
  const letters = [...new Set(colours)].sort((a, b) => {
    const upper = (ch: string) => ch === ch.toUpperCase();
    return upper(a) === upper(b) ? a.localeCompare(b) : upper(a) ? -1 : 1;
  });
  const sums = hints.split(",").map(Number);
  if (sums.length !== letters.length) throw new Error("cage sums and cages disagree");
  const cages = letters.map((letter, i) => ({
    sum: sums[i],
    cells: [...colours].flatMap((ch, k) => (ch === letter ? [[Math.floor(k / 9), k % 9] as RC] : [])),
  }));
  const solution = Array.from({ length: 9 }, (_, r) => [...solved.slice(9 * r, 9 * r + 9)].map(Number));
  return {
    puzzle: {
      format: "sudoku-arena/puzzle@1",
      variant: "killer",
      size: 9,
      layout: { rows: 9, cols: 9 },
      houses: classicHouses(0, 0),
      cages,
      grid: empty(9, 9),
    },
    solution,
  };
}

/** Nine irregular regions of nine connected cells each. */
export const JIGSAW_REGIONS =
  "AAABBBBCCAAABBBCCCADAEBBCFCDDAEECCFFDDDEEEFFFDDGGEEIFFGDGHHEIFIGGGHHHIIIGGHHHHIII";

/** A 9x9 Jigsaw: rows, columns and the irregular regions above. */
export function jigsawFixture(): PuzzleV1 {
  const houses = classicHouses(0, 0, false);
  for (const letter of new Set(JIGSAW_REGIONS)) {
    houses.push({
      kind: "region",
      cells: [...JIGSAW_REGIONS].flatMap((ch, k) => (ch === letter ? [[Math.floor(k / 9), k % 9] as RC] : [])),
    });
  }
  const grid = empty(9, 9);
  grid[0][0] = 1;
  grid[4][4] = 5;
  grid[8][8] = 9;
  return { format: "sudoku-arena/puzzle@1", variant: "jigsaw", size: 9, layout: { rows: 9, cols: 9 }, houses, grid };
}

/** The corners of the five 9x9 grids of a Samurai in its 21x21 layout. */
export const SAMURAI_GRIDS: RC[] = [
  [0, 0],
  [0, 12],
  [6, 6],
  [12, 0],
  [12, 12],
];

/** A Samurai: five overlapping 9x9 grids, 369 active cells, with some givens. */
export function samuraiFixture(): PuzzleV1 {
  const active = new Set<string>();
  const houses: House[] = [];
  for (const [r0, c0] of SAMURAI_GRIDS) {
    houses.push(...classicHouses(r0, c0));
    for (let r = r0; r < r0 + 9; r++) for (let c = c0; c < c0 + 9; c++) active.add(`${r},${c}`);
  }
  const cells = [...active].map((k) => k.split(",").map(Number) as RC).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  // A valid filling: the classic pattern on absolute coordinates (every grid starts
  // on a multiple of 3), shown at a sparse set of cells.
  const grid = empty(21, 21);
  for (const [r, c] of cells) {
    if ((r * 7 + c * 3) % 5 === 0) grid[r][c] = ((3 * (r % 3) + Math.floor((r % 9) / 3) + (c % 9)) % 9) + 1;
  }
  return { format: "sudoku-arena/puzzle@1", variant: "samurai", size: 9, layout: { rows: 21, cols: 21 }, cells, houses, grid };
}

/** A board's changing layer showing `values` and nothing else, with `over` on top. */
export const paintOf = plainPaint;
