import { describe, expect, test } from "vitest";
import type { PuzzleV1 } from "../protocol";
import { lineConstraint, SetterState } from "./setter";
import { draftFromHash, setterLink } from "./setter-link";

/** A 4x4 classic template: rows, columns, 2x2 boxes, nothing given. */
function template4(): PuzzleV1 {
  const houses: PuzzleV1["houses"] = [];
  for (let i = 0; i < 4; i++) {
    houses.push({ kind: "row", cells: [0, 1, 2, 3].map((j) => [i, j] as [number, number]) });
    houses.push({ kind: "column", cells: [0, 1, 2, 3].map((j) => [j, i] as [number, number]) });
    const [r, c] = [Math.floor(i / 2) * 2, (i % 2) * 2];
    houses.push({ kind: "region", cells: [0, 1, 2, 3].map((j) => [r + Math.floor(j / 2), c + (j % 2)] as [number, number]) });
  }
  return { format: "sudoku-arena/puzzle@1", size: 4, layout: { rows: 4, cols: 4 }, houses, grid: [[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]] } as PuzzleV1;
}

function setter(): SetterState {
  const s = new SetterState();
  s.start(template4(), "jigsaw", {});
  return s;
}

describe("the setter's cages", () => {
  test("a typed total starts a cage; a second digit soon after makes it two digits", () => {
    const s = setter();
    s.cursor = 0;
    s.typeTotal(1, 1000);
    s.typeTotal(2, 1500);
    expect(s.draft?.cages).toEqual([{ cells: [[0, 0]], sum: 12 }]);
    // Later, a digit starts the total again.
    s.typeTotal(7, 9000);
    expect(s.draft?.cages[0].sum).toBe(7);
  });

  test("L, U, R, D join the cage to the one beside it, keeping its total", () => {
    const s = setter();
    s.cursor = 0;
    s.typeTotal(3, 0);
    s.cursor = 1;
    expect(s.join("L")).toBe(true);
    expect(s.draft?.cages).toEqual([{ cells: [[0, 0], [0, 1]], sum: 3 }]);
    s.cursor = 5;
    expect(s.join("u")).toBe(true);
    expect(s.draft?.cages[0].cells).toHaveLength(3);
    // Off the board, or into its own cage: nothing.
    s.cursor = 0;
    expect(s.join("U")).toBe(false);
    expect(s.join("R")).toBe(false);
    // Two cages merge; the joined one's total wins.
    s.cursor = 3;
    s.typeTotal(4, 100_000);
    s.cursor = 2;
    s.join("R");
    expect(s.draft?.cages).toEqual([{ cells: [[0, 0], [0, 1], [1, 1]], sum: 3 }, { cells: [[0, 3], [0, 2]], sum: 4 }]);
    s.uncage();
    expect(s.draft?.cages[1].cells).toEqual([[0, 3]]);
  });

  test("a cage without a total goes to the server as a cage constraint; undo brings edits back", () => {
    const s = setter();
    s.cagePath([0, 1, 2]);
    expect(s.toDraft()?.cages).toEqual([]);
    expect(s.toDraft()?.constraints).toEqual([{ type: "cage", cells: [[0, 0], [0, 1], [0, 2]] }]);
    s.cursor = 0;
    s.typeTotal(6, 0);
    expect(s.toDraft()?.cages).toEqual([{ cells: [[0, 0], [0, 1], [0, 2]], sum: 6 }]);
    expect(s.undo()).toBe(true);
    expect(s.draft?.cages[0].sum).toBe(0);
    expect(s.redo()).toBe(true);
    expect(s.draft?.cages[0].sum).toBe(6);
  });
});

