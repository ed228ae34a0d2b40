// The lobby's "Today's puzzles": one click plays today's puzzle of a variant; two
// players, on a desktop and a phone, get the same puzzle, and the lobby says when
// the next ones arrive in the player's own time.

import { expect, test } from "vitest";
import { lastPuzzle, namedPlayer, screenshot, screenshotScreen, useArena, WAIT } from "./harness";

const arena = useArena();

test("one click plays today's puzzle; everyone gets the same one", async () => {
  const ada = await namedPlayer(arena, "Ada");
  const bob = await namedPlayer(arena, "Bob", { width: 390, height: 844 });
  for (const p of [ada, bob]) {
    await p.page.waitForSelector("#daily-classic-easy", { timeout: WAIT });
    for (const id of ["#daily-gattai-hard", "#daily-jigsaw-extreme"]) expect(await p.page.locator(id).count()).toBe(1);
    expect(await p.page.textContent("#next-daily")).toMatch(/New puzzles at .+ your time \(00:00 UTC\)/);
  }
  await screenshot(ada.page, "#daily", "daily-lobby");
  await screenshotScreen(bob.page, "daily-lobby-phone");
  for (const p of [ada, bob]) {
    await p.page.click("#daily-classic-easy");
    await p.page.waitForSelector("#start", { timeout: WAIT });
    await p.page.click("#start");
    await p.page.waitForSelector("svg.board", { timeout: WAIT });
    expect(await p.page.textContent("h2.title")).toContain("easy");
  }
  expect(lastPuzzle(ada).grid).toEqual(lastPuzzle(bob).grid);
  await screenshotScreen(bob.page, "daily-game-phone");
});
