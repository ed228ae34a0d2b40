import { describe, expect, it } from "vitest";
import { cageOf, cageSets, digitSets } from "./combos";
import type { CageShape } from "./geometry";

const cage = (cells: number[], sum: number): CageShape => ({ cells, sum, labelCell: cells[0], outline: [] });

describe("digitSets", () => {
  it("lists the sets a killer player knows", () => {
    expect(digitSets(2, 3, 9)).toEqual([[1, 2]]);
    expect(digitSets(3, 24, 9)).toEqual([[7, 8, 9]]);
    expect(digitSets(2, 10, 9)).toEqual([
      [1, 9],
      [2, 8],
      [3, 7],
      [4, 6],
    ]);
    expect(digitSets(9, 45, 9)).toEqual([[1, 2, 3, 4, 5, 6, 7, 8, 9]]);
    expect(digitSets(2, 2, 9)).toEqual([]);
    expect(digitSets(2, 11, 6)).toEqual([[5, 6]]);
  });
});

describe("cageSets", () => {
  it("keeps the sets holding every digit already in the cage", () => {
    const values = new Array(9).fill(0);
    const c = cage([0, 1, 2], 15);
    expect(cageSets(c, values, 9).every((s) => s.possible)).toBe(true);
    values[1] = 9;
    const left = cageSets(c, values, 9).filter((s) => s.possible).map((s) => s.digits.join(""));
    expect(left).toEqual(["159", "249"]);
    values[2] = 9;
    expect(cageSets(c, values, 9).some((s) => s.possible)).toBe(false);
  });

  it("finds a cell's cage", () => {
    const cages = [cage([0, 1], 3), cage([2, 3], 7)];
    expect(cageOf(cages, 3)?.sum).toBe(7);
    expect(cageOf(cages, 5)).toBeUndefined();
    expect(cageOf(cages, undefined)).toBeUndefined();
  });
});
