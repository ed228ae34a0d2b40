import { expect, test } from "vitest";
import { puzzleFromHash, puzzleLink } from "./puzzle-link";

test("a puzzle travels in the fragment and comes back whole", () => {
  const text = '{"format":"sudoku-arena/puzzle@1", "grid": [[0, 1]]}\n';
  const link = puzzleLink("https://arena.example/", text);
  expect(link.startsWith("https://arena.example/#puzzle=")).toBe(true);
  expect(puzzleFromHash(new URL(link).hash)).toBe(text.trim());
  expect(puzzleFromHash("#abc123")).toBeUndefined();
  expect(puzzleFromHash("#puzzle=%E0%A4%A")).toBeUndefined();
});
