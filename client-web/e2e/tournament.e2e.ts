// An arena tournament from the lobby: Ada creates one of the kind picked in
// the new-game form and shares its link; Bob opens it; both press Race and
// are put in one race; after it the standings show their points, on their
// pages and on a spectator's phone, live; the results offer the next
// tournament race and the standings, not a rematch.

import { expect, test } from "vitest";
import { fillByClicks, lastPuzzle, namedPlayer, screenshot, screenshotScreen, solve, WAIT, useArena } from "./harness";

const arena = useArena({ extra: ["--quick-race-wait-ms", "500"] });

test("a tournament created in the lobby, raced from its link, its standings live for players and spectators", async () => {
  const ada = await namedPlayer(arena, "Ada");
  await ada.page.selectOption("#variant", "classic");
  await ada.page.selectOption("#difficulty", "easy");
  await ada.page.fill("#tournament-name", "Friday arena");
  await ada.page.selectOption("#tournament-minutes", "10");
  await ada.page.click("#create-tournament");
  await ada.page.waitForSelector("#tournament", { timeout: WAIT });
  expect(await ada.page.textContent("#tournament-title")).toBe("Friday arena");
  expect(await ada.page.textContent("#tournament-kind")).toMatch(/^Classic Sudoku \(9x9\), easy · by Ada · 10 minutes$/);
  // It starts as it is made: the page's clock (the server's, estimated) may
  // read "Starts in 0:00" for a tick before it reads the time left.
  await ada.page.waitForFunction(() => document.querySelector("#tournament-clock")?.textContent?.endsWith(" left"), null, { timeout: WAIT });
  expect(await ada.page.textContent("#tournament-clock")).toMatch(/^(10:00|9:5\d) left$/);
  const link = await ada.page.inputValue("#tournament-link");
  expect(link).toMatch(/#tournament-[A-Za-z0-9]{12}$/);

  // Bob opens the link; the lobby lists it too.
  const bob = await namedPlayer(arena, "Bob");
  await bob.page.waitForSelector("#tournament-list button:has-text('Friday arena')", { timeout: WAIT });
  await bob.page.goto(link);
  await bob.page.waitForSelector("#tournament", { timeout: WAIT });

  // Both race: one race, started by itself.
  await ada.page.click("#tournament-race");
  await bob.page.click("#tournament-race");
  for (const p of [ada, bob]) await p.page.waitForSelector("svg.board", { timeout: WAIT });
  const puzzle = lastPuzzle(ada);
  expect(lastPuzzle(bob).grid).toEqual(puzzle.grid);
  const solution = solve(arena.server, puzzle);
  await fillByClicks(ada, puzzle, solution);
  await fillByClicks(bob, puzzle, solution);
  await ada.page.waitForSelector("#next-tournament-race", { timeout: WAIT });
  expect(await ada.page.locator("#rematch").count()).toBe(0);
  expect(await ada.page.locator("#next-quick-race").count()).toBe(0);
  await ada.page.click("#tournament-standings");
  await ada.page.waitForSelector("#standings tr:has-text('Bob')", { timeout: WAIT });
  const rows = await ada.page.locator("#standings tr").allTextContents();
  expect(rows[0]).toMatch(/^1Ada4111$/);
  expect(rows[1]).toMatch(/^2Bob2102$/);
  expect(await ada.page.textContent("#tournament-summary")).toBe("2 players · 1 race so far");
  await screenshot(ada.page, "#tournament", "tournament-standings");

  // A spectator on a phone: the same standings, and no Race once it is over (not yet).
  const cy = await namedPlayer(arena, "Cy", { width: 390, height: 844 });
  await cy.page.goto(link);
  await cy.page.waitForSelector("#standings tr:has-text('Ada')", { timeout: WAIT });
  expect(await cy.page.isVisible("#tournament-race")).toBe(true);
  // The next race moves Cy's page without a reload.
  await ada.page.click("#tournament-race");
  await bob.page.click("#next-tournament-race");
  for (const p of [ada, bob]) await p.page.waitForSelector("svg.board", { timeout: WAIT });
  const second = lastPuzzle(bob);
  const secondSolution = solve(arena.server, second);
  await fillByClicks(bob, second, secondSolution);
  await fillByClicks(ada, second, secondSolution);
  await cy.page.waitForSelector("#tournament-summary:has-text('2 races so far')", { timeout: WAIT });
  const live = await cy.page.locator("#standings tr").allTextContents();
  expect(live[0]).toMatch(/^1Ada6211 2$/);
  expect(live[1]).toMatch(/^1Bob6212 1$/);
  await screenshotScreen(cy.page, "tournament-phone");
});
