// Variants whose shape is not one square grid — Jigsaw (regions that differ per
// puzzle), a twin Gattai and Samurai (overlapping grids with holes) — raced and
// solved together in the browser, one player at desktop size and one on a phone,
// where the big layouts are zoomed in and the view follows the selection.

import { describe, expect, test } from "vitest";
import { emptyCells, fillByClicks, screenshot, screenshotScreen, startGame, useArena, waitForMessage, WAIT, type Player, leaveGame, meetByLink } from "./harness";

const arena = useArena();
const PHONE = { width: 390, height: 844 };

const SHAPES: Array<{ name: string; variant: string; params: Record<string, string>; title: string }> = [
  { name: "jigsaw", variant: "jigsaw", params: { size: "9x9" }, title: "Jigsaw Sudoku (9x9)" },
  { name: "twin-ne", variant: "gattai", params: { mode: "twin-ne" }, title: "Gattai (Sunrise)" },
  { name: "samurai", variant: "gattai", params: { mode: "samurai" }, title: "Gattai (Samurai)" },
];

/** Ada (desktop) creates the room, Bob (phone) joins by its link. */
async function meet(shape: (typeof SHAPES)[number], mode: "race" | "coop"): Promise<[Player, Player]> {
  const [ada, bob] = await meetByLink(arena, { variant: shape.variant, params: shape.params, mode }, PHONE);
  if (mode === "race") {
    await bob.page.click("#ready");
    await ada.page.waitForSelector("#ready-count:has-text('1 of 1 ready')", { timeout: WAIT });
  }
  return [ada, bob];
}

/** On the phone, a big layout offers zoom; zoomed in, the board scrolls and follows the selected cell. */
async function zoomIn(p: Player, cols: number) {
  if (cols <= 9) {
    expect(await p.page.locator("#zoom").count()).toBe(0);
    return;
  }
  await p.page.click("#zoom");
  await p.page.waitForSelector("#zoom[aria-pressed='true']", { timeout: WAIT });
  const wide = await p.page.evaluate(() => {
    const box = document.querySelector(".board-box");
    return box ? box.scrollWidth > box.clientWidth : false;
  });
  expect(wide, "zoomed in, the board is wider than its box").toBe(true);
}

/** Whether a cell lies inside the visible part of the board's box. */
function cellVisible(p: Player, [r, c]: [number, number]): Promise<boolean> {
  return p.page.evaluate(([row, col]) => {
    const box = document.querySelector(".board-box")?.getBoundingClientRect();
    const cell = document.querySelector(`#cell-${row}-${col}`)?.getBoundingClientRect();
    if (!box || !cell) return false;
    return cell.left >= box.left - 1 && cell.right <= box.right + 1 && cell.top >= box.top - 1 && cell.bottom <= box.bottom + 1;
  }, [r, c] as const);
}

describe.each(SHAPES)("$name", (shape) => {
  test("a race, desktop against phone: the phone plays zoomed in, then forfeits", async () => {
    const [ada, bob] = await meet(shape, "race");
    const { puzzle, solution } = await startGame(arena, ada, [bob]);
    expect(puzzle.solution ?? null, "the server never sends the solution").toBeNull();
    for (const p of [ada, bob]) expect(await p.page.textContent("h2.title")).toContain(shape.title);
    await zoomIn(bob, puzzle.layout.cols);
    // The last empty cell (bottom right on every layout here) comes into view when Bob selects it.
    const cells = emptyCells(puzzle);
    const last = cells[cells.length - 1];
    await bob.page.click(`#cell-${last[0]}-${last[1]}`);
    expect(await cellVisible(bob, last)).toBe(true);
    // Bob plays a few cells from the far end on the phone, then leaves (a forfeit).
    await fillByClicks(bob, puzzle, solution, cells.slice(-12));
    await screenshotScreen(bob.page, `${shape.name}-race-phone`);
    await leaveGame(bob);
    await ada.page.waitForFunction(() => document.querySelector("#people")?.textContent?.includes("left"), null, { timeout: WAIT });

    await fillByClicks(ada, puzzle, solution);
    await waitForMessage(ada, (m) => m.type === "finished");
    await ada.page.waitForSelector("#ranks", { timeout: WAIT });
    const ranks = await ada.page.locator("#ranks tbody tr").allTextContents();
    expect(ranks).toHaveLength(1);
    expect(ranks[0]).toContain("Ada");
    await screenshot(ada.page, "main", `${shape.name}-race-desktop`);
  });

  test("solved together, desktop and phone", async () => {
    const [ada, bob] = await meet(shape, "coop");
    const { puzzle, solution } = await startGame(arena, ada, [bob]);
    await zoomIn(bob, puzzle.layout.cols);
    const cells = emptyCells(puzzle);
    // The phone takes the smaller share: a third.
    const half = Math.floor((cells.length * 2) / 3);
    await fillByClicks(ada, puzzle, solution, cells.slice(0, half));
    await screenshot(ada.page, "main", `${shape.name}-coop-desktop`);
    await fillByClicks(bob, puzzle, solution, cells.slice(half));
    for (const p of [ada, bob]) {
      await waitForMessage(p, (m) => m.type === "finished");
      await p.page.waitForSelector("#results-title:has-text('Solved together')", { timeout: WAIT });
    }
    await screenshotScreen(bob.page, `${shape.name}-coop-phone`);
  });
});
