// The board as SVG markup, from the geometry alone: cells at their layout
// positions (holes stay empty), thin and thick lines, diagonals, shaded windows,
// dashed Killer cages with their sums, and then the changing layer: values,
// pencil marks, selection, highlights, conflicts and teammates' cursors.
// Pure string building, so it is the same in the page and in tests.

import { cageBroken } from "./conflicts";
import { CAGE_SUM_SIZE, drawingLayer, drawsOutside } from "./drawings";
import { PALETTE } from "./palette";
import { cageOutline, type Cell, type Geometry, type Segment } from "./geometry";

/** Size of one cell in SVG user units. */
export const CELL = 40;
/** Margin around the board, so the thick outer line is not clipped. */
const MARGIN = 2;

/** What the changing layer shows. */
export interface BoardPaint {
  values: number[];
  corner: number[];
  centre: number[];
  /** Colour highlights (bit k - 1 = palette colour k); absent: none. */
  colour?: number[];
  selection: Set<Cell>;
  cursor?: Cell;
  /** Cells seeing the cursor (same house, cage or pair). */
  peers: Set<Cell>;
  /** Value of the cursor's cell; every cell holding it is highlighted. */
  highlight: number;
  conflicts: Set<Cell>;
  /** Digits the server marked wrong (shown when the error check is on). */
  wrong: Set<Cell>;
  /** A hinted cell (the one the hint places or points at). */
  hint?: Cell;
  /** The cells of the hint's pattern (and, once shown, those it changes). */
  hintArea?: Set<Cell>;
  /** Co-op: each entered value's author's colour. */
  authors?: Map<Cell, string>;
  /** Co-op: each entered value's author's initials (colour is never the only sign). */
  authorMarks?: Map<Cell, string>;
  /** Teammates' cursors (co-op). */
  cursors: Array<{ cell: Cell; colour: string; name: string }>;
  /** Whether the board takes input (false for spectators and finished games). */
  editable: boolean;
  /** The step-through solver: every empty cell's candidates, drawn at fixed
   * places by value (instead of the player's marks). */
  candidates?: number[];
  /** Candidates a step removes (struck out in red), per cell. */
  removed?: Map<Cell, number>;
  /** Candidates of a step's pattern (green), per cell. */
  pattern?: Map<Cell, number>;
  /** A cage a step reads (a virtual one too), outlined. */
  stepCage?: Cell[];
  /** The setter: cells where two solutions differ. */
  differ?: Set<Cell>;
}

/** A board's changing layer showing `values` and nothing else, with `over` on top. */
export function plainPaint(values: number[], over: Partial<BoardPaint> = {}): BoardPaint {
  return {
    values,
    corner: values.map(() => 0),
    centre: values.map(() => 0),
    selection: new Set(),
    peers: new Set(),
    highlight: 0,
    conflicts: new Set(),
    wrong: new Set(),
    cursors: [],
    editable: true,
    ...over,
  };
}

/** The `viewBox` of the board: a cell more on every side when clues stand outside the grid. */
export function viewBox(g: Geometry): string {
  const m = MARGIN + (drawsOutside(g) ? CELL : 0);
  return `${-m} ${-m} ${g.cols * CELL + 2 * m} ${g.rows * CELL + 2 * m}`;
}

/** Thermometers, arrows, lines and shapes: under the grid lines. */
export function drawingsUnder(g: Geometry): string {
  return drawingLayer(g, "under", CELL);
}

/** Dots, letters, cages, outside clues and texts: over the grid lines, under the digits. */
export function drawingsOver(g: Geometry): string {
  return drawingLayer(g, "over", CELL);
}

const line = (s: Segment, cls: string) =>
  `<line class="${cls}" x1="${s.x1 * CELL}" y1="${s.y1 * CELL}" x2="${s.x2 * CELL}" y2="${s.y2 * CELL}"/>`;

/** Cell backgrounds (shaded windows included); the bottom layer. */
export function backgroundLayer(g: Geometry): string {
  return g.cells
    .map((c) => {
      const [x, y] = topLeft(g, c);
      const cls = g.shaded.has(c) ? "cell-bg shaded" : "cell-bg";
      return `<rect class="${cls}" x="${x}" y="${y}" width="${CELL}" height="${CELL}"/>`;
    })
    .join("");
}

/** A cell's colours: one fill, or equal vertical stripes for several. */
function colourFills(x: number, y: number, mask: number): string[] {
  const colours = PALETTE.filter((_, k) => (mask & (1 << k)) !== 0);
  const w = CELL / colours.length;
  return colours.map((colour, i) => `<rect class="colour" x="${x + i * w}" y="${y}" width="${w}" height="${CELL}" style="fill:${colour}"/>`);
}

