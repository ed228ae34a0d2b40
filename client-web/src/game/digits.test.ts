import { expect, test } from "vitest";
import { classic, samuraiFixture } from "../../test/fixtures";
import { geometryOf } from "./geometry";
import { remainingDigits } from "./digits";

test("each digit's remaining count comes from the board alone", () => {
  const g = geometryOf(classic(2, 2));
  const values = g.givens.map(() => 0);
  values[0] = 1;
  values[5] = 1;
  values[6] = 3;
  expect(remainingDigits(g, values)).toEqual([2, 4, 3, 4]);
  for (const c of g.cells) values[c] = 1 + (c % 4);
  expect(remainingDigits(g, values)).toEqual([0, 0, 0, 0]);
});

test("samurai: 369 cells, 41 of each digit", () => {
  const g = geometryOf(samuraiFixture());
  expect(remainingDigits(g, g.givens.map(() => 0))).toEqual(new Array(9).fill(41));
});
