// The puzzle setter's state, without the page: a draft on top of a variant's
// empty template (givens, killer cages, jigsaw regions, constraints), the
// editing rules (a typed total starts a cage, L/U/R/D join it to a neighbour's,
// a drag draws a line or a dot), undo, and the forms it is kept and shared in.

import type { Constraint, ParamValue, PuzzleV1, SetterDraft } from "../protocol";
import type { Cell } from "./geometry";

/** What a press on the board does. */
export type Tool = "digits" | "cages" | "regions" | "lines" | "dots" | "cells" | "clues" | "erase";

/** The lines a drag draws, in the order the setter offers them. */
export const LINE_KINDS = {
  thermometer: "Thermometer",
  slowThermometer: "Slow thermometer",
  arrow: "Arrow (circle first)",
  renban: "Renban",
  germanWhispers: "German whispers",
  dutchWhispers: "Dutch whispers",
  palindrome: "Palindrome",
  between: "Between line",
  regionSum: "Region-sum line",
  zipper: "Zipper",
  entropic: "Entropic",
} as const;
export type LineKind = keyof typeof LINE_KINDS;

/** The dots a drag over two neighbours places. */
export const DOT_KINDS = { white: "White dot (differ by 1)", black: "Black dot (ratio 2)", x: "X (sum 10)", v: "V (sum 5)" } as const;
export type DotKind = keyof typeof DOT_KINDS;

/** The marks a click puts on one cell. */
export const CELL_KINDS = { even: "Even", odd: "Odd", minimum: "Minimum", maximum: "Maximum" } as const;
export type CellKind = keyof typeof CELL_KINDS;

/** Clues outside the grid: a drag from an edge cell inwards gives the row,
 * column or diagonal; the number is typed next. */
export const CLUE_KINDS = {
  sandwich: "Sandwich sum",
  xSum: "X-sum",
  skyscraper: "Skyscraper",
  littleKiller: "Little killer (diagonal)",
  quadruple: "Quadruple (click a 2x2's top-left cell, type its digits)",
} as const;
export type ClueKind = keyof typeof CLUE_KINDS;

/** Rules over the whole grid a setter may add. */
export const GLOBAL_RULES = {
  nonConsecutive: "Non-consecutive",
  antiKing: "Anti-king",
  antiKnight: "Anti-knight",
  disjointGroups: "Disjoint groups",
  negativeRatio: "All black dots given",
  negativeXv: "All X and V given",
} as const;
export type GlobalRule = keyof typeof GLOBAL_RULES;

/** How long a typed cage total waits for its second digit, ms. */
export const TOTAL_WINDOW_MS = 1500;

/**
 * A typed digit on a number shown: with `continuing` (a second digit soon after
 * the first) and a one-digit number, its second digit; else the number anew.
 */
function typed(shown: number, digit: number, continuing: boolean): number {
  return continuing && shown < 10 ? shown * 10 + digit : digit;
}

/** Directions L/U/R/D join a cage towards. */
const DIRECTIONS: Record<string, [number, number]> = { l: [0, -1], u: [-1, 0], r: [0, 1], d: [1, 0] };

/** The setter's state. */
export class SetterState {
  template?: PuzzleV1;
  draft?: SetterDraft;
  tool: Tool = "digits";
  lineKind: LineKind = "thermometer";
  dotKind: DotKind = "white";
  cellKind: CellKind = "even";
  clueKind: ClueKind = "sandwich";
  /** Where typing goes. */
  cursor?: Cell;
  /** The cells of the current drag, in the order they were met. */
  path: Cell[] = [];
  private past: string[] = [];
  private future: string[] = [];
  /** A cage total being typed: its cage's first cell, and when its digit came. */
  private typing?: { cell: Cell; at: number };
  /** An outside clue whose number is being typed: its cells and place, and
   * the constraint made from its first digit (with when that came). */
  private clue?: { cells: Array<[number, number]>; place: [number, number]; made?: { index: number; at: number } };

  /** Starts a new draft on `template` (empty), or keeps `saved` if it fits it. */
  start(template: PuzzleV1, variant: string, params: Record<string, ParamValue>, saved?: SetterDraft) {
    this.template = template;
    const fits = saved && saved.variant === variant && saved.grid.length === template.layout.rows && saved.grid.every((r) => r.length === template.layout.cols);
    this.draft = fits ? saved : { variant, params, grid: template.grid.map((r) => r.map(() => 0)), cages: [], regions: [], constraints: [] };
    this.past = [];
    this.future = [];
    this.cursor = undefined;
    this.path = [];
  }

