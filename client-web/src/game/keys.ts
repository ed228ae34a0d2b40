// Keyboard shortcuts, the way Sudoku players expect: arrows move (Shift or Ctrl
// extends the selection), digits and letters enter (Shift = corner mark, Ctrl or
// Alt = centre mark), Delete/Backspace clear, Ctrl+Z / Ctrl+Y (or Ctrl+Shift+Z)
// undo and redo, Space cycles the entry mode, Escape clears the selection,
// Ctrl+A selects every cell (Alt+A is the centre mark A on boards with letters),
// "?" shows the shortcuts.

import type { EntryMode } from "./board";
import { valueOfSymbol, type Geometry } from "./geometry";

/** What a key press asks for. */
export type KeyAction =
  | { type: "move"; dr: number; dc: number; extend: boolean }
  | { type: "enter"; value: number; mode: EntryMode }
  | { type: "erase" }
  | { type: "undo" }
  | { type: "redo" }
  | { type: "cycle_mode" }
  | { type: "clear_selection" }
  | { type: "select_all" }
  | { type: "help" };

/** The parts of a KeyboardEvent the mapping reads. */
export interface KeyPress {
  key: string;
  code: string;
  shiftKey: boolean;
  ctrlKey: boolean;
  altKey: boolean;
  metaKey: boolean;
}

const ARROWS: Record<string, [number, number]> = {
  ArrowUp: [-1, 0],
  ArrowDown: [1, 0],
  ArrowLeft: [0, -1],
  ArrowRight: [0, 1],
};

/**
 * The action for a key press, or null when the key means nothing on the board.
 * `defaultMode` is the input-mode switch; Shift / Ctrl override it.
 */
export function keyAction(
  e: KeyPress,
  g: Pick<Geometry, "symbols" | "size">,
  defaultMode: EntryMode,
): KeyAction | null {
  const command = e.ctrlKey || e.metaKey;
  const arrow = ARROWS[e.key];
  if (arrow) return { type: "move", dr: arrow[0], dc: arrow[1], extend: e.shiftKey || command };
  if (e.key === "Backspace" || e.key === "Delete") return { type: "erase" };
  if (command && e.code === "KeyZ") return e.shiftKey ? { type: "redo" } : { type: "undo" };
  if (command && e.code === "KeyY") return { type: "redo" };
  if (e.key === " " && !command) return { type: "cycle_mode" };
  if (e.key === "Escape") return { type: "clear_selection" };
  if (command && e.code === "KeyA") return { type: "select_all" };
  if (e.key === "?") return { type: "help" };
  const value = typedValue(e, g);
  if (value === 0) return null;
  const mode: EntryMode = command || e.altKey ? "centre" : e.shiftKey ? "corner" : defaultMode;
  return { type: "enter", value, mode };
}

/** The value a key types: from the physical key (so Shift+1 is still 1), else the character. */
function typedValue(e: KeyPress, g: Pick<Geometry, "symbols" | "size">): number {
  const physical = /^(?:Digit|Numpad)([0-9])$/.exec(e.code)?.[1] ?? /^Key([A-Z])$/.exec(e.code)?.[1];
  for (const symbol of [physical, e.key]) {
    if (symbol && symbol.length === 1) {
      const v = valueOfSymbol(g, symbol);
      if (v > 0 && v <= g.size) return v;
    }
  }
  return 0;
}

/** The next entry mode after `mode` (value -> corner -> centre -> colour -> value). */
export function nextMode(mode: EntryMode): EntryMode {
  return mode === "value" ? "corner" : mode === "corner" ? "centre" : mode === "centre" ? "colour" : "value";
}
