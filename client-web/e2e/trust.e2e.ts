// Nothing a player does may silently vanish or differ: a mark over a selection
// is one change that teammates see whole; a change the server refuses is put
// back and announced; digits typed while offline are sent after the reconnect;
// leaving a game that leaving would cost asks first; a game left from the lobby
// can be rejoined by its code.

import { expect, test } from "vitest";
import { encode } from "@msgpack/msgpack";
import type { WebSocketRoute } from "playwright-core";
import type { ServerMessage } from "../src/protocol";
import { cellLabel, createRoom, emptyCells, enterName, fillByClicks, lastPuzzle, namedPlayer, screenshot, startGame, startServer, useArena, waitForLabel, waitForMessage, WAIT, meetByLink } from "./harness";

const arena = useArena();

/** Counts a page's frames of one type that it sent. */
function sentCount(sent: string[], type: string): number {
  return sent.filter((t) => t === type).length;
}

test("co-op: a corner mark over every empty cell is one message, and both boards agree", async () => {
  const [ada, bob] = await meetByLink(arena, { mode: "coop" });
  const { puzzle } = await startGame(arena, ada, [bob]);
  const empty = emptyCells(puzzle);
  const before = sentCount(ada.sent, "pencil");
  await ada.page.click(`#cell-${empty[0][0]}-${empty[0][1]}`);
  await ada.page.keyboard.press("Control+a");
  await ada.page.keyboard.press("Shift+5");
  const event = await waitForMessage(bob, (m) => m.type === "coop_event" && m.change.type === "pencil");
  expect(sentCount(ada.sent, "pencil") - before).toBe(1);
  expect(event.type === "coop_event" && event.change.type === "pencil" && event.change.cells.length).toBe(empty.length);
  // Every empty cell shows the mark on both screens.
  const last = empty[empty.length - 1];
  await waitForLabel(bob, last, "candidates 5");
  for (const rc of empty) {
    expect(await cellLabel(ada, rc)).toContain("candidates 5");
    expect(await cellLabel(bob, rc)).toBe(await cellLabel(ada, rc));
  }
  await screenshot(bob.page, "main", "coop-marks-whole-selection");
});

test("a burst the server refuses is put back on screen and announced; what it accepted stays", async () => {
  const ada = await namedPlayer(arena, "Ada");
  await createRoom(ada, { mode: "solo", difficulty: "hard" });
  const { puzzle } = await startGame(arena, ada);
  const empty = emptyCells(puzzle);
  // More digits at once than the server's burst (40 messages): some are refused.
  expect(empty.length).toBeGreaterThan(45);
  const answers: ServerMessage[] = [];
  ada.listeners.add((m) => {
    if (m.type === "move_accepted" || (m.type === "error" && m.cells.length > 0)) answers.push(m);
  });
  await ada.page.click(`#cell-${empty[0][0]}-${empty[0][1]}`);
  await ada.page.keyboard.press("Control+a");
  await ada.page.keyboard.press("5");
  await expect.poll(() => answers.length, { timeout: WAIT }).toBe(empty.length);
  const refused = new Set(answers.flatMap((m) => (m.type === "error" ? m.cells.map(([r, c]) => `${r},${c}`) : [])));
  expect(refused.size).toBeGreaterThan(0);
  // One toast names them all (the first three, then how many more).
  const told = refused.size > 3 ? `and ${refused.size - 3} more` : "Not saved, put back";
  await ada.page.waitForSelector(`#toast:has-text('${told}')`, { state: "attached", timeout: WAIT });
  await screenshot(ada.page, "body", "refused-burst-put-back");
  for (const [r, c] of empty) {
    const label = await cellLabel(ada, [r, c]);
    if (refused.has(`${r},${c}`)) expect(label).toMatch(/: empty/);
    else expect(label).toMatch(/: 5/);
  }
});

