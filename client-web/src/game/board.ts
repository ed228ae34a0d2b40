// The player's board: values, pencil marks (corner and centre), the selection,
// and undo/redo. Pure state, no DOM and no network: every edit returns the
// changes it made, and the caller decides what to send to the server.

import type { Cell, Geometry } from "./geometry";
import { PALETTE } from "./palette";

/** What one cell holds. Marks are bitmasks: bit `v - 1` is candidate `v`; colours bit `k - 1` is palette colour `k`. */
export interface CellState {
  value: number;
  corner: number;
  centre: number;
  colour: number;
}

/** One cell's change, with its state before and after. */
export interface Change {
  cell: Cell;
  before: CellState;
  after: CellState;
}

/** How a typed symbol is entered. */
export type EntryMode = "value" | "corner" | "centre" | "colour";

/** The board of one player (or of the team, in co-op). */
export class Board {
  readonly geometry: Geometry;
  values: number[];
  corner: number[];
  centre: number[];
  /** Colour highlights (a player's own notes, givens included). */
  colour: number[];
  /** Selected cells; the last one is the cursor. */
  selection: Cell[] = [];
  /**
   * Where a placed digit also goes out of the pencil marks (the cells that see
   * the placed one); none when unset. On by default in the game, an option.
   */
  clearMarksIn?: (cell: Cell) => Iterable<Cell>;
  private undoStack: Change[][] = [];
  private redoStack: Change[][] = [];

  constructor(geometry: Geometry, values?: number[]) {
    this.geometry = geometry;
    const n = geometry.rows * geometry.cols;
    this.values = values ? [...values] : [...geometry.givens];
    this.corner = new Array<number>(n).fill(0);
    this.centre = new Array<number>(n).fill(0);
    this.colour = new Array<number>(n).fill(0);
    const first = geometry.cells.find((c) => geometry.givens[c] === 0) ?? geometry.cells[0];
    if (first !== undefined) this.selection = [first];
  }

  /** The cursor: the last selected cell. */
  get cursor(): Cell | undefined {
    return this.selection[this.selection.length - 1];
  }

  /** Whether `cell` holds a given. */
  isGiven(cell: Cell): boolean {
    return this.geometry.givens[cell] !== 0;
  }

  /** Cells filled (givens included). */
  filled(): number {
    return this.geometry.cells.filter((c) => this.values[c] !== 0).length;
  }

  /** Whether every active cell holds a value. */
  complete(): boolean {
    return this.geometry.cells.every((c) => this.values[c] !== 0);
  }

  /** The state of one cell. */
  cellState(cell: Cell): CellState {
    return { value: this.values[cell], corner: this.corner[cell], centre: this.centre[cell], colour: this.colour[cell] };
  }

  /** Selects nothing (typing then changes nothing). */
  clearSelection() {
    this.selection = [];
  }

  /** Selects every active cell, the current cursor last (it stays the cursor). */
  selectAll() {
    const cursor = this.cursor;
    this.selection = this.geometry.cells.filter((c) => c !== cursor);
    if (cursor !== undefined) this.selection.push(cursor);
  }

  /** Selects only `cell` (if active). */
  select(cell: Cell) {
    if (this.geometry.active[cell]) this.selection = [cell];
  }

  /** Adds `cell` to the selection, or removes it (Ctrl+click) when `toggle`. */
  extend(cell: Cell, toggle = false) {
    if (!this.geometry.active[cell]) return;
    const at = this.selection.indexOf(cell);
    if (at >= 0) {
      if (toggle && this.selection.length > 1) this.selection.splice(at, 1);
      else if (!toggle) this.selection.push(...this.selection.splice(at, 1));
      return;
    }
    this.selection.push(cell);
  }

  /**
   * Moves the cursor by (dr, dc), skipping holes and wrapping around the layout;
   * `extend` keeps the rest of the selection.
   */
  move(dr: number, dc: number, extend = false) {
    const { rows, cols, active } = this.geometry;
    const from = this.cursor;
    if (from === undefined) return;
    let r = Math.floor(from / cols);
    let c = from % cols;
    for (let step = 0; step < rows * cols; step++) {
      r = (r + dr + rows) % rows;
      c = (c + dc + cols) % cols;
      if (active[r * cols + c]) break;
    }
    const to = r * cols + c;
    if (extend) this.extend(to);
    else this.select(to);
  }

  /**
   * Enters `value` in the selected cells the way `mode` says: a value (typing the
   * value every selected cell already holds clears it), or a corner or centre
   * mark (toggled: removed if every selected empty cell has it, else added).
   */
  enter(value: number, mode: EntryMode): Change[] {
    if (mode === "colour") return this.toggleColour(value);
    if (value < 1 || value > this.geometry.size) return [];
    const cells = this.selection.filter((c) => !this.isGiven(c));
    if (mode === "value") {
      const clear = cells.length > 0 && cells.every((c) => this.values[c] === value);
      const targets = new Map(cells.map((c) => [c, { ...this.cellState(c), cell: c, value: clear ? 0 : value }]));
      if (!clear && this.clearMarksIn) {
        // One step (one undo): the digit, and the same digit out of its peers' marks.
        const bit = 1 << (value - 1);
        for (const c of cells) {
          for (const p of this.clearMarksIn(c)) {
            if (targets.has(p) || this.values[p] !== 0 || ((this.corner[p] | this.centre[p]) & bit) === 0) continue;
            targets.set(p, { ...this.cellState(p), corner: this.corner[p] & ~bit, centre: this.centre[p] & ~bit, cell: p });
          }
        }
      }
      return this.commit([...targets.values()]);
    }
    const empty = cells.filter((c) => this.values[c] === 0);
    const bit = 1 << (value - 1);
    const key = mode === "corner" ? "corner" : "centre";
    const remove = empty.length > 0 && empty.every((c) => (this[key][c] & bit) !== 0);
    return this.commit(
      empty.map((c) => {
        const state = { ...this.cellState(c), cell: c };
        state[key] = remove ? state[key] & ~bit : state[key] | bit;
        return state;
      }),
    );
  }

