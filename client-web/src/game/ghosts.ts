// Ghost races: recorded games of the same puzzle of the day, replayed as
// progress over time (cells right, never digits), and where a finish ranks
// among them.

import type { GhostRun } from "../protocol";

/** A ghost `elapsedMs` into the game: the share of cells it had right, and whether it had finished. */
export function ghostProgress(run: GhostRun, elapsedMs: number): { pct: number; done: boolean } {
  let right = 0;
  for (const [at, cells] of run.points) {
    if (at > elapsedMs) break;
    right = cells;
  }
  const done = elapsedMs >= run.time_ms;
  const pct = done ? 100 : run.cells > 0 ? Math.floor((right / run.cells) * 100) : 0;
  return { pct, done };
}

/** My place (1 = fastest) with a time of `myMs` among the ghosts. */
export function rankAmongGhosts(myMs: number, runs: GhostRun[]): number {
  return 1 + runs.filter((r) => r.time_ms < myMs).length;
}