test("digits typed while the connection is down are sent after the reconnect, with the server's verdict", async () => {
  const ada = await namedPlayer(arena, "Ada");
  await createRoom(ada, { mode: "solo", mistakes: "penalty" });
  const { puzzle, solution } = await startGame(arena, ada);
  const [a, b] = emptyCells(puzzle);
  const address = new URL(arena.server.url).host;
  await arena.server.stop(true);
  await ada.page.waitForSelector("#connection-banner:has-text('Connection lost')", { timeout: WAIT });
  // Offline: one right digit, one wrong one.
  const wrong = (solution[b[0]][b[1]] % 9) + 1;
  await ada.page.click(`#cell-${a[0]}-${a[1]}`);
  await ada.page.keyboard.press(String(solution[a[0]][a[1]]));
  await ada.page.click(`#cell-${b[0]}-${b[1]}`);
  await ada.page.keyboard.press(String(wrong));
  await ada.page.waitForSelector("#connection-banner:has-text('2 changes will be sent when it is back')", { timeout: WAIT });
  await screenshot(ada.page, "body", "offline-changes-kept");
  arena.server = await startServer({ bind: address, data: arena.server.data });
  await ada.page.click("#retry-now").catch(() => undefined);
  await ada.page.waitForSelector("#connection-banner", { state: "hidden", timeout: WAIT });
  const verdict = await waitForMessage(ada, (m) => m.type === "move_accepted" && m.row === b[0] && m.col === b[1]);
  expect(verdict.type === "move_accepted" && verdict.correct).toBe(false);
  await waitForMessage(ada, (m) => m.type === "move_accepted" && m.row === a[0] && m.col === a[1]);
  await ada.page.waitForSelector("#toast:has-text('Sent 2 changes made while offline')", { state: "attached", timeout: WAIT });
  await waitForLabel(ada, a, `: ${solution[a[0]][a[1]]}`);
  await waitForLabel(ada, b, `: ${wrong}`);
});

test("leaving a solo game asks first; a co-op game left from the lobby is rejoined by its code", async () => {
  const ada = await namedPlayer(arena, "Ada");
  await createRoom(ada, { mode: "solo" });
  await startGame(arena, ada);
  await ada.page.click("#leave");
  await ada.page.waitForSelector("#leave-confirm:has-text('Leaving ends this game')", { timeout: WAIT });
  await screenshot(ada.page, "main", "leave-solo-confirm");
  await ada.page.click("#keep-playing");
  await ada.page.waitForSelector("#leave-confirm", { state: "hidden", timeout: WAIT });
  expect(await ada.page.locator("svg.board").count()).toBe(1);
  await ada.page.click("#leave");
  await ada.page.click("#leave-anyway");
  await ada.page.waitForSelector("#create-room", { timeout: WAIT });

  const code = await createRoom(ada, { mode: "coop", publicRoom: false });
  const { puzzle, solution } = await startGame(arena, ada);
  const [a] = emptyCells(puzzle);
  await ada.page.click(`#cell-${a[0]}-${a[1]}`);
  await ada.page.keyboard.press(String(solution[a[0]][a[1]]));
  await waitForMessage(ada, (m) => m.type === "coop_event");
  // Co-op keeps the seat: no question.
  await ada.page.click("#leave");
  await ada.page.waitForSelector("#create-room", { timeout: WAIT });
  await ada.page.fill("#join-code", code);
  await ada.page.click("#join");
  await ada.page.waitForSelector("svg.board", { timeout: WAIT });
  await waitForLabel(ada, a, `: ${solution[a[0]][a[1]]}`);
});

test("solo is one click from the lobby, and so is the next puzzle", async () => {
  const ada = await namedPlayer(arena, "Ada");
  await ada.page.selectOption("#mode", "solo");
  await ada.page.click("#create-room");
  await ada.page.waitForSelector("svg.board", { timeout: WAIT });
  expect(await ada.page.locator("#room-link, #start").count()).toBe(0);
  const first = lastPuzzle(ada);
  const { solution } = await startGame(arena, ada);
  await fillByClicks(ada, first, solution);
  await ada.page.waitForSelector("#rematch:has-text('New puzzle')", { timeout: WAIT });
  await ada.page.click("#rematch");
  await waitForMessage(ada, (m) => m.type === "room" && m.room.state === "playing" && JSON.stringify(m.room.puzzle?.grid) !== JSON.stringify(first.grid));
  await ada.page.waitForSelector("#results", { state: "hidden", timeout: WAIT });
  expect(await ada.page.locator("#start").count()).toBe(0);
  await screenshot(ada.page, "main", "solo-new-puzzle");
});

