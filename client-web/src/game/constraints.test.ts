import { expect, test } from "vitest";
import { classic } from "../../test/fixtures";
import type { Constraint } from "../protocol";
import { conflicts } from "./conflicts";
import { arrowBroken, sandwichBroken, sumBroken, thermometerBroken } from "./constraints";
import { geometryOf } from "./geometry";
import { constraintCageAt, lineSumAt } from "./sums";

/** A 9x9 classic grid with `constraints`, and a board with `placed` ([row, col, digit]). */
function board(constraints: Constraint[], placed: Array<[number, number, number]>) {
  const g = geometryOf({ ...classic(3, 3), constraints });
  const values = new Array<number>(81).fill(0);
  for (const [r, c, v] of placed) values[r * 9 + c] = v;
  return { g, values, bad: [...conflicts(g, values)].sort((a, b) => a - b) };
}

test("a thermometer breaks when two digits are out of order or too close for the cells between", () => {
  expect(thermometerBroken([1, 0, 3], false)).toBe(false);
  expect(thermometerBroken([1, 0, 2], false)).toBe(true); // no digit fits between 1 and 2
  expect(thermometerBroken([5, 4], false)).toBe(true);
  expect(thermometerBroken([4, 4], true)).toBe(false); // slow: equal is fine
  const thermo: Constraint = { type: "thermometer", cells: [[0, 0], [0, 1], [0, 2]], slow: false };
  expect(board([thermo], [[0, 0, 6], [0, 2, 2]]).bad).toEqual([0, 2]);
  expect(board([thermo], [[0, 0, 2], [0, 2, 6]]).bad).toEqual([]);
});

test("an arrow breaks when its shaft passes its circle, or misses it when full", () => {
  expect(arrowBroken([9], [4, 0])).toBe(false);
  expect(arrowBroken([9], [9, 0])).toBe(true); // the empty cell adds at least 1
  expect(arrowBroken([1, 2], [5, 7])).toBe(false); // a pill reads 12
  // A pill reads in reading order, whatever order the file lists it in.
  const pill: Constraint = { type: "arrow", circle: [[0, 8], [0, 7]], line: [[1, 8], [2, 8]] };
  expect(board([pill], [[0, 7, 1], [0, 8, 2], [1, 8, 5], [2, 8, 7]]).bad).toEqual([]);
  expect(arrowBroken([0], [9, 9])).toBe(false); // nothing to compare yet
  const arrow: Constraint = { type: "arrow", circle: [[4, 4]], line: [[4, 5], [4, 6]] };
  expect(board([arrow], [[4, 4, 5], [4, 5, 3], [4, 6, 3]]).bad).toEqual([40, 41, 42]);
});

test("dots, X and V judge a filled pair; whispers and renban their lines", () => {
  const white: Constraint = { type: "difference", cells: [[0, 0], [0, 1]], value: 1 };
  const black: Constraint = { type: "ratio", cells: [[1, 0], [1, 1]], value: 2 };
  const x: Constraint = { type: "xv", cells: [[2, 0], [2, 1]], sum: 10 };
  expect(board([white, black, x], [[0, 0, 4], [0, 1, 5], [1, 0, 3], [1, 1, 6], [2, 0, 2], [2, 1, 8]]).bad).toEqual([]);
  expect(board([white, black, x], [[0, 0, 4], [0, 1, 6], [1, 0, 3], [1, 1, 5], [2, 0, 2], [2, 1, 7]]).bad).toEqual([0, 1, 9, 10, 18, 19]);
  const whispers: Constraint = { type: "whispers", cells: [[3, 0], [3, 1], [3, 2]], difference: 5 };
  expect(board([whispers], [[3, 0, 1], [3, 1, 6], [3, 2, 2]]).bad).toEqual([27, 28, 29]);
  const renban: Constraint = { type: "renban", cells: [[5, 0], [5, 1], [5, 2]] };
  expect(board([renban], [[5, 0, 3], [5, 2, 5]]).bad).toEqual([]);
  expect(board([renban], [[5, 0, 3], [5, 2, 6]]).bad).toEqual([45, 47]);
});

