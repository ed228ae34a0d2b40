// The lobby's "Today's puzzles": one click plays today's puzzle of a variant; two
// players, on a desktop and a phone, get the same puzzle, and the lobby says when
// the next ones arrive in the player's own time. Finishing shows the day's board;
// back in the lobby, the streak, the stats and the all-time board have the game;
// a third player races the first two as ghosts. A sync code moves an identity
// (and its records) to another device, once.

import { expect, test } from "vitest";
import type { ServerMessage } from "../src/protocol";
import { fillByClicks, lastPuzzle, namedPlayer, screenshot, screenshotScreen, showBoard, solve, startServer, useArena, waitForMessage, WAIT, type Arena, type Player } from "./harness";

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
    // One click: the board, no waiting room.
    await p.page.click("#daily-classic-easy");
    await p.page.waitForSelector("svg.board", { timeout: WAIT });
    expect(await p.page.locator("#room-link").count()).toBe(0);
    expect(await p.page.textContent("h2.title")).toContain("easy");
  }
  expect(lastPuzzle(ada).grid).toEqual(lastPuzzle(bob).grid);
  await screenshotScreen(bob.page, "daily-game-phone");

  // Both finish: the results show the day's leaderboard with both, and no rematch.
  const puzzle = lastPuzzle(ada);
  const solution = solve(arena.server, puzzle);
  for (const p of [ada, bob]) {
    await fillByClicks(p, puzzle, solution);
    await p.page.waitForSelector("#daily-place", { timeout: WAIT });
    expect(await p.page.locator("#rematch").count()).toBe(0);
  }
  // Ada's board was read when she finished (she alone on it); Bob's holds both.
  expect(await ada.page.textContent("#daily-place")).toContain("You are #1 of 1");
  const bobPlace = await bob.page.textContent("#daily-place");
  // The faster is told whom they beat; the slower is not told "faster than 0%".
  expect(bobPlace).toMatch(/^You are #1 of 2 — faster than 100% of today's players\.$|^You are #2 of 2\.$/);
  expect(await bob.page.locator("#daily-board tbody tr").count()).toBe(2);
  await screenshot(bob.page, "#results", "daily-results");

  // Back in the lobby: a one-day streak, the game in the stats, and the boards.
  await bob.page.click("button:text('Back to the lobby')");
  await bob.page.waitForSelector("#streak:has-text('Streak: 1 day (best 1)')", { timeout: WAIT });
  expect(await bob.page.textContent("#stats")).toContain("Classic Sudoku");
  await showBoard(bob, "all_time");
  await bob.page.waitForSelector("#board-rows tr:nth-child(2)", { timeout: WAIT });
  expect(await bob.page.textContent("#board-view")).toContain("all time — 2 players");
  await screenshotScreen(bob.page, "daily-records-phone");
  await screenshot(bob.page, "#records", "records");

  // Cy races the ghosts of Ada's and Bob's games: their bars move as they played.
  const cy = await namedPlayer(arena, "Cy");
  await cy.page.waitForSelector("#daily-classic-easy", { timeout: WAIT });
  await cy.page.check("#daily-ghosts");
  await cy.page.click("#daily-classic-easy");
  await cy.page.waitForSelector("#ghosts li:nth-child(2)", { timeout: WAIT });
  expect(await cy.page.textContent("#ghosts")).toMatch(/(Ada|Bob).*(Ada|Bob)/s);
  // Both ghosts solved it in seconds: their bars reach the end as the clock passes their times.
  await cy.page.waitForFunction(() => document.querySelectorAll("#ghosts li").length === 2 && [...document.querySelectorAll("#ghosts li")].every((li) => li.textContent?.includes("✓")), null, { timeout: WAIT });
  await screenshot(cy.page, "main", "ghost-race");
  await fillByClicks(cy, puzzle, solution);
  await cy.page.waitForSelector("#ghost-rank", { timeout: WAIT });
  expect(await cy.page.textContent("#ghost-rank")).toMatch(/^Among the ghosts: #[123] of 3\.$/);

  // A rematch against herself: the same puzzle, her own best game as the ghost.
  await cy.page.click("#race-best");
  await cy.page.waitForSelector("#ghosts li:has-text('Your best')", { timeout: WAIT });
  expect(await cy.page.locator("#ghosts li").count()).toBe(1);
  expect(lastPuzzle(cy).grid).toEqual(puzzle.grid);
  await screenshot(cy.page, "main", "ghost-own-best");
});

