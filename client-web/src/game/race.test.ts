import { expect, test } from "vitest";
import type { PlayerView } from "../protocol";
import { livePlaces, ordinal } from "./race";

const p = (id: string, over: Partial<PlayerView> = {}): PlayerView => ({ id, name: id, filled: 30, finished_ms: null, mistakes: 0, out: false, left: false, hints: 0, ready: false, rematch: false, ...over });

test("finishers lead by time, then racers by cells filled; ties share a place; leavers have none", () => {
  const places = livePlaces([p("a", { filled: 40 }), p("b", { finished_ms: 9000 }), p("c", { finished_ms: 5000 }), p("d", { filled: 40 }), p("e", { left: true }), p("f", { filled: 35 })]);
  expect([...places.entries()]).toEqual([["c", 1], ["b", 2], ["a", 3], ["d", 3], ["f", 5]]);
});

test("ordinals", () => {
  expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 101].map(ordinal)).toEqual(["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st"]);
});
