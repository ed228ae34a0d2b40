// Copying a link, with feedback on the button that did it.

/**
 * Copies `text` and says "Copied!" on `button` for two seconds; without a
 * clipboard (permissions, plain http) it calls `select` so the player can copy
 * by hand, and says so.
 */
export async function copyWithFeedback(button: HTMLButtonElement, text: string, select: () => void) {
  const label = button.textContent ?? "";
  let said = "Copied!";
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    select();
    said = "Select and copy";
  }
  button.textContent = said;
  setTimeout(() => (button.textContent = label), 2000);
}
