// Geometry: everything the board needs to know about a puzzle, worked out once
// from the v1 puzzle the server sends (layout, active cells, houses, cages,
// different-pairs). No variant is known by name: the rules are all in the data.

import type { Constraint, Drawing, HouseKind, PuzzleV1 } from "../protocol";

/** A cell as `row * cols + col`. */
export type Cell = number;

/** One straight segment in board units (one unit per cell). */
export interface Segment {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

/** A Killer cage with its drawing. */
export interface CageShape {
  cells: Cell[];
  sum: number;
  /** The cell that carries the sum: the top-most, then left-most. */
  labelCell: Cell;
  /** The dashed outline, inset from the cell edges. */
  outline: Segment[];
}

/** A house: kind and cells. */
export interface HouseShape {
  kind: HouseKind;
  cells: Cell[];
}

/** The puzzle's geometry, in board units. */
export interface Geometry {
  rows: number;
  cols: number;
  /** N: cells hold 1..=N. */
  size: number;
  /** Display symbol of each value; `symbols[v - 1]` shows `v`. */
  symbols: string[];
  /** `active[cell]`: the cell is part of the puzzle (Samurai has holes). */
  active: boolean[];
  /** The active cells in reading order. */
  cells: Cell[];
  /** The givens (0 = empty), one per layout cell. */
  givens: number[];
  houses: HouseShape[];
  cages: CageShape[];
  different: Array<[Cell, Cell]>;
  /** Thin lines between cells of the same box/region. */
  thinLines: Segment[];
  /** Thick lines: the outer edge and box/region borders. */
  thickLines: Segment[];
  /** The outer edge alone (a subset of `thickLines`): where an active cell
   * meets the layout's border or a hole. It follows the board's shape — a
   * Samurai's or a twin Gattai's, not their bounding box. */
  edgeLines: Segment[];
  /** One line per `diagonal` house, corner to corner. */
  diagonals: Segment[];
  /** Cells shaded because they belong to a `window` or an `extra` house (an
   * Asterisk's, an extra region's; not when extra houses cover every cell,
   * as disjoint groups do, where shading would tell nothing). */
  shaded: Set<Cell>;
  /** Every constraint group a cell takes part in (houses and cages, by index into `groups`). */
  groupsOf: Cell[][];
  /** Houses then cages, as cell lists; used for conflicts and peers. */
  groups: Cell[][];
  /** Different-pair partners of each cell. */
  partners: Cell[][];
  /** What the rules beyond houses and cages look like (thermometers, dots, clues, …). */
  drawings: Drawing[];
  /** Those rules themselves, for broken-rule marks and sum helpers (cells as `[row, col]`). */
  constraints: Constraint[];
}

const DEFAULT_SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/** How far a cage outline sits inside the cell edge, in cell units. */
export const CAGE_INSET = 0.1;

/** Works out the geometry of `puzzle`; throws on coordinates outside the layout. */
export function geometryOf(puzzle: PuzzleV1): Geometry {
  const { rows, cols } = puzzle.layout;
  const size = puzzle.size;
  const symbols = Array.from(puzzle.symbols ?? DEFAULT_SYMBOLS.slice(0, size));
  const index = ([r, c]: [number, number]): Cell => {
    if (!(r >= 0 && r < rows && c >= 0 && c < cols)) {
      throw new Error(`cell [${r},${c}] is outside the ${rows}x${cols} layout`);
    }
    return r * cols + c;
  };
  const active = new Array<boolean>(rows * cols).fill(puzzle.cells == null);
  for (const rc of puzzle.cells ?? []) active[index(rc)] = true;
  const cells = active.flatMap((a, i) => (a ? [i] : []));
  const givens = new Array<number>(rows * cols).fill(0);
  puzzle.grid.forEach((row, r) =>
    row.forEach((v, c) => {
      if (r < rows && c < cols && active[r * cols + c]) givens[r * cols + c] = v;
    }),
  );

  const houses = puzzle.houses.map((h) => ({ kind: h.kind, cells: h.cells.map(index) }));
  const cages = (puzzle.cages ?? []).map((cage) => {
    const members = cage.cells.map(index);
    return {
      cells: members,
      sum: cage.sum,
      labelCell: Math.min(...members),
      outline: cageOutline(members, cols),
    };
  });
  const different = (puzzle.different ?? []).map(
    ([a, b]) => [index(a), index(b)] as [Cell, Cell],
  );

  // A cell's "area" is the set of box/region houses it belongs to; borders are
  // drawn thick wherever neighbouring cells' areas differ.
  const areaSets = new Array<number[]>(rows * cols).fill([]).map(() => [] as number[]);
  houses.forEach((h, i) => {
    if (h.kind === "box" || h.kind === "region") for (const c of h.cells) areaSets[c].push(i);
  });
  const area = areaSets.map((s) => s.join(","));
  const { thin, thick, edge } = cellLines(active, area, rows, cols);

  const shaded = new Set<Cell>();
  for (const h of houses) if (h.kind === "window") h.cells.forEach((c) => shaded.add(c));
  const extra = new Set(houses.filter((h) => h.kind === "extra").flatMap((h) => h.cells));
  if (extra.size < cells.length) extra.forEach((c) => shaded.add(c));
  const diagonals = houses.filter((h) => h.kind === "diagonal").map((h) => diagonalLine(h.cells, cols));

  const groups = [...houses.map((h) => h.cells), ...cages.map((c) => c.cells)];
  const groupsOf = new Array<Cell[]>(rows * cols).fill([]).map(() => [] as Cell[]);
  groups.forEach((g, i) => g.forEach((c) => groupsOf[c].push(i)));
  const partners = new Array<Cell[]>(rows * cols).fill([]).map(() => [] as Cell[]);
  for (const [a, b] of different) {
    partners[a].push(b);
    partners[b].push(a);
  }

  return {
    rows,
    cols,
    size,
    symbols,
    active,
    cells,
    givens,
    houses,
    cages,
    different,
    thinLines: thin,
    thickLines: thick,
    edgeLines: edge,
    diagonals,
    shaded,
    groupsOf,
    groups,
    partners,
    drawings: puzzle.drawings ?? [],
    constraints: puzzle.constraints ?? [],
  };
}

/** The thin and thick cell edges, each drawn once, and the outer ones among the thick. */
function cellLines(active: boolean[], area: string[], rows: number, cols: number) {
  const thin: Segment[] = [];
  const thick: Segment[] = [];
  const edge: Segment[] = [];
  const at = (r: number, c: number) => r >= 0 && r < rows && c >= 0 && c < cols && active[r * cols + c];
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      if (!at(r, c)) continue;
      const me = area[r * cols + c];
      const sides: Array<[number, number, Segment]> = [
        [r - 1, c, { x1: c, y1: r, x2: c + 1, y2: r }],
        [r, c - 1, { x1: c, y1: r, x2: c, y2: r + 1 }],
        [r + 1, c, { x1: c, y1: r + 1, x2: c + 1, y2: r + 1 }],
        [r, c + 1, { x1: c + 1, y1: r, x2: c + 1, y2: r + 1 }],
      ];
      sides.forEach(([nr, nc, seg], side) => {
        const inside = at(nr, nc);
        // Shared edges are drawn by the cell above / to the left.
        if (inside && side >= 2) return;
        const border = !inside || area[nr * cols + nc] !== me;
        (border ? thick : thin).push(seg);
        if (!inside) edge.push(seg);
      });
    }
  }
  return { thin, thick, edge };
}

