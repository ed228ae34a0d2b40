import { expect, test } from "vitest";
import { gradeSentence, offeredDifficulties, tierLabel } from "./tiers";
import type { Manifest } from "../protocol";

test("difficulties say what they need; unknown ones stay as they are", () => {
  expect(tierLabel("easy")).toBe("easy — singles");
  expect(tierLabel("extreme")).toBe("extreme — chains");
  expect(tierLabel("nightmare")).toBe("nightmare");
});

test("a parameter set offers only the difficulties with a clue range for it", () => {
  const range = (box: string, difficulty: string) => ({ when: { box }, difficulty, min: 1, max: 2 });
  const manifest: Manifest = {
    id: "classic",
    name: "Classic",
    rules: "",
    params: [{ key: "box", name: "Box", default: "3x3", allowed: ["2x2", "3x3"], labels: [] }],
    difficulties: ["easy", "medium", "hard", "extreme"],
    clues: [range("2x2", "easy"), ...["easy", "medium", "hard", "extreme"].map((d) => range("3x3", d))],
  };
  expect(offeredDifficulties(manifest, { box: "2x2" })).toEqual(["easy"]);
  expect(offeredDifficulties(manifest, {})).toEqual(["easy", "medium", "hard", "extreme"]);
  expect(offeredDifficulties({ ...manifest, clues: [] }, { box: "2x2" })).toEqual(manifest.difficulties);
});

test("a grade reads as a sentence, also when only its tier is proved", () => {
  expect(gradeSentence({ tier: "hard", rating: "3.2", hardest: "X-Wing" })).toBe("A hard puzzle; its hardest step: X-Wing (rating 3.2).");
  expect(gradeSentence({ tier: "extreme", rating: "", hardest: "" })).toBe("An extreme puzzle: the hard techniques alone cannot finish it.");
});
