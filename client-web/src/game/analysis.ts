// The step-through solver's state, without the page: the boards an analysis
// passes through (its start, then each step's changed cells), where the player
// is (Next, Undo, Finish), and what to highlight for the step shown.

import type { Analysis, AnalysisStep } from "../protocol";
import type { Cell } from "./geometry";

/** One position: every cell's value and candidates (bit `v - 1` for `v`). */
export interface Position {
  values: number[];
  candidates: number[];
}

/** What the board shows for the step about to be taken. */
export interface StepMarks {
  /** The houses (or pattern cells) it looks at. */
  area: Set<Cell>;
  /** The cell it places a value in, if any. */
  placed?: Cell;
  /** Candidates it removes, per cell (bit masks). */
  removed: Map<Cell, number>;
  /** Candidates of its pattern, per cell. */
  pattern: Map<Cell, number>;
  /** A killer step's cage (real, or the 45 rule's virtual one). */
  cage: Cell[];
}

/** The analysis being stepped through. */
export class AnalysisState {
  /** `positions[i]`: the board before step `i` (the last: after every step). */
  readonly positions: Position[];
  /** How many steps are taken. */
  at = 0;

  constructor(
    readonly analysis: Analysis,
    readonly cols: number,
    cells: number,
  ) {
    const start: Position = { values: new Array<number>(cells).fill(0), candidates: new Array<number>(cells).fill(0) };
    const apply = (p: Position, changes: number[][]) => {
      const next = { values: [...p.values], candidates: [...p.candidates] };
      for (const [r, c, v, m] of changes) {
        next.values[r * cols + c] = v;
        next.candidates[r * cols + c] = v === 0 ? m : 0;
      }
      return next;
    };
    this.positions = [apply(start, analysis.start)];
    for (const step of analysis.steps) this.positions.push(apply(this.positions[this.positions.length - 1], step.after));
  }

  get steps(): AnalysisStep[] {
    return this.analysis.steps;
  }

  /** The step shown: the next one to take (`undefined` at the end). */
  get current(): AnalysisStep | undefined {
    return this.steps[this.at];
  }

  /** The board now. */
  get position(): Position {
    return this.positions[this.at];
  }

  get done(): boolean {
    return this.at >= this.steps.length;
  }

  /** Takes the shown step. */
  next() {
    if (!this.done) this.at++;
  }

  /** Takes back the last step. */
  undo() {
    if (this.at > 0) this.at--;
  }

  /** Takes every step left. */
  finish() {
    this.at = this.steps.length;
  }

  /** What to highlight for the shown step. */
  marks(): StepMarks {
    const step = this.current;
    const cell = ([r, c]: number[]) => r * this.cols + c;
    const byCell = (list: number[][]) => {
      const m = new Map<Cell, number>();
      for (const [r, c, v] of list) m.set(cell([r, c]), (m.get(cell([r, c])) ?? 0) | (1 << (v - 1)));
      return m;
    };
    if (!step) return { area: new Set(), removed: new Map(), pattern: new Map(), cage: [] };
    const placement = step.placements[0];
    return {
      area: new Set([...step.cells.map(cell), ...step.pattern.map(cell)]),
      placed: placement ? cell(placement) : undefined,
      removed: byCell(step.eliminations),
      pattern: byCell(step.pattern),
      cage: step.cage.map(cell),
    };
  }
}
