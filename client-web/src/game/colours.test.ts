import { expect, test } from "vitest";
import { colourIn, initialsIn, SAFE_COLOURS, seatColour, useSafeColours } from "./colours";
import { contentLayer, plainPaint } from "./render";
import { geometryOf } from "./geometry";
import type { PuzzleV1 } from "../protocol";

const hue = (c: string) => Number(/hsl\((\d+)/.exec(c)?.[1]);

test("every seat of a full room has its own, clearly different colour", () => {
  const hues = Array.from({ length: 16 }, (_, i) => hue(seatColour(i)));
  expect(new Set(hues).size).toBe(16);
  for (let a = 0; a < 16; a++) {
    for (let b = a + 1; b < 16; b++) {
      const gap = Math.min(Math.abs(hues[a] - hues[b]), 360 - Math.abs(hues[a] - hues[b]));
      expect(gap, `seats ${a} and ${b}`).toBeGreaterThanOrEqual(10);
    }
  }
});

test("a player's colour follows their seat; others get one from their id", () => {
  const players = [{ id: "f00" }, { id: "ba4" }];
  expect(colourIn(players, "f00")).toBe(seatColour(0));
  expect(colourIn(players, "ba4")).toBe(seatColour(1));
  expect(colourIn(players, "f00")).not.toBe(colourIn(players, "ba4"));
  expect(colourIn(players, "spectator")).toBe(colourIn(undefined, "spectator"));
});

test("the colour-blind-safe colours: Okabe and Ito's, one per seat for seven seats, then again", () => {
  useSafeColours(true);
  try {
    const seats = Array.from({ length: 8 }, (_, i) => seatColour(i));
    expect(new Set(seats.slice(0, 7)).size).toBe(7);
    expect(seats.slice(0, 7)).toEqual(SAFE_COLOURS);
    expect(seats[7]).toBe(seats[0]);
    expect(SAFE_COLOURS).toContain(colourIn(undefined, "spectator"));
  } finally {
    useSafeColours(false);
  }
  expect(seatColour(0)).toMatch(/^hsl/);
});

test("initials tell players apart: one letter, two where names start alike", () => {
  const initials = initialsIn([
    { id: "a", name: "ada" },
    { id: "b", name: "Bob" },
    { id: "c", name: "Bea" },
    { id: "d", name: " " },
  ]);
  expect([...initials.values()]).toEqual(["A", "BO", "BE", "?"]);
});

test("a co-op digit carries its author's initials beside its colour", () => {
  const puzzle = {
    format: "sudoku-arena/puzzle@1",
    size: 4,
    layout: { rows: 1, cols: 4 },
    houses: [{ kind: "row", cells: [[0, 0], [0, 1], [0, 2], [0, 3]] }],
    grid: [[1, 0, 0, 0]],
  } as PuzzleV1;
  const g = geometryOf(puzzle);
  const svg = contentLayer(g, plainPaint([1, 2, 0, 0], { authors: new Map([[1, "#0072B2"]]), authorMarks: new Map([[1, "BO"]]) }));
  expect(svg).toContain('class="author-mark" style="fill:#0072B2"');
  expect(svg).toMatch(/class="author-mark"[^>]*>BO</);
  // A given carries none.
  expect(svg.match(/author-mark/g)?.length).toBe(1);
});
