import { expect, test } from "vitest";
import { classic, samuraiFixture } from "../../test/fixtures";
import { Board } from "./board";
import { peersOf } from "./conflicts";
import { geometryOf } from "./geometry";

function board() {
  const p = classic(2, 2);
  p.grid[0][0] = 1; // a given at cell 0
  return new Board(geometryOf(p));
}

test("the cursor starts on the first empty cell; givens never change", () => {
  const b = board();
  expect(b.cursor).toBe(1);
  b.select(0);
  expect(b.enter(2, "value")).toEqual([]);
  expect(b.erase()).toEqual([]);
  expect(b.values[0]).toBe(1);
});

test("typing a value sets it; typing it again clears it", () => {
  const b = board();
  b.select(5);
  expect(b.enter(3, "value")).toEqual([{ cell: 5, before: { value: 0, corner: 0, centre: 0, colour: 0 }, after: { value: 3, corner: 0, centre: 0, colour: 0 } }]);
  b.enter(3, "value");
  expect(b.values[5]).toBe(0);
  expect(b.enter(5, "value")).toEqual([]); // out of range for a 4x4
});

test("corner and centre marks toggle across a multi-selection", () => {
  const b = board();
  b.select(1);
  b.extend(2);
  b.extend(3);
  b.enter(2, "corner");
  expect([b.corner[1], b.corner[2], b.corner[3]]).toEqual([2, 2, 2]);
  b.extend(3, true); // Ctrl+click removes 3 from the selection
  b.enter(2, "corner");
  expect([b.corner[1], b.corner[2], b.corner[3]]).toEqual([0, 0, 2]);
  b.enter(4, "centre");
  expect(b.centre[1]).toBe(8);
  b.select(3);
  b.enter(1, "value");
  b.enter(3, "corner"); // cells holding a value take no marks
  expect(b.corner[3]).toBe(2);
});

test("erase clears values first, then marks", () => {
  const b = board();
  b.select(1);
  b.enter(2, "corner");
  b.extend(2);
  b.enter(4, "value");
  expect(b.values[1]).toBe(4);
  b.erase();
  expect([b.values[1], b.values[2], b.corner[1]]).toEqual([0, 0, 2]);
  b.erase();
  expect(b.corner[1]).toBe(0);
});

test("undo and redo walk the history; a new edit drops the redo branch", () => {
  const b = board();
  b.select(1);
  b.enter(2, "value");
  b.enter(3, "value");
  expect(b.undo()).toEqual([{ cell: 1, before: { value: 3, corner: 0, centre: 0, colour: 0 }, after: { value: 2, corner: 0, centre: 0, colour: 0 } }]);
  expect(b.values[1]).toBe(2);
  b.undo();
  expect(b.values[1]).toBe(0);
  expect(b.undo()).toEqual([]);
  b.redo();
  expect(b.values[1]).toBe(2);
  b.enter(4, "value");
  expect(b.redo()).toEqual([]);
  b.apply(1, { value: 1 }); // from the server: not undoable
  b.undo();
  expect(b.values[1]).toBe(2);
});

test("arrows wrap and skip the holes of a Samurai", () => {
  const b = new Board(geometryOf(samuraiFixture()));
  b.select(0 * 21 + 8);
  b.move(0, 1);
  expect(b.cursor).toBe(0 * 21 + 12); // (0,9)..(0,11) are holes
  b.select(20 * 21 + 0);
  b.move(1, 0);
  expect(b.cursor).toBe(0);
  b.move(0, -1, true);
  expect(b.selection).toEqual([0, 20]);
});

test("a placed digit leaves the marks of the cells that see it, in the same undo step", () => {
  const b = board();
  const g = b.geometry;
  b.clearMarksIn = (cell) => peersOf(g, cell);
  // Marks of 3 in cell 2 (same row as 1), 14 (not a peer of 1) and 5 (same box).
  for (const c of [2, 14, 5]) {
    b.select(c);
    b.enter(3, "corner");
    b.enter(3, "centre");
    b.enter(2, "corner");
  }
  b.select(1);
  const changes = b.enter(3, "value");
  expect(changes.map((ch) => ch.cell).sort((x, y) => x - y)).toEqual([1, 2, 5]);
  expect([b.corner[2], b.centre[2], b.corner[5], b.corner[14], b.centre[14]]).toEqual([2, 0, 2, 6, 4]);
  b.undo();
  expect([b.values[1], b.corner[2], b.centre[2], b.corner[5]]).toEqual([0, 6, 4, 6]);
  // Switched off: only the digit.
  b.clearMarksIn = undefined;
  b.select(1);
  expect(b.enter(3, "value")).toHaveLength(1);
});

test("colour mode paints the selection (givens too) with palette colours; Delete in colour mode clears them", () => {
  const b = board();
  b.select(0);
  b.extend(1);
  b.enter(4, "colour");
  expect(b.colour.slice(0, 2)).toEqual([8, 8]);
  b.enter(9, "colour");
  expect(b.colour[0]).toBe(8 | 256);
  b.enter(4, "colour"); // all have 4: off
  expect(b.colour.slice(0, 2)).toEqual([256, 256]);
  expect(b.enter(10, "colour")).toEqual([]); // past the palette
  expect(b.values[1]).toBe(0); // values untouched
  b.erase("colour");
  expect(b.colour.slice(0, 2)).toEqual([0, 0]);
  b.undo();
  expect(b.colour.slice(0, 2)).toEqual([256, 256]);
});
