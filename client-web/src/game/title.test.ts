import { expect, test } from "vitest";
import type { Manifest } from "../protocol";
import { gameTitle, variantTitle } from "./title";

const gattai: Manifest = {
  id: "gattai",
  name: "Gattai",
  rules: "",
  params: [{ key: "mode", name: "Layout", default: "samurai", allowed: ["samurai", "twin-nw"], labels: ["Samurai", "Horizon"] }],
  difficulties: ["easy"],
  clues: [],
};

test("a parameter shows its display label, the default when unset", () => {
  expect(variantTitle(gattai, { variant: "gattai", params: { mode: "twin-nw" } })).toBe("Gattai (Horizon)");
  expect(variantTitle(gattai, { variant: "gattai", params: {} })).toBe("Gattai (Samurai)");
});

test("values without labels show as themselves; unknown variants by id", () => {
  const classic: Manifest = { ...gattai, id: "classic", name: "Classic Sudoku", params: [{ key: "box", name: "Box", default: "3x3", allowed: ["3x3"] }] };
  expect(variantTitle(classic, { variant: "classic", params: {} })).toBe("Classic Sudoku (3x3)");
  expect(variantTitle(undefined, { variant: "mystery", params: {} })).toBe("mystery");
});

test("a yes/no parameter shows only when on", () => {
  const killer: Manifest = {
    ...gattai,
    id: "killer",
    name: "Killer Sudoku",
    params: [
      { key: "size", name: "Size", default: "9x9", allowed: ["9x9", "6x6"] },
      { key: "diagonals", name: "Diagonals", default: false, allowed: [false, true], labels: ["No", "Killer-X"] },
    ],
  };
  expect(variantTitle(killer, { variant: "killer", params: {} })).toBe("Killer Sudoku (9x9)");
  expect(variantTitle(killer, { variant: "killer", params: { diagonals: true } })).toBe("Killer Sudoku (9x9, Killer-X)");
  const plain = { ...killer, params: [{ key: "diagonals", name: "Diagonals", default: false, allowed: [false, true] }] };
  expect(variantTitle(plain, { variant: "killer", params: { diagonals: true } })).toBe("Killer Sudoku (Diagonals)");
});

test("a game's title says its size unless the name does", () => {
  const nine = { rows: 9, cols: 9, size: 9 };
  expect(gameTitle("Windoku", nine)).toBe("Windoku 9x9");
  expect(gameTitle("Classic Sudoku (16x16)", { rows: 16, cols: 16, size: 16 })).toBe("Classic Sudoku (16x16)");
  expect(gameTitle("Gattai (Samurai)", { rows: 21, cols: 21, size: 9 })).toBe("Gattai (Samurai)");
  expect(gameTitle("Windoku", undefined)).toBe("Windoku");
});

test("a label's own parentheses become a comma inside the title's", () => {
  const classic: Manifest = {
    ...gattai,
    id: "classic",
    name: "Classic Sudoku",
    params: [{ key: "box", name: "Box", default: "2x2", allowed: ["2x2"], labels: ["4x4 (2x2 boxes)"] }],
  };
  expect(variantTitle(classic, { variant: "classic", params: {} })).toBe("Classic Sudoku (4x4, 2x2 boxes)");
});