  get cols(): number {
    return this.template?.layout.cols ?? 0;
  }

  /** Whether the template has jigsaw regions to repaint. */
  get hasRegions(): boolean {
    return this.template?.houses.some((h) => h.kind === "region") ?? false;
  }

  /** The rules the variant itself has (not for the setter to toggle). */
  private get builtIn(): Set<string> {
    return new Set((this.template?.constraints ?? []).map((c) => c.type));
  }

  /** Global rules the setter may toggle (the variant's own are left out). */
  offeredRules(): GlobalRule[] {
    const own = this.builtIn;
    return (Object.keys(GLOBAL_RULES) as GlobalRule[]).filter((r) => !own.has(negativePart(r) ? "negative" : r));
  }

  hasRule(rule: GlobalRule): boolean {
    const part = negativePart(rule);
    return this.draft?.constraints.some((c) => (part ? c.type === "negative" && c[part] : c.type === rule)) ?? false;
  }

  /** The draft as the server takes it: cages without a total become plain cage constraints. */
  toDraft(): SetterDraft | undefined {
    const d = this.draft;
    if (!d) return undefined;
    const totalled = d.cages.filter((c) => c.sum > 0);
    const bare: Constraint[] = d.cages.filter((c) => c.sum === 0).map((c) => ({ type: "cage", cells: c.cells }));
    return { ...d, cages: totalled, constraints: [...d.constraints, ...bare] };
  }

  /** The puzzle to draw now: the template with the draft on it (drawings from the last check). */
  display(drawings: PuzzleV1["drawings"] = []): PuzzleV1 | undefined {
    const t = this.template;
    const d = this.draft;
    if (!t || !d) return undefined;
    let houses = t.houses;
    if (d.regions.length > 0) {
      const regions = new Map<number, Array<[number, number]>>();
      d.regions.forEach((row, r) => row.forEach((n, c) => n > 0 && regions.set(n, [...(regions.get(n) ?? []), [r, c]])));
      houses = [...t.houses.filter((h) => h.kind !== "region"), ...[...regions.values()].map((cells) => ({ kind: "region" as const, cells }))];
    }
    return { ...t, grid: d.grid, cages: d.cages, houses, constraints: [...(t.constraints ?? []), ...d.constraints], drawings };
  }

  // ---- edits (each one undoable) ----

  private edit(change: (d: SetterDraft) => void) {
    if (!this.draft) return;
    this.past.push(JSON.stringify(this.draft));
    if (this.past.length > 200) this.past.shift();
    this.future = [];
    change(this.draft);
  }

  undo(): boolean {
    const last = this.past.pop();
    if (!last || !this.draft) return false;
    this.future.push(JSON.stringify(this.draft));
    this.draft = JSON.parse(last) as SetterDraft;
    return true;
  }

  redo(): boolean {
    const next = this.future.pop();
    if (!next || !this.draft) return false;
    this.past.push(JSON.stringify(this.draft));
    this.draft = JSON.parse(next) as SetterDraft;
    return true;
  }

  /** Empties the draft (one undo brings it back). */
  clear() {
    this.edit((d) => {
      d.grid = d.grid.map((r) => r.map(() => 0));
      d.cages = [];
      d.regions = [];
      d.constraints = [];
    });
  }

  private rc(cell: Cell): [number, number] {
    return [Math.floor(cell / this.cols), cell % this.cols];
  }

  /** The index of the cage holding `cell`, or -1. */
  cageAt(cell: Cell): number {
    const [r, c] = this.rc(cell);
    return this.draft?.cages.findIndex((cage) => cage.cells.some(([cr, cc]) => cr === r && cc === c)) ?? -1;
  }

  /** A given in the cursor's cell (0 clears it). */
  setGiven(value: number) {
    if (this.cursor === undefined) return;
    const [r, c] = this.rc(this.cursor);
    if (this.draft?.grid[r]?.[c] === value) return;
    this.edit((d) => (d.grid[r][c] = value));
  }

  /**
   * A digit typed in cage mode: a total for the cursor's cage. A second digit
   * within {@link TOTAL_WINDOW_MS} makes a two-digit total; a cell in no cage
   * starts one.
   */
  typeTotal(digit: number, now: number) {
    const cell = this.cursor;
    if (cell === undefined || !this.draft) return;
    const i = this.cageAt(cell);
    const typing = this.typing;
    const continuing = !!typing && i >= 0 && this.cageAt(typing.cell) === i && now - typing.at <= TOTAL_WINDOW_MS;
    this.edit((d) => {
      if (i < 0) d.cages.push({ cells: [this.rc(cell)], sum: digit });
      else d.cages[i].sum = typed(d.cages[i].sum, digit, continuing);
    });
    this.typing = continuing ? undefined : { cell, at: now };
  }

