// A puzzle shared as a link: the pasted text travels in the page's fragment
// (`#puzzle=…`, never sent to the server), and opens the lobby with it filled in.

const PREFIX = "puzzle=";

/** The link that opens this page with `text` in the lobby's puzzle box. */
export function puzzleLink(base: string, text: string): string {
  return `${base}#${PREFIX}${encodeURIComponent(text.trim())}`;
}

/** The puzzle text a fragment carries, if it is a puzzle link (not a room code). */
export function puzzleFromHash(hash: string): string | undefined {
  const fragment = hash.startsWith("#") ? hash.slice(1) : hash;
  if (!fragment.startsWith(PREFIX)) return undefined;
  try {
    return decodeURIComponent(fragment.slice(PREFIX.length));
  } catch {
    return undefined;
  }
}
