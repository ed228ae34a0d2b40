// A newcomer's first minute: after the name, the lobby's first card offers the
// three things people come for — a game now, a race with a friend (a link to
// send), today's puzzle — one click each; the first digit is two clicks after
// the name on a desktop and on a phone, nothing needed off-screen; a skip link
// goes straight to the full form.

import { expect, test } from "vitest";
import { emptyCells, lastPuzzle, namedPlayer, screenshotScreen, solve, useArena, waitForMessage, WAIT } from "./harness";

const arena = useArena();

const SCREENS = [
  { name: "desktop", width: 1280, height: 800 },
  { name: "phone", width: 390, height: 844 },
];

for (const screen of SCREENS) {
  test(`${screen.name}: the first digit is two clicks after the name`, async () => {
    const ada = await namedPlayer(arena, "Ada", { width: screen.width, height: screen.height });
    // The first card is in view without scrolling.
    const box = await ada.page.locator("#play-now").boundingBox();
    expect(box && box.y + box.height <= screen.height, "Play now in view").toBe(true);
    await screenshotScreen(ada.page, `first-lobby-${screen.name}`);
    await ada.page.click("#play-now");
    await ada.page.waitForSelector("svg.board", { timeout: WAIT });
    const puzzle = lastPuzzle(ada);
    const solution = solve(arena.server, puzzle);
    const [r, c] = emptyCells(puzzle)[0];
    await ada.page.click(`#cell-${r}-${c}`);
    await ada.page.keyboard.press(String(solution[r][c]));
    await waitForMessage(ada, (m) => m.type === "move_accepted" && m.row === r && m.col === c);
    await screenshotScreen(ada.page, `first-digit-${screen.name}`);
    await ada.context.close();
  });
}

test("a race with a friend is one click to a link to send; today's puzzle is one click", async () => {
  const ada = await namedPlayer(arena, "Ada");
  await ada.page.click("#race-friend");
  await ada.page.waitForSelector("#room-link", { timeout: WAIT });
  expect(await ada.page.inputValue("#room-link")).toMatch(/#[a-z0-9]{10}$/);
  await ada.context.close();
  const bob = await namedPlayer(arena, "Bob");
  await bob.page.click("#today");
  await bob.page.waitForSelector("svg.board", { timeout: WAIT });
  const room = await waitForMessage(bob, (m) => m.type === "room" && m.room.settings.daily !== null);
  expect(room.type === "room" && room.room.settings.daily).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  await bob.context.close();
});

test("the first Tab reaches a skip link that goes straight to the new game form", async () => {
  const cy = await namedPlayer(arena, "Cy");
  await cy.page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await cy.page.keyboard.press("Tab");
  expect(await cy.page.evaluate(() => document.activeElement?.textContent)).toBe("Skip to the new game form");
  await cy.page.keyboard.press("Enter");
  expect(await cy.page.evaluate(() => document.activeElement?.id)).toBe("variant");
  await cy.context.close();
});
