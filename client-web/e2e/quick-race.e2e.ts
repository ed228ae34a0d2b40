// Racing beyond friends: "Quick race" joins whoever is racing classic easy
// now, or opens a race others join. Nobody presses Start: with a second racer
// in, both are told when it starts, and it does; a third racer who comes late
// is put in the next race. The race is rated: each racer sees their rating move.

import { expect, test } from "vitest";
import { createRoom, fillByClicks, lastPuzzle, namedPlayer, screenshot, screenshotScreen, showBoard, solve, startGame, WAIT, useArena } from "./harness";

// A short wait for more racers once two are in (10 s by default).
const arena = useArena({ extra: ["--quick-race-wait-ms", "1500"] });

test("one click races whoever is racing now; the race starts by itself; a late comer gets the next", async () => {
  const ada = await namedPlayer(arena, "Ada");
  const bob = await namedPlayer(arena, "Bob", { width: 390, height: 844 });
  await ada.page.click("#quick-race");
  await ada.page.waitForSelector("#quick-start:has-text('once a second racer is in')", { timeout: WAIT });
  // Nobody hosts a quick race's start.
  expect(await ada.page.locator("#start").count()).toBe(0);
  await bob.page.click("#quick-race");
  for (const p of [ada, bob]) await p.page.waitForSelector("#quick-start:has-text('it starts in')", { timeout: WAIT });
  await screenshotScreen(bob.page, "quick-race-waiting-phone");
  expect(await ada.page.textContent("#waiting-players")).toMatch(/Ada.*Bob/s);
  expect(await ada.page.textContent("#waiting-players")).not.toContain("host");
  // No Start pressed: the board comes for both.
  for (const p of [ada, bob]) await p.page.waitForSelector("svg.board", { timeout: WAIT });
  const puzzle = lastPuzzle(ada);
  expect(lastPuzzle(bob).grid).toEqual(puzzle.grid);

  // Cy, late, opens the next race of the kind and waits in it.
  const cy = await namedPlayer(arena, "Cy");
  await cy.page.click("#quick-race");
  await cy.page.waitForSelector("#quick-start:has-text('once a second racer is in')", { timeout: WAIT });
  expect(await cy.page.textContent("#waiting-players")).not.toContain("Ada");

  // The race ends like any race; a quick race offers the next one, not a rematch.
  const solution = solve(arena.server, puzzle);
  await fillByClicks(ada, puzzle, solution);
  await fillByClicks(bob, puzzle, solution);
  await ada.page.waitForSelector("#results:not([hidden])", { timeout: WAIT });
  expect(await ada.page.locator("#rematch").count()).toBe(0);
  // A quick race is rated: Ada won her first, Bob lost his.
  await ada.page.waitForSelector("#rating-change", { timeout: WAIT });
  expect(await ada.page.textContent("#rating-change")).toMatch(/^Rating 1500 → 1[5-9]\d\d \(\+\d+\), provisional\.$/);
  await bob.page.waitForSelector("#rating-change", { timeout: WAIT });
  expect(await bob.page.textContent("#rating-change")).toMatch(/^Rating 1500 → 1[0-4]\d\d \(−\d+\), provisional\.$/);
  await screenshot(ada.page, "main", "quick-race-results");
  await ada.page.click("#next-quick-race");
  await ada.page.waitForSelector("#quick-start", { timeout: WAIT });
  // Ada joins Cy's waiting race: two racers, so it is armed.
  await ada.page.waitForSelector("#quick-start:has-text('it starts in')", { timeout: WAIT });
  expect(await ada.page.textContent("#waiting-players")).toMatch(/Cy.*Ada/s);

  // Bob looks his rating up in the lobby's boards: provisional after one race.
  await bob.page.click("button:text('Back to the lobby')");
  await showBoard(bob, "ratings");
  await bob.page.waitForSelector("#my-rating", { timeout: WAIT });
  expect(await bob.page.textContent("#my-rating")).toMatch(/^Your rating: 1[0-4]\d\d \(provisional\) after 1 race\.$/);
  expect(await bob.page.textContent("#board-view")).toContain("race ratings — 0 rated players");
  await screenshot(bob.page, "#records", "race-ratings-phone");
});

test("a race its host marks rated moves the racers' ratings, as a quick race does", async () => {
  const dee = await namedPlayer(arena, "Dee");
  const eve = await namedPlayer(arena, "Eve");
  await dee.page.check("#rated");
  const code = await createRoom(dee, { mode: "race", publicRoom: false });
  await eve.page.goto(`${arena.server.url}/#${code}`);
  await eve.page.waitForSelector("#waiting-for-host", { timeout: WAIT });
  const { puzzle, solution } = await startGame(arena, dee, [eve]);
  await fillByClicks(dee, puzzle, solution);
  await fillByClicks(eve, puzzle, solution);
  await dee.page.waitForSelector("#rating-change", { timeout: WAIT });
  expect(await dee.page.textContent("#rating-change")).toMatch(/^Rating 1500 → 1[5-9]\d\d \(\+\d+\), provisional\.$/);
  // A rated private race keeps its rematch.
  expect(await dee.page.locator("#rematch").count()).toBe(1);
});