test("a pasted puzzle is checked, played, and shared as a link", async () => {
  const LINE = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
  const ada = await namedPlayer(arena, "Ada");
  await ada.context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await ada.page.click("#own-puzzle summary");
  // Two solutions: refused, with the reason, and Ada stays in the lobby.
  await ada.page.fill("#puzzle-text", `${".".repeat(9)}${LINE.slice(9)}`);
  await ada.page.click("#create-room");
  await ada.page.waitForSelector("#toast:has-text('more than one solution')", { state: "attached", timeout: WAIT });
  expect(await ada.page.locator("svg.board").count()).toBe(0);
  // The real one: shared as a link, then played.
  await ada.page.fill("#puzzle-text", LINE);
  await ada.page.click("#puzzle-link");
  await ada.page.waitForSelector("#puzzle-link:text-is('Copied!')", { timeout: WAIT });
  const link = await ada.page.evaluate(() => navigator.clipboard.readText());
  expect(link).toContain("#puzzle=");
  await ada.page.selectOption("#mode", "solo");
  await ada.page.click("#create-room");
  await ada.page.waitForSelector("svg.board", { timeout: WAIT });
  expect(await cellLabel(ada, [0, 0])).toContain("5 (given)");
  expect(await cellLabel(ada, [0, 2])).toContain("empty");
  expect(await ada.page.textContent("h2.title")).toContain("Classic Sudoku");

  // Bob opens the link: the lobby, with the puzzle in the box.
  const bob = await namedPlayer(arena, "Bob");
  await bob.page.goto(link);
  await bob.page.waitForSelector("#own-puzzle[open]", { timeout: WAIT });
  expect(await bob.page.inputValue("#puzzle-text")).toBe(LINE);
  await screenshot(bob.page, "#create", "own-puzzle-shared");
});

test("a pasted puzzle is labelled by its grade, not by the form's difficulty", async () => {
  // One of the hardest known: beyond every technique the grader has.
  const HARDEST = "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3";
  const cy = await namedPlayer(arena, "Cy");
  await cy.page.selectOption("#difficulty", "easy");
  await cy.page.click("#own-puzzle summary");
  await cy.page.fill("#puzzle-text", HARDEST);
  await cy.page.selectOption("#mode", "solo");
  await cy.page.click("#create-room");
  await cy.page.waitForSelector("svg.board", { timeout: WAIT });
  const title = await cy.page.textContent("h2.title");
  expect(title).toContain("· extreme ·");
  expect(title).not.toContain("easy");
});

test("a server message type the page does not know is ignored; play goes on", async () => {
  // The page's socket runs through a proxy that can slip in a frame from a newer server.
  const context = await arena.browser.newContext({ viewport: { width: 1200, height: 900 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  let socket: WebSocketRoute | undefined;
  await page.routeWebSocket(/\/ws$/, (ws) => {
    const server = ws.connectToServer();
    ws.onMessage((m) => server.send(m));
    server.onMessage((m) => ws.send(m));
    socket = ws;
  });
  await page.goto(arena.server.url);
  const ada = { context, page, received: [], sent: [], listeners: new Set() } as Parameters<typeof enterName>[0];
  await enterName(ada, "Ada");
  socket?.send(Buffer.from(encode({ type: "from_the_future", detail: 1 })));
  await ada.page.selectOption("#mode", "solo");
  await ada.page.click("#create-room");
  await ada.page.waitForSelector("svg.board", { timeout: WAIT });
  const cell = await ada.page.getAttribute("svg.board", "aria-activedescendant");
  const [, r, c] = /cell-(\d+)-(\d+)/.exec(cell ?? "") ?? [];
  await ada.page.keyboard.press("1");
  await waitForLabel(ada, [Number(r), Number(c)], ": 1");
  expect(errors).toEqual([]);
  await context.close();
});