  /**
   * A hint's step, as one undoable step: `value` placed in `cell` (if any;
   * with the digit out of its peers' marks, as typing it does) and each
   * `[cell, value]` of `eliminations` out of that cell's corner and centre marks.
   */
  applyStep(cell: Cell, value: number | null, eliminations: Array<[Cell, number]>): Change[] {
    const targets = new Map<Cell, CellState & { cell: Cell }>();
    const state = (c: Cell) => targets.get(c) ?? { ...this.cellState(c), cell: c };
    if (value !== null && value >= 1 && value <= this.geometry.size && !this.isGiven(cell)) {
      targets.set(cell, { ...state(cell), value });
      const bit = 1 << (value - 1);
      for (const p of this.clearMarksIn?.(cell) ?? []) {
        if (p === cell || this.values[p] !== 0) continue;
        const s = state(p);
        targets.set(p, { ...s, corner: s.corner & ~bit, centre: s.centre & ~bit });
      }
    }
    for (const [c, v] of eliminations) {
      if (this.values[c] !== 0 || v < 1 || v > this.geometry.size) continue;
      const s = state(c);
      const bit = 1 << (v - 1);
      targets.set(c, { ...s, corner: s.corner & ~bit, centre: s.centre & ~bit });
    }
    return this.commit([...targets.values()]);
  }

  /** Sets the centre marks of every empty cell to `marksOf(cell)`, as one undoable step. */
  fillCentre(marksOf: (cell: Cell) => number): Change[] {
    const empty = this.geometry.cells.filter((c) => this.values[c] === 0);
    return this.commit(empty.map((c) => ({ ...this.cellState(c), cell: c, centre: marksOf(c) })));
  }

  /** Colour `k` on the selected cells (givens too), or off if they all have it. */
  private toggleColour(k: number): Change[] {
    if (k < 1 || k > PALETTE.length) return [];
    const bit = 1 << (k - 1);
    const cells = this.selection;
    const remove = cells.length > 0 && cells.every((c) => (this.colour[c] & bit) !== 0);
    return this.commit(cells.map((c) => ({ ...this.cellState(c), cell: c, colour: remove ? this.colour[c] & ~bit : this.colour[c] | bit })));
  }

  /**
   * Clears the selected cells: their values, or (where empty) their marks; in
   * colour mode their colours.
   */
  erase(mode?: EntryMode): Change[] {
    if (mode === "colour") return this.commit(this.selection.map((c) => ({ ...this.cellState(c), cell: c, colour: 0 })));
    const cells = this.selection.filter((c) => !this.isGiven(c));
    const anyValue = cells.some((c) => this.values[c] !== 0);
    return this.commit(
      cells.map((c) =>
        anyValue
          ? { ...this.cellState(c), cell: c, value: 0 }
          : { ...this.cellState(c), cell: c, corner: 0, centre: 0 },
      ),
    );
  }

  /** Undoes the last edit; returns what changed (to send on). */
  undo(): Change[] {
    const step = this.undoStack.pop();
    if (!step) return [];
    this.redoStack.push(step);
    const back = step.map((ch) => ({ cell: ch.cell, before: ch.after, after: ch.before })).reverse();
    back.forEach((ch) => this.write(ch.cell, ch.after));
    return back;
  }

  /** Redoes the last undone edit; returns what changed. */
  redo(): Change[] {
    const step = this.redoStack.pop();
    if (!step) return [];
    this.undoStack.push(step);
    step.forEach((ch) => this.write(ch.cell, ch.after));
    return step;
  }

  /**
   * Writes a change that came from elsewhere (the server: a snapshot, a
   * teammate's edit, a hint); it is not undoable.
   */
  apply(cell: Cell, state: Partial<CellState>) {
    this.write(cell, { ...this.cellState(cell), ...state });
  }

  private commit(targets: Array<CellState & { cell: Cell }>): Change[] {
    const changes: Change[] = [];
    for (const { cell, value, corner, centre, colour } of targets) {
      const before = this.cellState(cell);
      const after = { value, corner, centre, colour };
      if (before.value === value && before.corner === corner && before.centre === centre && before.colour === colour) continue;
      this.write(cell, after);
      changes.push({ cell, before, after });
    }
    if (changes.length > 0) {
      this.undoStack.push(changes);
      this.redoStack = [];
    }
    return changes;
  }

  private write(cell: Cell, state: CellState) {
    this.values[cell] = state.value;
    this.corner[cell] = state.corner;
    this.centre[cell] = state.centre;
    this.colour[cell] = state.colour;
  }
}
