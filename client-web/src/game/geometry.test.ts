import { describe, expect, test } from "vitest";
import { classic, jigsawFixture, killerFixture, samuraiFixture } from "../../test/fixtures";
import { cageOutline, CAGE_INSET, geometryOf, valueOfSymbol } from "./geometry";

describe("lines", () => {
  test("a 9x9 has box borders thick and the rest thin, each edge once", () => {
    const g = geometryOf(classic(3, 3));
    // 2 * 10 lines of 9 unit edges in all; the outer 4 and the 4 inner box lines are thick.
    expect(g.thickLines.length + g.thinLines.length).toBe(2 * 10 * 9);
    expect(g.thickLines).toHaveLength(8 * 9);
    expect(g.thickLines).toContainEqual({ x1: 3, y1: 0, x2: 3, y2: 1 });
    expect(g.thinLines).toContainEqual({ x1: 1, y1: 0, x2: 1, y2: 1 });
  });

  test("Mini 6x6 boxes are 2 rows by 3 columns", () => {
    const g = geometryOf(classic(2, 3));
    expect(g.thickLines).toContainEqual({ x1: 3, y1: 0, x2: 3, y2: 1 });
    expect(g.thickLines).toContainEqual({ x1: 0, y1: 2, x2: 1, y2: 2 });
    expect(g.thinLines).toContainEqual({ x1: 2, y1: 0, x2: 2, y2: 1 });
  });

  test("jigsaw regions get thick borders where regions meet", () => {
    const g = geometryOf(jigsawFixture());
    // A (0,0)-(0,2) and B (0,3): thick between columns 2 and 3; inside A thin.
    expect(g.thickLines).toContainEqual({ x1: 3, y1: 0, x2: 3, y2: 1 });
    expect(g.thinLines).toContainEqual({ x1: 1, y1: 0, x2: 1, y2: 1 });
    // (2,1) is D under A's (1,1): thick.
    expect(g.thickLines).toContainEqual({ x1: 1, y1: 2, x2: 2, y2: 2 });
  });

  test("samurai holes are not cells and are outlined", () => {
    const g = geometryOf(samuraiFixture());
    expect(g.cells).toHaveLength(369);
    expect(g.active[0 * 21 + 10]).toBe(false);
    expect(g.active[6 * 21 + 10]).toBe(true);
    // The hole above the centre grid: the top of (6,10) is an outer edge.
    expect(g.thickLines).toContainEqual({ x1: 10, y1: 6, x2: 11, y2: 6 });
    // The shared corner box (6..8, 6..8) is one area: no thick line inside it.
    expect(g.thinLines).toContainEqual({ x1: 7, y1: 6, x2: 7, y2: 7 });
    // The outer edge follows the shape: the hole's border is on it, a box
    // border inside a grid is not, and nothing runs along the holes' far sides.
    expect(g.edgeLines).toContainEqual({ x1: 10, y1: 6, x2: 11, y2: 6 });
    expect(g.edgeLines).not.toContainEqual({ x1: 3, y1: 0, x2: 3, y2: 1 });
    expect(g.edgeLines.every((e) => g.thickLines.includes(e))).toBe(true);
    expect(g.edgeLines.some((e) => e.x1 === 0 && e.x2 === 0 && e.y1 === 10)).toBe(false);
  });

  test("a 9x9's outer edge is its 36 border segments", () => {
    const g = geometryOf(classic(3, 3));
    expect(g.edgeLines).toHaveLength(36);
  });

  test("diagonal houses are drawn corner to corner", () => {
    const p = classic(3, 3);
    p.houses.push({ kind: "diagonal", cells: Array.from({ length: 9 }, (_, i) => [i, 8 - i] as [number, number]) });
    expect(geometryOf(p).diagonals).toEqual([{ x1: 9, y1: 0, x2: 0, y2: 9 }]);
  });
});

describe("cages", () => {
  const d = CAGE_INSET;
  test("a single-cell cage is a small square", () => {
    expect(cageOutline([0], 9)).toEqual([
      { x1: d, y1: d, x2: 1 - d, y2: d },
      { x1: d, y1: 1 - d, x2: 1 - d, y2: 1 - d },
      { x1: d, y1: d, x2: d, y2: 1 - d },
      { x1: 1 - d, y1: d, x2: 1 - d, y2: 1 - d },
    ]);
  });

  test("an L-shaped cage meets itself at the concave corner", () => {
    // Cells (0,0), (1,0), (1,1): the inner corner is at (1,1).
    const lines = cageOutline([0, 9, 10], 9);
    // (0,0)'s right side runs down past the corner to meet (1,1)'s top side.
    expect(lines).toContainEqual({ x1: 1 - d, y1: d, x2: 1 - d, y2: 1 + d });
    expect(lines).toContainEqual({ x1: 1 - d, y1: 1 + d, x2: 2 - d, y2: 1 + d });
    // One segment per outward cell side: 3 + 2 + 3.
    expect(lines).toHaveLength(8);
  });

  test("killer fixture: every cell in one cage, sums add to 405, labels top-left", () => {
    const { puzzle } = killerFixture();
    const g = geometryOf(puzzle);
    const covered = g.cages.flatMap((c) => c.cells).sort((a, b) => a - b);
    expect(covered).toEqual(Array.from({ length: 81 }, (_, i) => i));
    expect(g.cages.reduce((s, c) => s + c.sum, 0)).toBe(405);
    for (const cage of g.cages) expect(cage.labelCell).toBe(Math.min(...cage.cells));
  });
});

test("symbols: 1-9 then letters, case-insensitive", () => {
  const g = geometryOf(classic(4, 4));
  expect(g.symbols.join("")).toBe("123456789ABCDEFG");
  expect(valueOfSymbol(g, "a")).toBe(10);
  expect(valueOfSymbol(g, "G")).toBe(16);
  expect(valueOfSymbol(g, "H")).toBe(0);
});

test("a cell outside the layout is an error", () => {
  const p = classic(2, 2);
  p.houses[0].cells[0] = [4, 0];
  expect(() => geometryOf(p)).toThrow(/outside the 4x4 layout/);
});

test("an extra house is shaded (an Asterisk), unless extra houses cover every cell", () => {
  const asterisk: Array<[number, number]> = [[1, 4], [2, 2], [2, 6], [4, 1], [4, 4], [4, 7], [6, 2], [6, 6], [7, 4]];
  const puzzle = classic(3, 3);
  const g = geometryOf({ ...puzzle, houses: [...puzzle.houses, { kind: "extra", cells: asterisk }] });
  expect([...g.shaded].sort((a, b) => a - b)).toEqual(asterisk.map(([r, c]) => r * 9 + c).sort((a, b) => a - b));
  // Disjoint groups: nine extra houses over the whole grid shade nothing.
  const groups = Array.from({ length: 9 }, (_, k) => ({
    kind: "extra" as const,
    cells: Array.from({ length: 9 }, (_, b) => [3 * Math.floor(b / 3) + Math.floor(k / 3), 3 * (b % 3) + (k % 3)] as [number, number]),
  }));
  expect(geometryOf({ ...puzzle, houses: [...puzzle.houses, ...groups] }).shaded.size).toBe(0);
});