/** Colours, then highlights: selection, peers, same digit, conflicts, hint; drawn under the lines. */
export function fillLayer(g: Geometry, p: BoardPaint): string {
  const fills: string[] = [];
  for (const c of g.cells) {
    const mask = p.colour?.[c] ?? 0;
    if (mask !== 0) fills.push(...colourFills(...topLeft(g, c), mask));
  }
  for (const c of g.cells) {
    const fill = fillClass(c, p.values[c], p);
    // A coloured cell keeps its colours when selected (the outline shows the selection).
    if (!fill || (fill === "selected" && (p.colour?.[c] ?? 0) !== 0)) continue;
    const [x, y] = topLeft(g, c);
    fills.push(`<rect class="fill ${fill}" x="${x}" y="${y}" width="${CELL}" height="${CELL}"/>`);
  }
  return fills.join("");
}

/** The lines that never change: diagonals, thin lines, cage outlines, thick borders. */
export function lineLayer(g: Geometry): string {
  const parts: string[] = [];
  for (const s of g.diagonals) parts.push(line(s, "diagonal"));
  for (const s of g.thinLines) parts.push(line(s, "thin"));
  for (const cage of g.cages) {
    parts.push(`<g class="cage" data-sum="${cage.sum}">`);
    for (const s of cage.outline) parts.push(line(s, "cage-line"));
    parts.push("</g>");
  }
  const edges = new Set(g.edgeLines);
  for (const s of g.thickLines) parts.push(line(s, edges.has(s) ? "thick edge" : "thick"));
  return parts.join("");
}

/** Values, marks, cage sums, selection outlines, cursors, and one labelled hit target per cell; the top layer. */
export function contentLayer(g: Geometry, p: BoardPaint): string {
  const texts: string[] = [];
  const rows = new Map<number, string[]>();
  for (const c of g.cells) {
    const [x, y] = topLeft(g, c);
    const v = p.values[c];
    const given = g.givens[c] !== 0;
    if (v !== 0) {
      const cls = ["value", given ? "given" : "entered"];
      const bad = !given && (p.conflicts.has(c) || p.wrong.has(c));
      if (bad) cls.push("bad");
      // A conflict's red wins over the author's colour.
      const author = !given && !bad ? p.authors?.get(c) : undefined;
      const style = author ? ` style="fill:${author}"` : "";
      texts.push(
        `<text class="${cls.join(" ")}"${style} x="${x + CELL / 2}" y="${y + CELL / 2}" font-size="${valueFont(g)}">${escape(g.symbols[v - 1] ?? "?")}</text>`,
      );
      const mark = !given ? p.authorMarks?.get(c) : undefined;
      if (mark) {
        texts.push(`<text class="author-mark"${style} x="${x + CELL - 2}" y="${y + CELL - 2}" font-size="${CELL * 0.2}">${escape(mark)}</text>`);
      }
    } else if (p.candidates) {
      texts.push(...candidateMarks(g, c, p, x, y));
    } else {
      texts.push(...cornerMarks(g, c, p.corner[c], x, y), ...centreMarks(g, p.centre[c], x, y));
    }
    const [r, col] = [Math.floor(c / g.cols), c % g.cols];
    const label = cellLabel(g, c, v, p);
    const target = `<rect class="hit" id="cell-${r}-${col}" role="gridcell" data-cell="${c}" aria-label="${label}" aria-selected="${p.selection.has(c)}" x="${x}" y="${y}" width="${CELL}" height="${CELL}"/>`;
    const row = rows.get(r) ?? [];
    row.push(target);
    rows.set(r, row);
  }
  if (p.stepCage && p.stepCage.length > 0) {
    const outline = cageOutline(p.stepCage, g.cols);
    texts.push(`<g class="step-cage">${outline.map((s) => line(s, "step-cage-line")).join("")}</g>`);
  }
  for (const cage of g.cages) {
    if (cage.sum === 0) continue;
    const [x, y] = topLeft(g, cage.labelCell);
    const size = CELL * CAGE_SUM_SIZE;
    texts.push(
      `<rect class="cage-label-bg" x="${x + 1.5}" y="${y + 1.5}" width="${size * 0.62 * String(cage.sum).length + 2}" height="${size + 1}"/>`,
      `<text class="${cageBroken(cage, p.values) ? "cage-sum bad" : "cage-sum"}" x="${x + 2.5}" y="${y + 2}" font-size="${size}">${cage.sum}</text>`,
    );
  }
  const cursors = p.cursors.map(({ cell, colour, name }) => {
    const [x, y] = topLeft(g, cell);
    // The teammate's name on a tab along the top of their own cell: over the
    // next cell it hid that cell's marks and cage sum. Cut to the cell's width.
    const short = name.length > 7 ? `${name.slice(0, 6)}…` : name;
    const width = Math.min(CELL - 4, Math.max(CELL * 0.4, short.length * CELL * 0.13 + 4));
    const tabHeight = CELL * 0.24;
    return (
      `<rect class="team-cursor" x="${x + 2}" y="${y + 2}" width="${CELL - 4}" height="${CELL - 4}" style="stroke:${colour}"><title>${escape(name)}</title></rect>` +
      `<rect class="cursor-tab" x="${x + 2}" y="${y + 2}" width="${width}" height="${tabHeight}" style="fill:${colour}"/>` +
      `<text class="cursor-name" x="${x + 4}" y="${y + 2 + tabHeight / 2}" font-size="${CELL * 0.18}">${escape(short)}</text>`
    );
  });
  const selection = [...p.selection].map((c) => {
    const [x, y] = topLeft(g, c);
    return `<rect class="selected-outline" x="${x + 1.5}" y="${y + 1.5}" width="${CELL - 3}" height="${CELL - 3}"/>`;
  });
  const grid = [...rows.entries()].map(([r, cells]) => `<g role="row" aria-rowindex="${r + 1}">${cells.join("")}</g>`);
  return [texts.join(""), selection.join(""), cursors.join(""), grid.join("")].join("");
}