  /** L/U/R/D: the cursor's cage (or cell) joins the cage (or cell) beside it. */
  join(direction: string): boolean {
    const cell = this.cursor;
    const step = DIRECTIONS[direction.toLowerCase()];
    const t = this.template;
    if (cell === undefined || !step || !t || !this.draft) return false;
    const [r, c] = this.rc(cell);
    const [nr, nc] = [r + step[0], c + step[1]];
    if (nr < 0 || nc < 0 || nr >= t.layout.rows || nc >= t.layout.cols || !this.isActive(nr, nc)) return false;
    const other = nr * this.cols + nc;
    const mine = this.cageAt(cell);
    const theirs = this.cageAt(other);
    if (mine >= 0 && mine === theirs) return false;
    this.edit((d) => {
      const moved: Array<[number, number]> = mine >= 0 ? d.cages[mine].cells : [[r, c]];
      const sum = theirs >= 0 && d.cages[theirs].sum > 0 ? d.cages[theirs].sum : mine >= 0 ? d.cages[mine].sum : 0;
      if (theirs >= 0) {
        d.cages[theirs] = { cells: [...d.cages[theirs].cells, ...moved], sum };
        if (mine >= 0) d.cages.splice(mine, 1);
      } else if (mine >= 0) {
        d.cages[mine].cells.push([nr, nc]);
      } else {
        d.cages.push({ cells: [[r, c], [nr, nc]], sum: 0 });
      }
    });
    this.typing = undefined;
    return true;
  }

  private isActive(r: number, c: number): boolean {
    const cells = this.template?.cells;
    return !cells || cells.some(([cr, cc]) => cr === r && cc === c);
  }

  /** Takes the cursor's cell out of its cage (a cage left empty goes). */
  uncage() {
    const cell = this.cursor;
    if (cell === undefined) return;
    const i = this.cageAt(cell);
    if (i < 0) return;
    const [r, c] = this.rc(cell);
    this.edit((d) => {
      d.cages[i].cells = d.cages[i].cells.filter(([cr, cc]) => cr !== r || cc !== c);
      if (d.cages[i].cells.length === 0) d.cages.splice(i, 1);
    });
  }

  /** Jigsaw: the cells given become region `n` (the template's regions are the start). */
  paintRegion(cells: Cell[], n: number) {
    const t = this.template;
    if (!t || cells.length === 0 || n < 1 || n > t.size) return;
    this.edit((d) => {
      if (d.regions.length === 0) d.regions = this.templateRegions();
      for (const cell of cells) {
        const [r, c] = this.rc(cell);
        d.regions[r][c] = n;
      }
    });
  }

  /** The template's regions as numbers per cell. */
  private templateRegions(): number[][] {
    const t = this.template as PuzzleV1;
    const numbers = t.grid.map((row) => row.map(() => 0));
    t.houses.filter((h) => h.kind === "region").forEach((h, i) => h.cells.forEach(([r, c]) => (numbers[r][c] = i + 1)));
    return numbers;
  }

  /** The region number of a cell (from the draft, else the template). */
  regionOf(cell: Cell): number {
    const [r, c] = this.rc(cell);
    const numbers = this.draft?.regions.length ? this.draft.regions : this.templateRegions();
    return numbers[r]?.[c] ?? 0;
  }

  /** The cells of a drag become a cage without a total yet (typed next). */
  cagePath(cells: Cell[]) {
    if (cells.length < 2) return;
    const coords = cells.map((c) => this.rc(c));
    this.edit((d) => {
      for (const cage of d.cages) cage.cells = cage.cells.filter(([r, c]) => !coords.some(([pr, pc]) => pr === r && pc === c));
      d.cages = d.cages.filter((cage) => cage.cells.length > 0);
      d.cages.push({ cells: coords, sum: 0 });
    });
    this.cursor = cells[0];
    this.typing = undefined;
  }

  /** The dragged path as a line of the chosen kind (two cells at least). */
  linePath(cells: Cell[]) {
    if (cells.length < 2) return;
    const coords = cells.map((c) => this.rc(c));
    const line = lineConstraint(this.lineKind, coords);
    this.edit((d) => d.constraints.push(line));
  }