test("sums outside the grid: little killers pass or miss their sum, sandwiches between 1 and 9", () => {
  expect(sumBroken([8, 0], 9, 1)).toBe(false);
  expect(sumBroken([9, 0], 9, 1)).toBe(true);
  expect(sandwichBroken([1, 2, 3, 9, 0, 0, 0, 0, 0], 5, 9)).toBe(false);
  expect(sandwichBroken([1, 2, 4, 9, 0, 0, 0, 0, 0], 5, 9)).toBe(true);
  expect(sandwichBroken([1, 9, 0, 0, 0, 0, 0, 0, 0], 0, 9)).toBe(false);
  const lk: Constraint = { type: "littleKiller", cells: [[0, 2], [1, 1], [2, 0]], sum: 6, clue: null };
  expect(board([lk], [[0, 2, 3], [1, 1, 3]]).bad).toEqual([2, 10]); // 6 already, one cell left
});

test("global rules flag only the offending neighbours; a white dot exempts its pair", () => {
  const white: Constraint = { type: "difference", cells: [[0, 0], [0, 1]], value: 1 };
  const placed: Array<[number, number, number]> = [[0, 0, 4], [0, 1, 5], [1, 0, 7], [1, 1, 8]];
  expect(board([{ type: "nonConsecutive" }, white], placed).bad).toEqual([9, 10]);
  expect(board([{ type: "antiKing" }], [[0, 0, 4], [1, 1, 4]]).bad).toEqual([0, 10]);
  expect(board([{ type: "antiKnight" }], [[0, 0, 4], [1, 2, 4]]).bad).toEqual([0, 11]);
  expect(board([{ type: "negative", ratio: true, xv: false }], [[0, 0, 3], [0, 1, 6]]).bad).toEqual([0, 1]);
});

test("a parity cell, a between line and a palindrome judge what is placed", () => {
  expect(board([{ type: "even", cells: [[0, 0]] }], [[0, 0, 3]]).bad).toEqual([0]);
  expect(board([{ type: "odd", cells: [[0, 0]] }], [[0, 0, 3]]).bad).toEqual([]);
  const between: Constraint = { type: "between", cells: [[0, 0], [0, 1], [0, 2]] };
  expect(board([between], [[0, 0, 2], [0, 1, 7], [0, 2, 6]]).bad).toEqual([0, 1, 2]);
  const palindrome: Constraint = { type: "palindrome", cells: [[0, 0], [0, 1], [0, 2]] };
  expect(board([palindrome], [[0, 0, 2], [0, 2, 3]]).bad).toEqual([0, 2]);
});

test("the sum helpers: a constraint cage gets digit sets, an arrow and a little killer their progress", () => {
  const cage: Constraint = { type: "cage", cells: [[0, 0], [0, 1]], sum: 3 };
  const arrow: Constraint = { type: "arrow", circle: [[4, 4]], line: [[4, 5], [4, 6]] };
  const lk: Constraint = { type: "littleKiller", cells: [[0, 2], [1, 1], [2, 0]], sum: 12, clue: null };
  const { g, values } = board([cage, arrow, lk], [[4, 4, 9], [4, 5, 4], [1, 1, 5]]);
  expect(constraintCageAt(g, 1)).toMatchObject({ cells: [0, 1], sum: 3 });
  expect(constraintCageAt(g, 2)).toBeUndefined();
  expect(lineSumAt(g, values, 42)).toEqual({ title: "Arrow 9", detail: "4 = 4 so far; 5 to go in 1 empty cell" });
  expect(lineSumAt(g, values, 18)).toEqual({
    title: "Little killer 12",
    detail: "5 = 5 so far; 7 to go in 2 empty cells (digits may repeat)",
  });
  expect(lineSumAt(g, values, 80)).toBeUndefined();
});
