// A game says what it is and how it is played: the full variant name and size in
// the header, human names for parameter values, the rules during play (the "?"
// panel), and Windoku's windows in a tint of their own that the peer highlight
// does not hide.

import { expect, test } from "vitest";
import { createRoom, namedPlayer, screenshot, startGame, useArena, WAIT } from "./harness";

const arena = useArena();

/** The computed fill of the first element matching `selector`. */
function fillOf(page: import("playwright-core").Page, selector: string): Promise<string> {
  return page.evaluate((sel) => {
    const el = document.querySelector(sel);
    return el ? getComputedStyle(el).fill + " " + getComputedStyle(el).fillOpacity : "none";
  }, selector);
}

test("Windoku-X: its name and size, its rules on demand, and windows that stay visible under the peer highlight", async () => {
  const ada = await namedPlayer(arena, "Ada");
  // The lobby's parameter reads as players say it, not false/true.
  await ada.page.selectOption("#variant", "windoku");
  const options = await ada.page.locator("#param-diagonals option").allTextContents();
  expect(options).toEqual(["No", "Windoku-X"]);
  await createRoom(ada, { variant: "windoku", params: { diagonals: true } as unknown as Record<string, string>, mode: "solo" });
  await startGame(arena, ada);
  expect(await ada.page.textContent("h2.title")).toContain("Windoku (Windoku-X) 9x9");

  // The rules, during play.
  await ada.page.click("#help-button");
  await ada.page.waitForSelector("#shortcuts:visible", { timeout: WAIT });
  expect(await ada.page.textContent("#rules-text")).toContain("shaded 3x3 windows");
  await screenshot(ada.page, "main", "rules-during-play");
  await ada.page.keyboard.press("Escape");
  await ada.page.waitForSelector("#shortcuts", { state: "hidden", timeout: WAIT });

  // Window cells (r2c2 is in the top-left window) are tinted apart from plain cells
  // and from the peer highlight; a window cell among the cursor's peers keeps its tint.
  await ada.page.click("#cell-1-4");
  const window = await fillOf(ada.page, "svg.board .cell-bg.shaded");
  const plain = await fillOf(ada.page, "svg.board .cell-bg:not(.shaded)");
  const peer = await fillOf(ada.page, "svg.board .fill.peer");
  expect(new Set([window, plain, peer]).size).toBe(3);
  expect(peer).not.toMatch(/ 1$/); // translucent: what lies under it shows through
  await screenshot(ada.page, "svg.board", "windoku-x-peers");
});

test("16x16 reads as its size, not just 'Classic Sudoku', and offers the tiers its size has", async () => {
  const ada = await namedPlayer(arena, "Ada");
  await ada.page.selectOption("#variant", "classic");
  const options = await ada.page.locator("#param-box option").allTextContents();
  expect(options).toContain("16x16");
  // The difficulty list offers only the tiers each size really has.
  const difficulties = () => ada.page.locator("#difficulty option").evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
  expect(await difficulties()).toEqual(["easy", "medium", "hard", "extreme"]);
  await ada.page.selectOption("#param-box", JSON.stringify("2x2"));
  expect(await difficulties()).toEqual(["easy"]);
  await ada.page.selectOption("#param-box", JSON.stringify("4x4"));
  expect(await difficulties()).toEqual(["easy", "extreme"]);
  await createRoom(ada, { variant: "classic", params: { box: "4x4" }, mode: "solo" });
  await startGame(arena, ada);
  expect(await ada.page.textContent("h2.title")).toContain("Classic Sudoku (16x16)");
});