  /** A dot of the chosen kind between two neighbouring cells (replacing one there). */
  dotPath(cells: Cell[]) {
    if (cells.length !== 2) return;
    const [a, b] = cells.map((c) => this.rc(c));
    if (Math.abs(a[0] - b[0]) + Math.abs(a[1] - b[1]) !== 1) return;
    const pair: [[number, number], [number, number]] = [a, b];
    const same = (c: Constraint) => (c.type === "difference" || c.type === "ratio" || c.type === "xv") && samePair(c.cells, pair);
    this.edit((d) => {
      d.constraints = d.constraints.filter((c) => !same(c));
      d.constraints.push(dotConstraint(this.dotKind, pair));
    });
  }

  /** Toggles the chosen cell mark on the cursor's cell. */
  toggleCellMark(cell: Cell) {
    const [r, c] = this.rc(cell);
    const kind = this.cellKind;
    const at = (x: Constraint) => x.type === kind && "cells" in x && x.cells.length === 1 && x.cells[0][0] === r && x.cells[0][1] === c;
    this.edit((d) => {
      const had = d.constraints.some(at);
      d.constraints = d.constraints.filter((x) => !at(x));
      if (!had) d.constraints.push({ type: kind, cells: [[r, c]] } as Constraint);
    });
  }

  /** Removes every constraint drawn through a cell (lines, dots, marks). */
  eraseAt(cell: Cell) {
    const [r, c] = this.rc(cell);
    const through = (x: Constraint) => constraintCells(x).some(([cr, cc]) => cr === r && cc === c);
    if (!this.draft?.constraints.some(through)) return;
    this.edit((d) => (d.constraints = d.constraints.filter((x) => !through(x))));
  }

  /**
   * A drag for an outside clue: from an edge cell (whose outside neighbour is
   * off the layout) straight inwards — along its row or column, or along a
   * diagonal for a little killer — to the drag's last cell. `false` (nothing
   * kept) when the drag does not say a direction that way.
   */
  cluePath(cells: Cell[]): boolean {
    const t = this.template;
    this.clue = undefined;
    if (t && this.clueKind === "quadruple") return this.quadrupleAt(cells[0]);
    if (!t || cells.length < 2) return false;
    const [r0, c0] = this.rc(cells[0]);
    const [r1, c1] = this.rc(cells[cells.length - 1]);
    const [dr, dc] = [Math.sign(r1 - r0), Math.sign(c1 - c0)];
    const diagonal = this.clueKind === "littleKiller";
    const straight = diagonal ? dr !== 0 && dc !== 0 && Math.abs(r1 - r0) === Math.abs(c1 - c0) : (dr === 0) !== (dc === 0);
    const inside = (r: number, c: number) => r >= 0 && c >= 0 && r < t.layout.rows && c < t.layout.cols && this.isActive(r, c);
    if (!straight || inside(r0 - dr, c0 - dc)) return false;
    const line: Array<[number, number]> = [];
    for (let [r, c] = [r0, c0]; inside(r, c); r += dr, c += dc) line.push([r, c]);
    this.clue = { cells: line, place: [r0 - dr, c0 - dc] };
    return true;
  }

  /** A quadruple on the 2x2 block whose top-left cell is `cell` (its digits typed next). */
  private quadrupleAt(cell: Cell | undefined): boolean {
    if (cell === undefined) return false;
    const [r, c] = this.rc(cell);
    const block: Array<[number, number]> = [[r, c], [r, c + 1], [r + 1, c], [r + 1, c + 1]];
    const t = this.template as PuzzleV1;
    if (!block.every(([br, bc]) => br < t.layout.rows && bc < t.layout.cols && this.isActive(br, bc))) return false;
    this.clue = { cells: block, place: [r, c] };
    return true;
  }

  /** Whether an outside clue waits for its number. */
  get awaitingClue(): boolean {
    return this.clue !== undefined;
  }

  /** A digit of the waiting outside clue's number (a second one soon after makes two digits). */
  typeClue(digit: number, now: number) {
    const clue = this.clue;
    const kind = this.clueKind;
    if (!clue || !this.draft) return;
    if (kind === "quadruple") return this.typeQuadruple(clue, digit);
    const made = clue.made;
    const continuing = !!made && now - made.at <= TOTAL_WINDOW_MS && this.draft.constraints[made.index] !== undefined;
    const shown = made && continuing ? clueNumber(this.draft.constraints[made.index]) : 0;
    const constraint = outsideClue(kind, clue.cells, clue.place, typed(shown, digit, continuing));
    this.edit((d) => {
      if (continuing && made) d.constraints[made.index] = constraint;
      else d.constraints.push(constraint);
    });
    const index = continuing && made ? made.index : this.draft.constraints.length - 1;
    clue.made = continuing ? undefined : { index, at: now };
    if (continuing) this.clue = undefined;
  }

