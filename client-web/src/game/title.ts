// How a variant with its parameters is named on screen: the manifest's name and
// each parameter's display label (the lobby, the room and the game headers).

import type { Manifest, ParamValue } from "../protocol";

/** A room's variant as players know it: the name, then each parameter's display
 * name (a Gattai room reads "Gattai (Horizon)"); a yes/no parameter shows only
 * when on ("Killer Sudoku (9x9, Killer-X)", not "(9x9, No)"). */
export function variantTitle(m: Manifest | undefined, settings: { variant: string; params: Record<string, ParamValue> }): string {
  if (!m) return settings.variant;
  const labels = m.params.flatMap((p) => {
    const value = settings.params[p.key] ?? p.default;
    if (value === false) return [];
    const i = p.allowed.findIndex((a) => JSON.stringify(a) === JSON.stringify(value));
    const label = (i >= 0 ? p.labels?.[i] : undefined) ?? (value === true ? p.name : String(value));
    // Inside the title's parentheses, a label's own become a comma:
    // "Classic Sudoku (4x4, 2x2 boxes)", not "(4x4 (2x2 boxes))".
    return [label.replace(/^(.*?)\s*\((.*)\)$/, "$1, $2")];
  });
  return labels.length ? `${m.name} (${labels.join(", ")})` : m.name;
}

/** A game's title with its grid's size where the name does not say it ("Windoku 9x9"). */
export function gameTitle(title: string, g?: { rows: number; cols: number; size: number }): string {
  if (!g || g.rows !== g.size || g.cols !== g.size) return title;
  const size = `${g.size}x${g.size}`;
  return title.includes(size) ? title : `${title} ${size}`;
}