/** A diagonal house's line, from the outer corner of its first cell to that of its last. */
function diagonalLine(cells: Cell[], cols: number): Segment {
  const sorted = [...cells].sort((a, b) => a - b);
  const [r0, c0] = [Math.floor(sorted[0] / cols), sorted[0] % cols];
  const last = sorted[sorted.length - 1];
  const [r1, c1] = [Math.floor(last / cols), last % cols];
  return c1 >= c0
    ? { x1: c0, y1: r0, x2: c1 + 1, y2: r1 + 1 }
    : { x1: c0 + 1, y1: r0, x2: c1, y2: r1 + 1 };
}

/**
 * The outline of a cage, inset by CAGE_INSET: for every cell edge facing out of
 * the cage, a segment whose ends meet the neighbouring segments at convex and
 * concave corners alike.
 */
export function cageOutline(cells: Cell[], cols: number): Segment[] {
  const member = new Set(cells);
  const inCage = (r: number, c: number) => c >= 0 && c < cols && r >= 0 && member.has(r * cols + c);
  const d = CAGE_INSET;
  const out: Segment[] = [];
  for (const cell of cells) {
    const r = Math.floor(cell / cols);
    const c = cell % cols;
    // Where a side's line ends towards one tangent direction: past the edge into
    // a concave corner, at the edge when the outline continues straight, or short
    // of it at a convex corner.
    const end = (along: boolean, diagonal: boolean, edge: number, dir: number) =>
      along ? (diagonal ? edge + dir * d : edge) : edge - dir * d;
    // Top and bottom sides: horizontal lines.
    for (const [dr, y] of [
      [-1, r + d],
      [1, r + 1 - d],
    ] as const) {
      if (inCage(r + dr, c)) continue;
      out.push({
        x1: end(inCage(r, c - 1), inCage(r + dr, c - 1), c, -1),
        y1: y,
        x2: end(inCage(r, c + 1), inCage(r + dr, c + 1), c + 1, 1),
        y2: y,
      });
    }
    // Left and right sides: vertical lines.
    for (const [dc, x] of [
      [-1, c + d],
      [1, c + 1 - d],
    ] as const) {
      if (inCage(r, c + dc)) continue;
      out.push({
        x1: x,
        y1: end(inCage(r - 1, c), inCage(r - 1, c + dc), r, -1),
        x2: x,
        y2: end(inCage(r + 1, c), inCage(r + 1, c + dc), r + 1, 1),
      });
    }
  }
  return out;
}

/** Row and column of a cell. */
export function coordOf(g: Pick<Geometry, "cols">, cell: Cell): [number, number] {
  return [Math.floor(cell / g.cols), cell % g.cols];
}

/** The value a typed symbol stands for (case-insensitive), or 0. */
export function valueOfSymbol(g: Pick<Geometry, "symbols">, symbol: string): number {
  const upper = symbol.toUpperCase();
  const i = g.symbols.findIndex((s) => s.toUpperCase() === upper);
  return i + 1;
}