  /** A digit of a quadruple: added to the one on the block (up to four, repeats allowed). */
  private typeQuadruple(clue: NonNullable<SetterState["clue"]>, digit: number) {
    const t = this.template as PuzzleV1;
    if (digit < 1 || digit > t.size) return;
    const same = (x: Constraint) => x.type === "quadruple" && x.cells.length === 4 && x.cells[0][0] === clue.cells[0][0] && x.cells[0][1] === clue.cells[0][1];
    const old = this.draft?.constraints.find(same);
    const values = old?.type === "quadruple" ? old.values : [];
    if (values.length >= 4) return;
    this.edit((d) => {
      d.constraints = d.constraints.filter((x) => !same(x));
      d.constraints.push({ type: "quadruple", cells: clue.cells, values: [...values, digit] });
    });
  }

  /** Turns a global rule on or off (the two negative rules share one constraint). */
  setRule(rule: GlobalRule, on: boolean) {
    if (this.hasRule(rule) === on) return;
    const part = negativePart(rule);
    this.edit((d) => {
      if (!part) {
        d.constraints = d.constraints.filter((c) => c.type !== rule);
        if (on) d.constraints.push({ type: rule } as Constraint);
        return;
      }
      const old = d.constraints.find((c) => c.type === "negative");
      const negative = { type: "negative" as const, ratio: false, xv: false, ...(old?.type === "negative" ? old : {}), [part]: on };
      d.constraints = d.constraints.filter((c) => c.type !== "negative");
      if (negative.ratio || negative.xv) d.constraints.push(negative);
    });
  }
}

/** The field of the negative constraint a rule toggles, if it is one of those. */
function negativePart(rule: GlobalRule): "ratio" | "xv" | undefined {
  return rule === "negativeRatio" ? "ratio" : rule === "negativeXv" ? "xv" : undefined;
}

function samePair(a: [number, number][], b: [number, number][]): boolean {
  const key = (p: [number, number][]) => p.map(([r, c]) => `${r},${c}`).sort().join(";");
  return key(a) === key(b);
}

/** Every cell a constraint names. */
export function constraintCells(c: Constraint): Array<[number, number]> {
  const cells: Array<[number, number]> = [];
  if ("cells" in c) cells.push(...c.cells);
  if (c.type === "arrow") cells.push(...c.circle, ...c.line);
  if (c.type === "clone") cells.push(...c.clones);
  return cells;
}

/** The constraint a line of `kind` through `cells` is. */
export function lineConstraint(kind: LineKind, cells: Array<[number, number]>): Constraint {
  switch (kind) {
    case "thermometer":
      return { type: "thermometer", cells, slow: false };
    case "slowThermometer":
      return { type: "thermometer", cells, slow: true };
    case "arrow":
      return { type: "arrow", circle: cells.slice(0, 1), line: cells.slice(1) };
    case "germanWhispers":
      return { type: "whispers", cells, difference: 5 };
    case "dutchWhispers":
      return { type: "whispers", cells, difference: 4 };
    default:
      return { type: kind, cells } as Constraint;
  }
}

/** The constraint a dot of `kind` between two cells is. */
export function dotConstraint(kind: DotKind, cells: [[number, number], [number, number]]): Constraint {
  switch (kind) {
    case "white":
      return { type: "difference", cells, value: 1 };
    case "black":
      return { type: "ratio", cells, value: 2 };
    case "x":
      return { type: "xv", cells, sum: 10 };
    case "v":
      return { type: "xv", cells, sum: 5 };
  }
}

/** The number an outside clue shows. */
function clueNumber(c: Constraint): number {
  if (c.type === "skyscraper") return c.count;
  if (c.type === "sandwich" || c.type === "xSum" || c.type === "littleKiller") return c.sum;
  return 0;
}

/** The constraint an outside clue of `kind` over `cells` (read from `place`) is. */
export function outsideClue(kind: Exclude<ClueKind, "quadruple">, cells: Array<[number, number]>, clue: [number, number], value: number): Constraint {
  if (kind === "skyscraper") return { type: "skyscraper", cells, count: value, clue };
  return { type: kind, cells, sum: value, clue };
}