describe("the setter's other tools", () => {
  test("regions repaint from the template's; lines, dots and marks become constraints", () => {
    const s = setter();
    expect(s.hasRegions).toBe(true);
    s.paintRegion([0, 1], 4);
    expect(s.draft?.regions[0]).toEqual([4, 4, 2, 2]);
    expect(s.regionOf(0)).toBe(4);
    s.lineKind = "arrow";
    s.linePath([0, 1, 2]);
    expect(s.draft?.constraints.at(-1)).toEqual({ type: "arrow", circle: [[0, 0]], line: [[0, 1], [0, 2]] });
    s.dotKind = "black";
    s.dotPath([4, 5]);
    s.dotPath([4, 6]);
    expect(s.draft?.constraints.filter((c) => c.type === "ratio")).toHaveLength(1);
    s.cellKind = "even";
    s.toggleCellMark(15);
    expect(s.draft?.constraints.some((c) => c.type === "even")).toBe(true);
    s.toggleCellMark(15);
    expect(s.draft?.constraints.some((c) => c.type === "even")).toBe(false);
    s.eraseAt(1);
    expect(s.draft?.constraints.some((c) => c.type === "arrow")).toBe(false);
    s.setRule("antiKing", true);
    expect(s.hasRule("antiKing")).toBe(true);
    // The two negative rules are one constraint.
    s.setRule("negativeXv", true);
    s.setRule("negativeRatio", true);
    expect(s.draft?.constraints.filter((c) => c.type === "negative")).toEqual([{ type: "negative", ratio: true, xv: true }]);
    s.setRule("negativeXv", false);
    expect(s.hasRule("negativeXv")).toBe(false);
    expect(s.hasRule("negativeRatio")).toBe(true);
    s.setRule("negativeRatio", false);
    expect(s.draft?.constraints.some((c) => c.type === "negative")).toBe(false);
    expect(lineConstraint("germanWhispers", [[0, 0], [0, 1]])).toEqual({ type: "whispers", cells: [[0, 0], [0, 1]], difference: 5 });
  });

  test("an outside clue: a drag inwards from an edge, then its number", () => {
    const s = setter();
    // Row 2 read from the left: a sandwich of 5.
    expect(s.cluePath([4, 5, 6])).toBe(true);
    s.typeClue(5, 0);
    expect(s.draft?.constraints.at(-1)).toEqual({ type: "sandwich", cells: [[1, 0], [1, 1], [1, 2], [1, 3]], sum: 5, clue: [1, -1] });
    // A column from below, two digits quickly: a skyscraper of 12 (the server judges its range).
    s.clueKind = "skyscraper";
    expect(s.cluePath([15, 11])).toBe(true);
    s.typeClue(1, 0);
    s.typeClue(2, 500);
    expect(s.draft?.constraints.at(-1)).toEqual({ type: "skyscraper", cells: [[3, 3], [2, 3], [1, 3], [0, 3]], count: 12, clue: [4, 3] });
    expect(s.awaitingClue).toBe(false);
    // A little killer goes along a diagonal; not from the middle, not crooked.
    s.clueKind = "littleKiller";
    expect(s.cluePath([5, 10])).toBe(false);
    expect(s.cluePath([0, 6])).toBe(false);
    expect(s.cluePath([0, 5, 10])).toBe(true);
    s.typeClue(9, 0);
    expect(s.draft?.constraints.at(-1)).toEqual({ type: "littleKiller", cells: [[0, 0], [1, 1], [2, 2], [3, 3]], sum: 9, clue: [-1, -1] });
    // A quadruple: one click on a 2x2's top-left cell, then its digits (four at most).
    s.clueKind = "quadruple";
    expect(s.cluePath([15])).toBe(false);
    expect(s.cluePath([5])).toBe(true);
    for (const d of [1, 3, 3, 4, 2]) s.typeClue(d, 0);
    expect(s.draft?.constraints.filter((c) => c.type === "quadruple")).toEqual([{ type: "quadruple", cells: [[1, 1], [1, 2], [2, 1], [2, 2]], values: [1, 3, 3, 4] }]);
  });

  test("a draft travels in a link and comes back the same", () => {
    const s = setter();
    s.cursor = 5;
    s.setGiven(3);
    s.cagePath([0, 4]);
    const draft = s.draft;
    if (!draft) throw new Error("no draft");
    const link = setterLink("https://example.org/", draft);
    expect(link.startsWith("https://example.org/#set=")).toBe(true);
    expect(draftFromHash(link.slice(link.indexOf("#")))).toEqual(draft);
    expect(draftFromHash("#set=not-json")).toBeUndefined();
    expect(draftFromHash("#ABCDEF")).toBeUndefined();
  });
});
