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
