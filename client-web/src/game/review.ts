// A race review without the page: a racer's board at any moment of the
// race (for the replay), each step in words, where the time went by tier, and
// the share link (`#review-<id>`).

import type { RaceReview, ReviewRacer, ReviewStep } from "../protocol";
import { ordinal } from "./race";
import { clock } from "./time";

/** The review id in a page address's fragment (`#review-<id>`), if any. */
export function reviewFromHash(hash: string): string | undefined {
  const m = /^#review-([A-Za-z0-9]{12})$/.exec(hash);
  return m?.[1];
}

/** The share link of review `id` on this page's server. */
export function reviewLink(origin: string, path: string, id: string): string {
  return `${origin}${path}#review-${id}`;
}

/** The givens, one value per layout cell (row-major). */
export function givensOf(review: RaceReview): number[] {
  return review.puzzle.grid.flat();
}

/** `racer`'s board `ms` after the start: the givens and every digit put (or taken out) by then. */
export function boardAt(review: RaceReview, racer: ReviewRacer, ms: number): number[] {
  const cols = review.puzzle.layout.cols;
  const values = givensOf(review);
  for (const s of racer.steps) {
    if (s.at_ms > ms) break;
    if (s.act === "placed" || s.act === "mistake" || s.act === "erased") values[s.row * cols + s.col] = s.value;
  }
  return values;
}

/** The index of the last step of `racer` done by `ms` (-1: none yet). */
export function stepAt(racer: ReviewRacer, ms: number): number {
  let at = -1;
  racer.steps.forEach((s, i) => {
    if (s.at_ms <= ms) at = i;
  });
  return at;
}

/** When the replay ends: the last step of anyone. */
export function replayLength(review: RaceReview): number {
  return Math.max(0, ...review.racers.flatMap((r) => r.steps.map((s) => s.at_ms)));
}

/** The cells a racer's mistakes stand in at `ms` (wrong digits still on the board). */
export function wrongAt(review: RaceReview, racer: ReviewRacer, ms: number): Set<number> {
  const cols = review.puzzle.layout.cols;
  const wrong = new Set<number>();
  for (const s of racer.steps) {
    if (s.at_ms > ms) break;
    const cell = s.row * cols + s.col;
    if (s.act === "mistake") wrong.add(cell);
    else if (s.act === "placed" || s.act === "erased") wrong.delete(cell);
  }
  return wrong;
}

/** A short time in seconds: "3.2 s". */
export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** A cell as players write it: `r3c5`. */
function cellName(s: ReviewStep): string {
  return `r${s.row + 1}c${s.col + 1}`;
}

/** One step in words: "r3c5 = 7 · Hidden Single (easy)". */
export function stepText(s: ReviewStep): string {
  switch (s.act) {
    case "placed":
      return `${cellName(s)} = ${s.value} · ${s.technique ? `${s.technique} (${s.tier})` : "no technique here reaches it: a guess?"}`;
    case "mistake":
      return `${cellName(s)} = ${s.value} · wrong`;
    case "erased":
      return `${cellName(s)} erased`;
    case "hint":
      return `Hint about ${cellName(s)}`;
    case "candidates":
      return "Filled in every candidate (counts as a hint)";
  }
}

/** A racer's result in words: "1st · 4:12 (0:30 of penalties)", "did not finish". */
export function resultText(r: ReviewRacer): string {
  if (r.place === null || r.time_ms === null) return r.forfeited ? "left the race" : "did not finish";
  const penalties = r.penalty_ms > 0 ? ` (${clock(r.penalty_ms)} of penalties)` : "";
  return `${ordinal(r.place)} · ${clock(r.time_ms)}${penalties}`;
}

/** One row of "where the time went": a tier and, per racer, its digits and time. */
export interface TierRow {
  /** "Easy" … "Extreme", or "No technique here". */
  label: string;
  /** One per racer, in the review's order: `undefined` where they had no digit of it. */
  cells: ({ digits: number; ms: number } | undefined)[];
  /** The index of the racer quickest per digit on this tier (of those with 2+ digits, else any). */
  quickest?: number;
}

const TIERS = ["easy", "medium", "hard", "extreme", ""];

/** Where the time went, tier by tier, racer against racer. */
export function tierRows(review: RaceReview): TierRow[] {
  return TIERS.flatMap((tier) => {
    const cells = review.racers.map((r) => {
      const t = r.by_tier.find((b) => b.tier === tier);
      return t ? { digits: t.digits, ms: t.ms } : undefined;
    });
    if (cells.every((c) => c === undefined)) return [];
    let quickest: number | undefined;
    cells.forEach((c, i) => {
      const best = quickest === undefined ? undefined : cells[quickest];
      if (c && (!best || c.ms / c.digits < best.ms / best.digits)) quickest = i;
    });
    const label = tier === "" ? "No technique here" : tier[0].toUpperCase() + tier.slice(1);
    return [{ label, cells, quickest }];
  });
}

/** A racer's three longest waits for a right digit: where their time went. */
export function slowest(racer: ReviewRacer, n = 3): ReviewStep[] {
  return racer.steps
    .filter((s) => s.act === "placed")
    .sort((a, b) => b.took_ms - a.took_ms)
    .slice(0, n);
}
