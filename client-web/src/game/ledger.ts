// What the server has confirmed of my board, and which of my changes are still
// on their way. The board shows a change at once; the ledger remembers the
// server's state of each cell, so a change the server refuses (or one lost with
// the connection) is put back to what the server has, never left on screen.

import type { Cell } from "./geometry";

/** The server's side of a board, cell by cell, and the requests not yet answered. */
export class Ledger {
  /** Values as the server last told them. */
  values: number[];
  /** Co-op corner marks as the server last told them. */
  corner: number[];
  private readonly inFlight = new Map<Cell, number>();
  /** Cells whose requests went out on a connection that has since dropped. */
  private orphaned = new Set<Cell>();

  constructor(values: number[], corner: number[]) {
    this.values = [...values];
    this.corner = [...corner];
  }

  /** A request that changes `cells` went out. */
  sent(cells: Cell[]) {
    for (const c of cells) this.inFlight.set(c, (this.inFlight.get(c) ?? 0) + 1);
  }

  /** A request on `cell` was answered; whether none is left for it (the board may show the server's state). */
  settle(cell: Cell): boolean {
    const left = (this.inFlight.get(cell) ?? 0) - 1;
    if (left > 0) this.inFlight.set(cell, left);
    else this.inFlight.delete(cell);
    return left <= 0;
  }

  /** Whether a request on `cell` is still unanswered. */
  pending(cell: Cell): boolean {
    return this.inFlight.has(cell);
  }

  /** The cells with unanswered requests. */
  pendingCells(): Cell[] {
    return [...this.inFlight.keys()];
  }

  /** A new connection: what went out on the old one will never be answered. */
  orphan() {
    for (const c of this.inFlight.keys()) this.orphaned.add(c);
    this.inFlight.clear();
  }

  /** Whether a request on `cell` went out on a connection that dropped, unanswered. */
  lost(cell: Cell): boolean {
    return this.orphaned.has(cell);
  }

  /**
   * A snapshot: the server's whole board. Requests of this connection still on
   * their way will be answered after it; those of a dropped one are settled by it.
   */
  reset(values: number[], corner: number[]) {
    this.values = [...values];
    this.corner = [...corner];
    this.orphaned.clear();
  }
}
