import { expect, test } from "vitest";
import type { Analysis } from "../protocol";
import { AnalysisState } from "./analysis";

test("stepping through an analysis: next, undo and finish move between its positions", () => {
  // A 1x2 board: the first step places 1, the second removes a candidate.
  const analysis: Analysis = {
    start: [[0, 0, 0, 0b11], [0, 1, 0, 0b11]],
    steps: [
      { technique: "Naked Single", rating: "2.3", explanation: "r1c1 is 1", cells: [[0, 0]], pattern: [[0, 0, 1]], placements: [[0, 0, 1]], eliminations: [], cage: [], cage_sum: 0, after: [[0, 0, 1, 0], [0, 1, 0, 0b10]] },
      { technique: "Naked Single", rating: "2.3", explanation: "r1c2 is 2", cells: [[0, 1]], pattern: [[0, 1, 2]], placements: [[0, 1, 2]], eliminations: [[0, 1, 1]], cage: [[0, 0], [0, 1]], cage_sum: 3, after: [[0, 1, 2, 0]] },
    ],
    solved: true,
    grade: null,
  };
  const s = new AnalysisState(analysis, 2, 2);
  expect(s.position).toEqual({ values: [0, 0], candidates: [0b11, 0b11] });
  expect(s.marks().placed).toBe(0);
  s.next();
  expect(s.position).toEqual({ values: [1, 0], candidates: [0, 0b10] });
  const marks = s.marks();
  expect(marks.removed.get(1)).toBe(0b1);
  expect(marks.cage).toEqual([0, 1]);
  s.finish();
  expect(s.done).toBe(true);
  expect(s.position.values).toEqual([1, 2]);
  s.undo();
  s.undo();
  s.undo();
  expect(s.at).toBe(0);
});
