// The server restarts mid-game: the page shows the lost connection, retries with
// backoff, resumes with the token it kept in localStorage, and the board comes
// back as it was, marks included; then the game goes on.

import { expect, test } from "vitest";
import { cellLabel, createRoom, emptyCells, namedPlayer, screenshot, startGame, startServer, useArena, waitForLabel, waitForMessage, WAIT } from "./harness";

const arena = useArena();

test("a lost connection shows a banner, retries, and restores the board", async () => {
  const ada = await namedPlayer(arena, "Ada");
  await createRoom(ada, { mode: "solo" });
  const { puzzle, solution } = await startGame(arena, ada);
  const [a, b] = emptyCells(puzzle);
  await ada.page.click(`#cell-${a[0]}-${a[1]}`);
  await ada.page.keyboard.press(String(solution[a[0]][a[1]]));
  await waitForMessage(ada, (m) => m.type === "move_accepted");
  await ada.page.click(`#cell-${b[0]}-${b[1]}`);
  await ada.page.keyboard.press("Shift+4");
  const label = (rc: [number, number]) => cellLabel(ada, rc);
  const before = [await label(a), await label(b)];

  // Stop the server (its data stays) and start it again on the same address.
  const address = new URL(arena.server.url).host;
  await arena.server.stop(true);
  await ada.page.waitForSelector("#connection-banner:has-text('Connection lost')", { timeout: WAIT });
  // The banner counts down to the next try and offers to try now.
  await ada.page.waitForSelector("#connection-banner:has-text('retrying in')", { timeout: WAIT });
  await ada.page.waitForSelector("#retry-now", { timeout: WAIT });
  await screenshot(ada.page, "body", "connection-lost");
  arena.server = await startServer({ bind: address, data: arena.server.data });
  await ada.page.click("#retry-now").catch(() => undefined);
  await ada.page.waitForSelector("#connection-banner", { state: "hidden", timeout: WAIT });
  await ada.page.waitForSelector("svg.board", { timeout: WAIT });
  await waitForLabel(ada, a, "empty", true);
  expect([await label(a), await label(b)]).toEqual(before);

  // The same identity and seat: the game can be finished.
  const welcomes = ada.received.filter((m) => m.type === "welcome");
  expect(new Set(welcomes.map((m) => (m.type === "welcome" ? m.player_id : "")))).toHaveLength(1);
  await ada.page.click(`#cell-${b[0]}-${b[1]}`);
  await ada.page.keyboard.press(String(solution[b[0]][b[1]]));
  await waitForMessage(ada, (m) => m.type === "move_accepted" && m.row === b[0] && m.col === b[1]);
});

test("a tab whose game another tab took over says so and takes no more digits", async () => {
  const ada = await namedPlayer(arena, "Ada");
  await createRoom(ada, { mode: "solo" });
  const { puzzle, solution } = await startGame(arena, ada);
  const [a, b] = emptyCells(puzzle);
  // The same browser opens the game in a second tab: it resumes the seat.
  const second = await ada.context.newPage();
  await second.goto(arena.server.url);
  await second.waitForSelector("svg.board", { timeout: WAIT });
  await ada.page.waitForSelector("#connection-banner:has-text('open in another tab')", { timeout: WAIT });
  // Typing in the first tab changes nothing there, and nothing is sent.
  const sentBefore = ada.sent.length;
  await ada.page.click(`#cell-${a[0]}-${a[1]}`);
  await ada.page.keyboard.press(String(solution[a[0]][a[1]]));
  expect(await cellLabel(ada, a)).toContain("empty");
  expect(ada.sent.length).toBe(sentBefore);
  await screenshot(ada.page, "body", "displaced-tab");
  // The second tab plays on.
  await second.click(`#cell-${b[0]}-${b[1]}`);
  await second.keyboard.press(String(solution[b[0]][b[1]]));
  await second.waitForSelector(`#cell-${b[0]}-${b[1]}[aria-label*=': ${solution[b[0]][b[1]]}']`, { timeout: WAIT });
  await second.close();
});
