// A setter's draft in the forms it travels in outside the setter: a link's
// fragment (`#set=…`) and the browser's storage. Kept apart from the setter
// itself, which the page loads only when it opens.

import type { SetterDraft } from "../protocol";

/** A draft as a link's fragment (`#set=…`): JSON, base64url. */
export function setterLink(base: string, draft: SetterDraft): string {
  const bytes = new TextEncoder().encode(JSON.stringify(draft));
  let binary = "";
  bytes.forEach((b) => (binary += String.fromCharCode(b)));
  const text = btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  return `${base}#set=${text}`;
}

/** The draft a `#set=…` fragment carries, if it is one and reads as a draft. */
export function draftFromHash(hash: string): SetterDraft | undefined {
  const fragment = hash.startsWith("#") ? hash.slice(1) : hash;
  if (!fragment.startsWith("set=")) return undefined;
  try {
    const text = fragment.slice(4).replace(/-/g, "+").replace(/_/g, "/");
    const binary = atob(text);
    const bytes = Uint8Array.from(binary, (ch) => ch.charCodeAt(0));
    return readDraft(JSON.parse(new TextDecoder().decode(bytes)));
  } catch {
    return undefined;
  }
}

/** A draft read back (from a link or storage), if it has a draft's shape. */
export function readDraft(value: unknown): SetterDraft | undefined {
  const d = value as Partial<SetterDraft> | null;
  const grid = (g: unknown) => Array.isArray(g) && g.every((r) => Array.isArray(r) && r.every((v) => Number.isInteger(v) && v >= 0));
  if (!d || typeof d.variant !== "string" || !grid(d.grid)) return undefined;
  return {
    variant: d.variant,
    params: d.params && typeof d.params === "object" ? d.params : {},
    grid: d.grid as number[][],
    cages: Array.isArray(d.cages) ? d.cages : [],
    regions: grid(d.regions) ? (d.regions as number[][]) : [],
    constraints: Array.isArray(d.constraints) ? d.constraints : [],
  };
}
