// How durations read on screen.

/** `m:ss` (or `h:mm:ss`) for a duration in ms. */
export function clock(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const [hh, mm, ss] = [Math.floor(total / 3600), Math.floor((total % 3600) / 60), total % 60];
  const two = (n: number) => String(n).padStart(2, "0");
  return hh > 0 ? `${hh}:${two(mm)}:${two(ss)}` : `${mm}:${two(ss)}`;
}


/** Why a finish of mine is on no leaderboard: the server found it faster
 * than the puzzle's fastest plausible solve. */
export function notRankedNote(flag: { time_ms: number; plausible_ms: number }): string {
  return `Your ${clock(flag.time_ms)} is not ranked: faster than anyone can solve this puzzle (${clock(flag.plausible_ms)} at the least).`;
}
