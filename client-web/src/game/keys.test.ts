import { expect, test } from "vitest";
import { keyAction, nextMode, type KeyPress } from "./keys";

const g = { symbols: [..."123456789ABCDEFG"], size: 16 };
const press = (key: string, code: string, mods: Partial<KeyPress> = {}): KeyPress => ({
  key,
  code,
  shiftKey: false,
  ctrlKey: false,
  altKey: false,
  metaKey: false,
  ...mods,
});

test.each([
  [press("5", "Digit5"), { type: "enter", value: 5, mode: "value" }],
  [press("%", "Digit5", { shiftKey: true }), { type: "enter", value: 5, mode: "corner" }],
  [press("5", "Digit5", { ctrlKey: true }), { type: "enter", value: 5, mode: "centre" }],
  [press("3", "Numpad3"), { type: "enter", value: 3, mode: "value" }],
  [press("b", "KeyB"), { type: "enter", value: 11, mode: "value" }],
  [press("G", "KeyG", { shiftKey: true }), { type: "enter", value: 16, mode: "corner" }],
  [press("h", "KeyH"), null],
  [press("0", "Digit0"), null],
  [press("ArrowLeft", "ArrowLeft"), { type: "move", dr: 0, dc: -1, extend: false }],
  [press("ArrowDown", "ArrowDown", { shiftKey: true }), { type: "move", dr: 1, dc: 0, extend: true }],
  [press("Backspace", "Backspace"), { type: "erase" }],
  [press("Delete", "Delete"), { type: "erase" }],
  [press("z", "KeyZ", { ctrlKey: true }), { type: "undo" }],
  [press("Z", "KeyZ", { ctrlKey: true, shiftKey: true }), { type: "redo" }],
  [press("y", "KeyY", { metaKey: true }), { type: "redo" }],
  [press("Escape", "Escape"), { type: "clear_selection" }],
  [press("a", "KeyA", { ctrlKey: true }), { type: "select_all" }],
  [press("a", "KeyA", { altKey: true }), { type: "enter", value: 10, mode: "centre" }],
  [press("?", "Slash", { shiftKey: true }), { type: "help" }],
  [press(" ", "Space"), { type: "cycle_mode" }],
])("%o -> %o", (key, action) => {
  expect(keyAction(key, g, "value")).toEqual(action);
});

test("the mode switch changes what a plain digit does", () => {
  expect(keyAction(press("4", "Digit4"), g, "centre")).toEqual({ type: "enter", value: 4, mode: "centre" });
  expect(keyAction(press("4", "Digit4", { shiftKey: true }), g, "centre")).toEqual({ type: "enter", value: 4, mode: "corner" });
  expect(nextMode("value")).toBe("corner");
  expect(nextMode("corner")).toBe("centre");
  expect(nextMode("centre")).toBe("colour");
  expect(nextMode("colour")).toBe("value");
  expect(keyAction(press("4", "Digit4"), g, "colour")).toEqual({ type: "enter", value: 4, mode: "colour" });
});

test("letters are not values on a 9x9", () => {
  expect(keyAction(press("a", "KeyA"), { symbols: [..."123456789"], size: 9 }, "value")).toBeNull();
});
