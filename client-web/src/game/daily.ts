// Puzzles of the day: the settings that ask the server for one (the server
// picks the date: its UTC day), and when the next day's puzzles arrive.

import type { RoomSettings } from "../protocol";

/** A solo room playing today's puzzle of `variant` (default parameters) at
 * `difficulty`, against the day's ghosts and/or my own best game if asked. */
export function dailySettings(variant: string, difficulty: string, ghosts = false, ownBest = false): RoomSettings {
  return {
    variant,
    params: {},
    difficulty,
    mode: "solo",
    public: false,
    max_players: 1,
    mistakes: { type: "none" },
    hints: { type: "penalty", seconds: 30 },
    daily: "today",
    ghosts,
    own_best: ownBest,
    quick: false,
    rated: false,
  };
}

/** The next 00:00 UTC after `now`: when the next puzzles of the day arrive. */
export function nextDailyAt(now: Date): Date {
  const next = new Date(now.getTime());
  next.setUTCHours(24, 0, 0, 0);
  return next;
}
