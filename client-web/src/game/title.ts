// How a variant with its parameters is named on screen: the manifest's name and
// each parameter's display label (the lobby, the room and the game headers).

import type { Manifest, ParamValue } from "../protocol";

/** A room's variant as players know it: the name, then each parameter's display
 * name (a Gattai room reads "Gattai (Horizon)"). */
export function variantTitle(m: Manifest | undefined, settings: { variant: string; params: Record<string, ParamValue> }): string {
  if (!m) return settings.variant;
  const labels = m.params.map((p) => {
    const value = settings.params[p.key] ?? p.default;
    const i = p.allowed.findIndex((a) => JSON.stringify(a) === JSON.stringify(value));
    return (i >= 0 ? p.labels?.[i] : undefined) ?? String(value);
  });
  return labels.length ? `${m.name} (${labels.join(", ")})` : m.name;
}