/** The player id of the last `welcome` a page received. */
function lastWelcome(p: Player): string | undefined {
  const welcomes = p.received.filter((m): m is Extract<ServerMessage, { type: "welcome" }> => m.type === "welcome");
  return welcomes[welcomes.length - 1]?.player_id;
}

test("a sync code moves the identity to another device, once", async () => {
  const ada = await namedPlayer(arena, "Ada");
  const phone = await namedPlayer(arena, "Phone", { width: 390, height: 844 });
  const adaId = lastWelcome(ada);
  expect(adaId).toBeDefined();
  expect(lastWelcome(phone)).not.toBe(adaId);
  await ada.page.click("#sync-code");
  await ada.page.waitForSelector("#sync-shown:has-text('Enter')", { timeout: WAIT });
  const shown = (await ada.page.textContent("#sync-shown")) ?? "";
  const code = /Enter (.+) on your other device/.exec(shown)?.[1];
  if (!code) throw new Error(`no code in '${shown}'`);
  await screenshot(ada.page, "main", "sync-code-shown");

  // The phone enters it (in lower case: case and spaces do not matter).
  const welcomes = phone.received.length;
  await phone.page.fill("#redeem-code", code.toLowerCase());
  await phone.page.click("#redeem");
  await waitForMessage(phone, (m) => m.type === "welcome" && phone.received.indexOf(m) >= welcomes);
  expect(lastWelcome(phone)).toBe(adaId);
  await phone.page.waitForFunction(() => (document.querySelector("#name") as HTMLInputElement | null)?.value === "Ada", null, { timeout: WAIT });
  await screenshotScreen(phone.page, "sync-code-redeemed-phone");
  // The phone keeps the identity across a reload (its own token), and Ada's desktop keeps it too.
  await phone.page.reload();
  await phone.page.waitForSelector("#create-room", { timeout: WAIT });
  await expect.poll(() => lastWelcome(phone), { timeout: WAIT }).toBe(adaId);
  await ada.page.reload();
  await ada.page.waitForSelector("#create-room", { timeout: WAIT });
  await expect.poll(() => ada.received.filter((m) => m.type === "welcome").length, { timeout: WAIT }).toBe(2);
  expect(lastWelcome(ada)).toBe(adaId);

  // A code works once.
  const third = await namedPlayer(arena, "Third");
  const errors = third.received.length;
  await third.page.fill("#redeem-code", code);
  await third.page.click("#redeem");
  const refused = await waitForMessage(third, (m) => m.type === "error" && third.received.indexOf(m) >= errors);
  expect(refused.type === "error" && refused.message).toBeTruthy();
  await third.page.waitForSelector("#toast:not([hidden])", { timeout: WAIT });
  expect(lastWelcome(third)).not.toBe(adaId);
});

test("a finish faster than anyone can solve the puzzle is kept off the boards, and its player is told why", async () => {
  // A floor no scripted click-through can beat (5 s per empty cell).
  const strict: Arena = { browser: arena.browser, server: await startServer({ extra: ["--fastest-cell-ms", "5000"] }) };
  try {
    const dee = await namedPlayer(strict, "Dee");
    await dee.page.waitForSelector("#daily-classic-easy", { timeout: WAIT });
    await dee.page.click("#daily-classic-easy");
    await dee.page.waitForSelector("svg.board", { timeout: WAIT });
    const puzzle = lastPuzzle(dee);
    await fillByClicks(dee, puzzle, solve(strict.server, puzzle));
    await dee.page.waitForSelector("#daily-place:has-text('not ranked')", { timeout: WAIT });
    expect(await dee.page.textContent("#daily-place")).toMatch(
      /^Your \d+:\d\d is not ranked: faster than anyone can solve this puzzle \(\d+:\d\d at the least\)\.$/,
    );
    expect(await dee.page.locator("#daily-board tbody tr").count()).toBe(0);
    await screenshot(dee.page, "#results", "daily-results-not-ranked");
    await dee.page.click("button:text('Back to the lobby')");
    await showBoard(dee, "all_time");
    await dee.page.waitForSelector("#board-flagged", { timeout: WAIT });
    expect(await dee.page.textContent("#board-view")).toContain("all time — 0 players");
  } finally {
    await strict.server.stop();
  }
});
