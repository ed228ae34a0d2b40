import { expect, test } from "vitest";
import { classic, killerFixture } from "../../test/fixtures";
import { conflicts, peersOf } from "./conflicts";
import { geometryOf } from "./geometry";

const g = geometryOf(classic(3, 3));
const blank = () => new Array<number>(81).fill(0);

test("repeats in a row, column or box conflict; other cells do not", () => {
  const v = blank();
  v[0] = 5;
  v[8] = 5; // same row
  v[40] = 7;
  v[80] = 7; // different row, column and box: fine
  expect([...conflicts(g, v)].sort((a, b) => a - b)).toEqual([0, 8]);
  const w = blank();
  w[0] = 3;
  w[10] = 3; // same box
  expect(conflicts(g, w)).toEqual(new Set([0, 10]));
});

test("cages: a sum already exceeded, or a full cage with the wrong sum", () => {
  const { puzzle, solution } = killerFixture();
  const k = geometryOf(puzzle);
  const right = solution.flat();
  expect(conflicts(k, right).size).toBe(0);
  const cage = k.cages.find((c) => c.cells.length >= 2);
  if (!cage) throw new Error("fixture has no multi-cell cage");
  const v = new Array<number>(81).fill(0);
  v[cage.cells[0]] = cage.sum; // and the other cells need at least 1 each
  expect(conflicts(k, v).has(cage.cells[0])).toBe(true);
  v[cage.cells[0]] = 1;
  expect(conflicts(k, v).size).toBe(0);
});

test("different pairs conflict when equal", () => {
  const p = classic(3, 3);
  p.different = [[[0, 0], [1, 2]]];
  const d = geometryOf(p);
  const v = blank();
  v[0] = 4;
  v[11] = 4;
  expect(conflicts(d, v)).toEqual(new Set([0, 11]));
  expect(peersOf(d, 0).has(11)).toBe(true);
  expect(peersOf(g, 0).size).toBe(20);
});
