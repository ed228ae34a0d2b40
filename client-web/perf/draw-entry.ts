// The page side of the draw benchmark (perf/draw.ts bundles it): builds the
// real board view for a puzzle and times, in the browser, what a move costs —
// the client's own work (conflicts, both changing layers) and the style and
// layout it forces — frame after frame.

import { conflicts, peersOf } from "../src/game/conflicts";
import { geometryOf } from "../src/game/geometry";
import type { PuzzleV1 } from "../src/protocol";
import { BoardView } from "../src/ui/board-view";

/** Per-frame times (ms) of `frames` moves on `puzzle`, and the first draw's. */
function drawBench(puzzle: PuzzleV1, solution: number[], frames: number): { first: number; frames: number[] } {
  const host = document.getElementById("board") as HTMLElement;
  const t0 = performance.now();
  const g = geometryOf(puzzle);
  const view = new BoardView(g, { select: () => {} });
  host.replaceChildren(view.svg);
  const values = [...g.givens];
  const paint = (cursor: number) => ({
    values,
    corner: values.map(() => 0),
    centre: values.map(() => 0),
    selection: new Set([cursor]),
    peers: peersOf(g, cursor),
    highlight: values[cursor],
    conflicts: conflicts(g, values),
    wrong: new Set<number>(),
    cursors: [],
    cursor,
    editable: true,
  });
  view.paint(paint(g.cells[0]));
  host.getBoundingClientRect();
  const first = performance.now() - t0;
  const empty = g.cells.filter((c) => g.givens[c] === 0);
  const times: number[] = [];
  for (let i = 0; i < frames; i++) {
    const cell = empty[i % empty.length];
    // Place the right digit, or (every other pass) take it back.
    values[cell] = Math.floor(i / empty.length) % 2 === 0 ? solution[cell] : 0;
    const start = performance.now();
    view.paint(paint(cell));
    // Force the style and layout the browser would do before painting.
    view.svg.getBoundingClientRect();
    getComputedStyle(view.svg).opacity;
    times.push(performance.now() - start);
  }
  return { first, frames: times };
}

(window as unknown as { drawBench: typeof drawBench }).drawBench = drawBench;