/** A whole board as one standalone SVG document (fixtures, tests, exports). */
export function boardSvg(g: Geometry, p: BoardPaint): string {
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" class="board" viewBox="${viewBox(g)}">` +
    `<g>${backgroundLayer(g)}</g><g>${fillLayer(g, p)}</g><g>${drawingsUnder(g)}</g><g>${lineLayer(g)}</g>` +
    `<g>${drawingsOver(g)}</g><g>${contentLayer(g, p)}</g></svg>`
  );
}

function fillClass(c: Cell, v: number, p: BoardPaint): string {
  if (p.hint === c) return "hinted";
  if (p.hintArea?.has(c)) return "hint-area";
  if (p.differ?.has(c)) return "differ";
  if (p.selection.has(c)) return "selected";
  if (v !== 0 && p.conflicts.has(c)) return "conflict";
  if (v !== 0 && v === p.highlight) return "same";
  if (p.peers.has(c)) return "peer";
  return "";
}

function topLeft(g: Geometry, c: Cell): [number, number] {
  return [(c % g.cols) * CELL, Math.floor(c / g.cols) * CELL];
}

function valueFont(g: Geometry): number {
  return g.symbols.some((s) => s.length > 1) ? CELL * 0.45 : CELL * 0.62;
}

/**
 * Where corner marks go, in the order they fill (SudokuPad's): the four
 * corners, then the middles of the top and bottom edges, of the left and right
 * edges, and the centre; as fractions of the cell. A cell carrying a cage sum
 * fills its top-left corner last.
 */
const CORNER_SLOTS: ReadonlyArray<readonly [number, number]> = [
  [0.18, 0.18], [0.82, 0.18], [0.18, 0.82], [0.82, 0.82],
  [0.5, 0.18], [0.5, 0.82], [0.18, 0.5], [0.82, 0.5], [0.5, 0.5],
];
const CAGE_CORNER_SLOTS = [...CORNER_SLOTS.slice(1), CORNER_SLOTS[0]];

/**
 * Corner marks: in value order, filling the corners first (a lone 5 sits in the
 * top-left corner, never in the centre where centre marks go). Past nine marks
 * (16x16, 25x25) they fill a k x k grid in order instead.
 */
function cornerMarks(g: Geometry, c: Cell, mask: number, x: number, y: number): string[] {
  if (mask === 0) return [];
  const values = g.symbols.map((_, i) => i).filter((i) => (mask & (1 << i)) !== 0);
  const caged = g.cages.some((cage) => cage.labelCell === c);
  let places: ReadonlyArray<readonly [number, number]>;
  let font: number;
  if (values.length <= CORNER_SLOTS.length) {
    places = caged ? CAGE_CORNER_SLOTS : CORNER_SLOTS;
    font = CELL * 0.26;
  } else {
    const k = Math.ceil(Math.sqrt(values.length));
    places = values.map((_, n) => [(0.7 + (n % k)) / (k + 0.4), (0.7 + Math.floor(n / k)) / (k + 0.4)] as const);
    font = (CELL / (k + 0.4)) * 0.8;
  }
  const longest = Math.max(...values.map((i) => g.symbols[i].length));
  if (longest > 1) font *= 0.75;
  return values.map((i, n) => {
    const [fx, fy] = places[n];
    return `<text class="corner" data-cell="${c}" x="${x + fx * CELL}" y="${y + fy * CELL}" font-size="${font}">${escape(g.symbols[i])}</text>`;
  });
}

