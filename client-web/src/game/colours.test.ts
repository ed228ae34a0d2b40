import { expect, test } from "vitest";
import { colourIn, seatColour } from "./colours";

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
