import { expect, test } from "vitest";
import type { PuzzleV1, RaceReview, ReviewRacer, ReviewStep } from "../protocol";
import { boardAt, resultText, seconds, reviewFromHash, reviewLink, slowest, stepAt, stepText, tierRows, wrongAt } from "./review";

function step(at_ms: number, act: ReviewStep["act"], row: number, col: number, value: number, tier: string | null = null): ReviewStep {
  return { at_ms, took_ms: 0, act, row, col, value, technique: tier ? "Hidden Single" : null, tier };
}

function racer(name: string, place: number | null, steps: ReviewStep[], by_tier: ReviewRacer["by_tier"]): ReviewRacer {
  return { name, place, time_ms: place === null ? null : 60_000 * place, penalty_ms: 0, mistakes: 0, hints: 0, forfeited: place === null, steps, by_tier };
}

/** A 1x3 "puzzle": the first cell given. */
function review(racers: ReviewRacer[]): RaceReview {
  const puzzle = { format: "sudoku-arena/puzzle@1", size: 3, layout: { rows: 1, cols: 3 }, houses: [], grid: [[1, 0, 0]] } as unknown as PuzzleV1;
  return { id: "abcdefABCDEF", variant: "classic", params: {}, difficulty: "easy", at_ms: 0, puzzle, racers };
}

test("the share link's fragment names the review; nothing else does", () => {
  expect(reviewLink("https://x.org", "/", "abcdefABCDE1")).toBe("https://x.org/#review-abcdefABCDE1");
  expect(reviewFromHash("#review-abcdefABCDE1")).toBe("abcdefABCDE1");
  for (const h of ["#review-short", "#ABCDEF", "", "#review-abcdefABCDE1x"]) expect(reviewFromHash(h)).toBeUndefined();
});

test("a racer's board at a moment of the replay: givens, digits by then, a mistake until erased", () => {
  const ada = racer("Ada", 1, [step(1000, "mistake", 0, 1, 3), step(2000, "erased", 0, 1, 0), step(3000, "placed", 0, 1, 2, "easy"), step(4000, "placed", 0, 2, 3, "easy")], []);
  const r = review([ada]);
  expect(boardAt(r, ada, 0)).toEqual([1, 0, 0]);
  expect(boardAt(r, ada, 1500)).toEqual([1, 3, 0]);
  expect([...wrongAt(r, ada, 1500)]).toEqual([1]);
  expect(boardAt(r, ada, 2500)).toEqual([1, 0, 0]);
  expect(wrongAt(r, ada, 2500).size).toBe(0);
  expect(boardAt(r, ada, 9999)).toEqual([1, 2, 3]);
  expect(stepAt(ada, 500)).toBe(-1);
  expect(stepAt(ada, 3000)).toBe(2);
});

test("steps and results in words", () => {
  expect(seconds(3240)).toBe("3.2 s");
  expect(stepText(step(0, "placed", 2, 4, 7, "easy"))).toBe("r3c5 = 7 · Hidden Single (easy)");
  expect(stepText(step(0, "placed", 0, 0, 7))).toContain("no technique");
  expect(stepText(step(0, "mistake", 0, 0, 4))).toBe("r1c1 = 4 · wrong");
  expect(stepText(step(0, "hint", 1, 1, 0))).toBe("Hint about r2c2");
  expect(resultText(racer("Bob", 2, [], []))).toBe("2nd · 2:00");
  expect(resultText(racer("Cy", null, [], []))).toBe("left the race");
});

test("where the time went: tiers racer by racer, the quickest per digit marked, empty tiers left out", () => {
  const ada = racer("Ada", 1, [], [{ tier: "easy", digits: 40, ms: 80_000 }, { tier: "hard", digits: 2, ms: 60_000 }]);
  const bob = racer("Bob", 2, [], [{ tier: "easy", digits: 41, ms: 61_500 }, { tier: "", digits: 1, ms: 90_000 }]);
  const rows = tierRows(review([ada, bob]));
  expect(rows.map((r) => r.label)).toEqual(["Easy", "Hard", "No technique here"]);
  expect(rows[0].quickest).toBe(1);
  expect(rows[1].cells).toEqual([{ digits: 2, ms: 60_000 }, undefined]);
  expect(rows[1].quickest).toBe(0);
});

test("the longest waits for a right digit, longest first", () => {
  const steps = [step(0, "placed", 0, 0, 1), step(0, "mistake", 0, 1, 1), step(0, "placed", 0, 2, 1)];
  steps[0].took_ms = 5000;
  steps[1].took_ms = 99_000;
  steps[2].took_ms = 9000;
  const r = racer("Ada", 1, steps, []);
  expect(slowest(r, 2).map((s) => s.took_ms)).toEqual([9000, 5000]);
});
