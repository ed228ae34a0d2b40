// Arena tournaments without the page: where one stands at a moment (by the
// server's clock), its time in words, a player's recent places, and the
// `#tournament-<id>` link.

import type { TournamentState } from "../protocol";
import { clock } from "./time";

/** What the time line needs of a tournament (its view or its list row). */
export interface TournamentTimes {
  starts_at_ms: number;
  ends_at_ms: number;
}

/** The tournament id in a page address's fragment (`#tournament-<id>`), if any. */
export function tournamentFromHash(hash: string): string | undefined {
  return /^#tournament-([A-Za-z0-9]{12})$/.exec(hash)?.[1];
}

/** The link to tournament `id` on this page's server. */
export function tournamentLink(origin: string, path: string, id: string): string {
  return `${origin}${path}#tournament-${id}`;
}

/** Where it is at `now` (server time, ms): the view's state may be older. */
export function stateAt(t: TournamentTimes, now: number): TournamentState {
  if (now < t.starts_at_ms) return "scheduled";
  return now < t.ends_at_ms ? "running" : "finished";
}

/** Its time in words at `now`: "Starts in 4:12", "6:33 left", "Over". */
export function timeLine(t: TournamentTimes, now: number): string {
  switch (stateAt(t, now)) {
    case "scheduled":
      return `Starts in ${clock(t.starts_at_ms - now)}`;
    case "running":
      return `${clock(t.ends_at_ms - now)} left`;
    case "finished":
      return "Over";
  }
}

/** Recent places in a row, newest last: "1 1 2 –" (– for a race not finished). */
export function recentText(recent: number[]): string {
  return recent.map((p) => (p === 0 ? "–" : String(p))).join(" ");
}
