// A race looked back on: once the race ends, "Review the race" shows every
// racer's result, where their time went tier by tier, and one racer's race
// replayed on the board beside their timeline (each digit, the time it took,
// the technique that placed it; mistakes in red). The link opens the same
// review for someone who was not there, on a phone too.

import { expect, test } from "vitest";
import { createRoom, emptyCells, fillByClicks, namedPlayer, openPlayer, screenshot, screenshotScreen, startGame, WAIT, useArena } from "./harness";

const arena = useArena();

test("a finished race's review: results, time by tier, a replay and a link anyone can open", async () => {
  const ada = await namedPlayer(arena, "Ada");
  const bob = await namedPlayer(arena, "Bob");
  const code = await createRoom(ada, { mode: "race", publicRoom: false, mistakes: "penalty" });
  await bob.page.goto(`${arena.server.url}/#${code}`);
  await bob.page.waitForSelector("#waiting-for-host", { timeout: WAIT });
  const { puzzle, solution } = await startGame(arena, ada, [bob]);
  const cells = emptyCells(puzzle);
  // Bob puts a wrong digit first (then the right one over it).
  const [r0, c0] = cells[0];
  await bob.page.click(`#cell-${r0}-${c0}`);
  await bob.page.keyboard.press(String((solution[r0][c0] % 9) + 1));
  await fillByClicks(ada, puzzle, solution);
  await fillByClicks(bob, puzzle, solution);

  await ada.page.waitForSelector("#review-open", { timeout: WAIT });
  await ada.page.click("#review-open");
  await ada.page.waitForSelector("#review", { timeout: WAIT });
  const racers = await ada.page.textContent("#review-racers");
  expect(racers).toMatch(/Ada: 1st · \d+:\d\d · 0 mistakes · 0 hints/);
  expect(racers).toMatch(/Bob: 2nd · \d+:\d\d \(0:\d\d of penalties\) · 1 mistake · 0 hints/);
  expect(await ada.page.textContent("#review-tiers")).toContain("Easy");
  // Ada's timeline: one line per digit, each with its technique.
  const steps = ada.page.locator("#review-steps li");
  expect(await steps.count()).toBe(cells.length);
  expect(await steps.first().textContent()).toMatch(/ = \d · .+ \(easy\)$/);
  // The replay starts at the end: the whole board; back to the start, only the givens.
  const givens = puzzle.grid.flat().filter((v) => v !== 0).length;
  const digits = () => ada.page.locator("svg.board text.value").count();
  expect(await digits()).toBeGreaterThanOrEqual(givens + cells.length);
  await ada.page.fill("#review-time", "0");
  await ada.page.dispatchEvent("#review-time", "input");
  await ada.page.waitForFunction(() => document.querySelector("#review-clock")?.textContent?.startsWith("0:00 /"), undefined, { timeout: WAIT });
  // Played at 64x, the race runs to its end and the replay stops there.
  await ada.page.selectOption("#review-speed", "64");
  await ada.page.click("#review-play");
  await ada.page.waitForSelector("#review-steps li.current", { timeout: WAIT });
  await ada.page.waitForSelector("#review-play:has-text('Play')", { timeout: WAIT });
  expect(await digits()).toBeGreaterThanOrEqual(givens + cells.length);
  // Seeking by a step of the timeline: the board as it was then.
  await ada.page.click("#review-steps li:nth-child(3)");
  await ada.page.waitForSelector("#review-steps li:nth-child(3).current", { timeout: WAIT });
  expect(await digits()).toBeLessThan(givens + cells.length);
  // Bob's race: his mistake is in his timeline, in red.
  await ada.page.click("#review-racers li:nth-child(2) button");
  await ada.page.waitForSelector("#review-steps li.mistake", { timeout: WAIT });
  expect(await ada.page.textContent("#review-steps li.mistake")).toMatch(/ = \d · wrong$/);
  await screenshot(ada.page, "#review", "race-review");

  // The link opens it for someone who was not in the race, on a phone.
  const link = await ada.page.inputValue("#review-link");
  expect(link).toMatch(/#review-[A-Za-z0-9]{12}$/);
  const cy = await openPlayer(arena.browser, arena.server.url, { width: 390, height: 844 });
  await cy.page.fill("#name", "Cy");
  await cy.page.click("#enter");
  await cy.page.waitForSelector("#create-room", { timeout: WAIT });
  await cy.page.goto(link);
  await cy.page.waitForSelector("#review", { timeout: WAIT });
  expect(await cy.page.textContent("#review-racers")).toContain("Bob: 2nd");
  await screenshotScreen(cy.page, "race-review-phone");
  await cy.page.click("#review-back");
  await cy.page.waitForSelector("#create-room", { timeout: WAIT });
  expect(new URL(cy.page.url()).hash).toBe("");
});
