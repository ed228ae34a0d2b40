import { expect, test } from "vitest";
import type { GhostRun } from "../protocol";
import { ghostProgress, rankAmongGhosts } from "./ghosts";

const run: GhostRun = { name: "Ada", time_ms: 9000, cells: 4, points: [[1000, 1], [2500, 1], [4000, 3], [8000, 4]] };

test("a ghost moves as it played, and finishes at its time", () => {
  expect(ghostProgress(run, 0)).toEqual({ pct: 0, done: false });
  expect(ghostProgress(run, 1000)).toEqual({ pct: 25, done: false });
  expect(ghostProgress(run, 3999)).toEqual({ pct: 25, done: false });
  expect(ghostProgress(run, 4000)).toEqual({ pct: 75, done: false });
  expect(ghostProgress(run, 8500)).toEqual({ pct: 100, done: false });
  expect(ghostProgress(run, 9000)).toEqual({ pct: 100, done: true });
});

test("a finish ranks among the ghosts", () => {
  const runs = [run, { ...run, name: "Bob", time_ms: 20000 }];
  expect(rankAmongGhosts(5000, runs)).toBe(1);
  expect(rankAmongGhosts(10000, runs)).toBe(2);
  expect(rankAmongGhosts(30000, runs)).toBe(3);
});