/**
 * The step-through solver's candidates: each value at its own place in a k x k
 * grid (1 top-left, 9 bottom-right), a step's pattern in green and what it
 * removes struck out in red.
 */
function candidateMarks(g: Geometry, c: Cell, p: BoardPaint, x: number, y: number): string[] {
  const mask = p.candidates?.[c] ?? 0;
  const removed = p.removed?.get(c) ?? 0;
  const pattern = p.pattern?.get(c) ?? 0;
  const k = Math.ceil(Math.sqrt(g.size));
  // A cell carrying a cage sum keeps its top strip for the sum.
  const inset = g.cages.some((cage) => cage.labelCell === c && cage.sum > 0) ? CELL * CAGE_SUM_SIZE : 0;
  const [stepX, stepY] = [CELL / k, (CELL - inset) / k];
  const font = Math.min(stepX, stepY) * 0.72;
  const out: string[] = [];
  for (let i = 0; i < g.size; i++) {
    const bit = 1 << i;
    if ((mask & bit) === 0) continue;
    const cx = x + ((i % k) + 0.5) * stepX;
    const cy = y + inset + (Math.floor(i / k) + 0.5) * stepY;
    const cls = (removed & bit) !== 0 ? "cand removed" : (pattern & bit) !== 0 ? "cand pattern" : "cand";
    out.push(`<text class="${cls}" data-cell="${c}" data-value="${i + 1}" x="${cx}" y="${cy}" font-size="${font}">${escape(g.symbols[i])}</text>`);
    if ((removed & bit) !== 0) {
      const d = font * 0.45;
      out.push(`<line class="cand-strike" x1="${cx - d}" y1="${cy + d}" x2="${cx + d}" y2="${cy - d}"/>`);
    }
  }
  return out;
}

/** The widest a centre-mark line may be, and the tallest the lines together, in cell units. */
const CENTRE_WIDTH = 0.8;
const CENTRE_HEIGHT = 0.6;
/** A digit's width relative to the font size (a sans-serif digit is about 0.6 em). */
const GLYPH_WIDTH = 0.62;

/**
 * Centre marks shrink to fit the middle of the cell: on one line while they
 * fit at a readable size, else over two or three lines, whichever shows them
 * largest (nine marks never clip).
 */
export function centreLayout(symbols: string[]): { lines: string[]; font: number } {
  const chars = symbols.join("").length;
  let best = { lines: [symbols.join("")], font: 0 };
  for (let count = 1; count <= 3; count++) {
    const perLine = Math.ceil(symbols.length / count);
    const lines: string[] = [];
    for (let i = 0; i < symbols.length; i += perLine) lines.push(symbols.slice(i, i + perLine).join(""));
    const widest = Math.max(...lines.map((l) => l.length), Math.ceil(chars / count));
    const font = Math.min(CELL * 0.32, (CELL * CENTRE_WIDTH) / (GLYPH_WIDTH * widest), (CELL * CENTRE_HEIGHT) / lines.length);
    if (font > best.font + 0.01) best = { lines, font };
  }
  return best;
}

function centreMarks(g: Geometry, mask: number, x: number, y: number): string[] {
  if (mask === 0) return [];
  const symbols = g.symbols.filter((_, i) => (mask & (1 << i)) !== 0);
  const { lines, font } = centreLayout(symbols);
  const top = y + CELL / 2 - ((lines.length - 1) * font) / 2;
  return lines.map(
    (line, n) => `<text class="centre" x="${x + CELL / 2}" y="${top + n * font}" font-size="${font}">${escape(line)}</text>`,
  );
}
/** What a screen reader says for a cell. */
function cellLabel(g: Geometry, c: Cell, v: number, p: BoardPaint): string {
  const [r, col] = [Math.floor(c / g.cols) + 1, (c % g.cols) + 1];
  let what: string;
  if (v !== 0) what = `${g.symbols[v - 1]}${g.givens[c] !== 0 ? " (given)" : ""}`;
  else {
    const marks = [p.corner[c], p.centre[c]]
      .map((m) => g.symbols.filter((_, i) => (m & (1 << i)) !== 0).join(" "))
      .filter((s) => s !== "");
    what = marks.length > 0 ? `empty, candidates ${marks.join("; ")}` : "empty";
  }
  const flags = p.conflicts.has(c) ? ", conflict" : "";
  return escape(`Row ${r}, column ${col}: ${what}${flags}`);
}

/** Escapes text for SVG markup. */
export function escape(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}
