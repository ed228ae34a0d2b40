import type { Manifest, ParamValue, PuzzleGrade } from "../protocol";

// Difficulty words are technique tiers (docs/techniques.md): what each asks of a player.

const NEEDS: Record<string, string> = {
  easy: "singles",
  medium: "pairs, triples, intersections",
  hard: "fish, wings, quads",
  extreme: "chains",
};

/** A difficulty with the techniques its puzzles need at most, e.g. "hard — fish, wings, quads". */
export function tierLabel(difficulty: string): string {
  const needs = NEEDS[difficulty];
  return needs ? `${difficulty} — ${needs}` : difficulty;
}

/**
 * The difficulties `manifest` offers for `params` (missing ones take their defaults): a variant
 * with clue ranges offers for each parameter set only the tiers it has a range for (a 4x4 grid is
 * never beyond easy); as the server's `Manifest::offers`.
 */
export function offeredDifficulties(manifest: Manifest, params: Record<string, ParamValue>): string[] {
  if (manifest.clues.length === 0) return manifest.difficulties;
  const resolved: Record<string, ParamValue> = {};
  for (const p of manifest.params) resolved[p.key] = p.key in params ? params[p.key] : p.default;
  const applies = (when: Record<string, ParamValue | undefined>) =>
    Object.entries(when).every(([k, v]) => resolved[k] === v);
  return manifest.difficulties.filter((d) => manifest.clues.some((r) => r.difficulty === d && applies(r.when)));
}

/**
 * What the results card says of a puzzle's grade: its tier and hardest step, or, for a grid too big
 * to grade in full (25x25), the tier alone and how it was proved.
 */
export function gradeSentence(grade: PuzzleGrade): string {
  const article = /^[aeiou]/.test(grade.tier) ? "An" : "A";
  if (!grade.hardest) return `${article} ${grade.tier} puzzle: the hard techniques alone cannot finish it.`;
  return `${article} ${grade.tier} puzzle; its hardest step: ${grade.hardest} (rating ${grade.rating}).`;
}
