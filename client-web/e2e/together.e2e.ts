// Co-op players see each other's entries and cursors; a reload mid-game restores
// the board; a spectator sees the players' boards and cannot type.

import { expect, test } from "vitest";
import { seatColour } from "../src/game/colours";
import { cellLabel, createRoom, emptyCells, namedPlayer, screenshot, startGame, typeSolution, useArena, waitForLabel, waitForMessage, WAIT, type Player, meetByLink } from "./harness";

const arena = useArena();


test("co-op players see each other's entries, marks and cursors, and finish together", async () => {
  // Bob follows the invite link.
  const [ada, bob] = await meetByLink(arena, { mode: "coop" });
  const { puzzle, solution } = await startGame(arena, ada, [bob]);
  const [a, b] = emptyCells(puzzle);

  await ada.page.click(`#cell-${a[0]}-${a[1]}`);
  await ada.page.keyboard.press(String(solution[a[0]][a[1]]));
  await waitForLabel(bob, a, `: ${solution[a[0]][a[1]]}`);
  // Ada's digit is in Ada's colour (seat 0) on both screens.
  const fillOf = (p: Player) =>
    p.page.evaluate(([cell]) => {
      const hit = document.querySelector(cell);
      const rect = hit?.getBoundingClientRect();
      const text = [...document.querySelectorAll("svg.board text.value.entered")].find((t) => {
        const b = t.getBoundingClientRect();
        return rect && b.left >= rect.left && b.right <= rect.right && b.top >= rect.top && b.bottom <= rect.bottom;
      });
      return text ? getComputedStyle(text).fill : null;
    }, [`#cell-${a[0]}-${a[1]}`] as const);
  const adaColour = await ada.page.evaluate((c) => { const d = document.createElement("div"); d.style.color = c; document.body.append(d); const v = getComputedStyle(d).color; d.remove(); return v; }, seatColour(0));
  expect(await fillOf(bob)).toBe(adaColour);
  expect(await fillOf(ada)).toBe(adaColour);
  // Not by colour alone: Ada's initial sits by her digit on both screens.
  for (const p of [ada, bob]) await p.page.waitForSelector("svg.board .author-mark:text-is('A')", { timeout: WAIT });
  // Bob chooses the colour-blind-safe colours: Ada's digit and dot take the first.
  await bob.page.click("#palette");
  await bob.page.waitForSelector("#palette[aria-pressed=true]", { timeout: WAIT });
  expect(await fillOf(bob)).toBe("rgb(0, 114, 178)");
  await screenshot(bob.page, "main", "coop-safe-colours");
  await bob.page.click("#palette");
  expect(await fillOf(bob)).toBe(adaColour);
  // Bob's corner mark reaches Ada.
  await bob.page.click(`#cell-${b[0]}-${b[1]}`);
  await bob.page.keyboard.press("Shift+7");
  await waitForLabel(ada, b, "candidates 7");
  // Each sees the other's cursor where they last clicked.
  await ada.page.waitForSelector("svg.board .team-cursor", { timeout: WAIT });
  await bob.page.waitForSelector("svg.board .team-cursor", { timeout: WAIT });
  expect(await ada.page.textContent("svg.board .team-cursor title")).toBe("Bob");
  // The cursor carries its teammate's name where everyone can read it.
  expect(await ada.page.textContent("svg.board .cursor-name")).toBe("Bob");
  expect(await bob.page.textContent("svg.board .cursor-name")).toBe("Ada");
  // The name tab sits inside Bob's own cell: over the next one it hid its marks.
  const within = await ada.page.evaluate(([r, c]) => {
    const tab = document.querySelector("svg.board .cursor-tab")?.getBoundingClientRect();
    const cell = document.querySelector(`#cell-${r}-${c}`)?.getBoundingClientRect();
    return !!tab && !!cell && tab.left >= cell.left - 0.5 && tab.top >= cell.top - 0.5 && tab.right <= cell.right + 0.5 && tab.bottom <= cell.bottom + 0.5;
  }, b);
  expect(within).toBe(true);
  await screenshot(ada.page, "main", "coop-game");

  await ada.page.click(`#cell-${a[0]}-${a[1]}`);
  await ada.page.keyboard.press("Escape");
  // Together: Ada types the rest of the grid.
  await typeRest(ada, puzzle.grid, solution);
  for (const p of [ada, bob]) {
    const finished = await waitForMessage(p, (m) => m.type === "finished");
    await p.page.waitForSelector("#results-title:has-text('Solved together')", { timeout: WAIT });
    // The clock stops at the team's time, and a solved board offers no hint.
    const team = finished.type === "finished" ? (finished.team_ms ?? 0) : 0;
    const shown = `${Math.floor(team / 60000)}:${String(Math.floor(team / 1000) % 60).padStart(2, "0")}`;
    await p.page.waitForSelector(`#timer:text-is('${shown}')`, { timeout: WAIT });
    expect(await p.page.locator("#hint-button").count()).toBe(0);
  }
  expect(await bob.page.textContent("#results")).toContain("Ada:");
});

test("a full grid that is wrong says so; the clock shows a hint's penalty at once", async () => {
  const ada = await namedPlayer(arena, "Ada");
  await createRoom(ada, { mode: "solo" });
  const { puzzle, solution } = await startGame(arena, ada);
  const page = ada.page;
  await page.click("#hint-button");
  await waitForMessage(ada, (m) => m.type === "hint");
  // The room's hint penalty is 30 s: the running clock carries it now, not at the end.
  await page.waitForFunction(() => /^0:[3-5]\d$/.test(document.querySelector("#timer")?.textContent ?? ""), null, { timeout: WAIT });
  // Fill every cell, one of them wrong (no feedback under the default policy).
  const [first] = emptyCells(puzzle);
  const wrong = solution.map((row) => [...row]);
  wrong[first[0]][first[1]] = (solution[first[0]][first[1]] % 9) + 1;
  await typeSolution(ada, puzzle, wrong);
  await page.waitForSelector("#win:has-text('full, but not solved')", { timeout: WAIT });
  await screenshot(page, "main", "full-but-wrong");
});

/** Types every cell still empty on the page's board, keyboard only. */
async function typeRest(p: Player, grid: number[][], solution: number[][]) {
  for (let r = 0; r < grid.length; r++) {
    for (let c = 0; c < grid[r].length; c++) {
      if (grid[r][c] !== 0) continue;
      const text = await cellLabel(p, [r, c]);
      if (text && !text.includes("empty")) continue;
      await p.page.click(`#cell-${r}-${c}`);
      await p.page.keyboard.press(String(solution[r][c]));
    }
  }
}

test("a reload mid-game restores the board, the marks and the clock", async () => {
  const ada = await namedPlayer(arena, "Ada");
  await createRoom(ada, { mode: "solo" });
  const { puzzle, solution } = await startGame(arena, ada);
  const [a, b, c] = emptyCells(puzzle);
  await ada.page.click(`#cell-${a[0]}-${a[1]}`);
  await ada.page.keyboard.press(String(solution[a[0]][a[1]]));
  await waitForMessage(ada, (m) => m.type === "move_accepted");
  await ada.page.click(`#cell-${b[0]}-${b[1]}`);
  await ada.page.keyboard.press("Shift+1");
  await ada.page.keyboard.press("Shift+2");
  await ada.page.click(`#cell-${c[0]}-${c[1]}`);
  await ada.page.keyboard.press("Control+3");
  const before = [await cellLabel(ada, a), await cellLabel(ada, b), await cellLabel(ada, c)];

  await ada.page.reload();
  await ada.page.waitForSelector("svg.board", { timeout: WAIT });
  await waitForLabel(ada, a, "empty", true);
  expect([await cellLabel(ada, a), await cellLabel(ada, b), await cellLabel(ada, c)]).toEqual(before);
  expect(await ada.page.textContent("#timer")).toMatch(/^\d+:\d\d$/);

  // Pause hides the board; resume brings it back as it was.
  await ada.page.click("#pause");
  await ada.page.waitForSelector("#paused", { timeout: WAIT });
  expect(await ada.page.locator("svg.board").count()).toBe(0);
  await ada.page.click("#pause");
  await ada.page.waitForSelector("svg.board", { timeout: WAIT });
  expect(await cellLabel(ada, a)).toEqual(before[0]);
});

test("a race spectator sees progress live, a racer's digits once they finish, and cannot type", async () => {
  const ada = await namedPlayer(arena, "Ada");
  const eve = await namedPlayer(arena, "Eve");
  const code = await createRoom(ada, { mode: "race", publicRoom: true });
  const { puzzle, solution } = await startGame(arena, ada);
  await eve.page.fill("#join-code", code);
  await eve.page.click("button:text('Watch')");
  await eve.page.waitForSelector("svg.board", { timeout: WAIT });
  expect(await eve.page.textContent("h2.title")).toContain("watching");

  const [a, b] = emptyCells(puzzle);
  await ada.page.click(`#cell-${a[0]}-${a[1]}`);
  await ada.page.keyboard.press(String(solution[a[0]][a[1]]));
  // Eve hears of Ada's progress, never of her digit: a racer watching from a
  // second identity would learn nothing.
  const givens = puzzle.grid.flat().filter((v) => v !== 0).length;
  await waitForMessage(eve, (m) => m.type === "progress" && m.player.name === "Ada" && m.player.filled > givens);
  expect(await cellLabel(eve, a)).toContain("empty");
  expect(await eve.page.isVisible("#spectator-note")).toBe(true);

  // Eve clicks and types: nothing changes and no move leaves her browser.
  await eve.page.click(`#cell-${b[0]}-${b[1]}`);
  await eve.page.keyboard.press("5");
  await eve.page.keyboard.press("Shift+6");
  expect(await cellLabel(eve, b)).toContain("empty");
  expect(eve.sent.filter((t) => t === "move" || t === "pencil")).toEqual([]);
  expect(await eve.page.locator(".pad").isHidden()).toBe(true);
  // Spectators may still talk.
  await eve.page.fill("#chat-input", "nice start!");
  await eve.page.press("#chat-input", "Enter");
  await ada.page.waitForSelector("#chat-log li:has-text('nice start!')", { timeout: WAIT });
  expect(await ada.page.textContent("#chat-log")).toContain("Eve: nice start!");
  await screenshot(eve.page, "main", "spectator");
  // Once Ada has finished, Eve sees her whole board.
  // (Typing a cell's own digit again clears it: Ada erases her first digit and
  // types the whole solution from there.)
  await ada.page.click(`#cell-${a[0]}-${a[1]}`);
  await ada.page.keyboard.press("Backspace");
  await typeSolution(ada, puzzle, solution);
  await waitForLabel(eve, a, "empty", true);
  expect(await eve.page.isHidden("#spectator-note")).toBe(true);
  await screenshot(eve.page, "main", "spectator-finished");
});

test("a co-op game's link opened after the start watches it: the team's digits show, live, and after a reload", async () => {
  const [ada, bob] = await meetByLink(arena, { mode: "coop" });
  const code = lastRoomCode(ada);
  const { puzzle, solution } = await startGame(arena, ada, [bob]);
  const [a, b] = emptyCells(puzzle);
  await ada.page.click(`#cell-${a[0]}-${a[1]}`);
  await ada.page.keyboard.press(String(solution[a[0]][a[1]]));
  await waitForLabel(bob, a, `: ${solution[a[0]][a[1]]}`);

  // Eve follows the link late: the game is under way, so she watches it.
  const eve = await namedPlayer(arena, "Eve");
  await eve.page.goto(`${arena.server.url}/#${code}`);
  await eve.page.waitForSelector("h2.title:has-text('watching')", { timeout: WAIT });
  await waitForLabel(eve, a, `: ${solution[a[0]][a[1]]}`);
  await bob.page.click(`#cell-${b[0]}-${b[1]}`);
  await bob.page.keyboard.press(String(solution[b[0]][b[1]]));
  await waitForLabel(eve, b, `: ${solution[b[0]][b[1]]}`);
  // One shared board: no "watch this player" buttons beside the names.
  expect(await eve.page.locator("#people li[data-player] button").count()).toBe(0);
  await screenshot(eve.page, "main", "coop-spectator");

  // A reload keeps her watching, the board as the team has it.
  await eve.page.reload();
  await eve.page.waitForSelector("h2.title:has-text('watching')", { timeout: WAIT });
  await waitForLabel(eve, b, `: ${solution[b[0]][b[1]]}`);
  expect(eve.sent.filter((t) => t === "move" || t === "pencil")).toEqual([]);
});

/** The code of the last room snapshot `p` received. */
function lastRoomCode(p: Player): string {
  for (let i = p.received.length - 1; i >= 0; i--) {
    const m = p.received[i];
    if (m.type === "room") return m.room.code;
  }
  throw new Error("no room yet");
}

/** Values a cell may hold judging by the givens in its row, column and 3x3 box. */
function candidates(grid: number[][], r: number, c: number): number[] {
  const seen = new Set<number>();
  for (let i = 0; i < 9; i++) {
    seen.add(grid[r][i]);
    seen.add(grid[i][c]);
    seen.add(grid[3 * Math.floor(r / 3) + Math.floor(i / 3)][3 * Math.floor(c / 3) + (i % 3)]);
  }
  return [1, 2, 3, 4, 5, 6, 7, 8, 9].filter((v) => !seen.has(v));
}

test("solo with lives: a wrong digit costs a life and shows only with the check on; drag selects; hints explain", async () => {
  const ada = await namedPlayer(arena, "Ada");
  await createRoom(ada, { mode: "solo", mistakes: "lives" });
  const { puzzle, solution } = await startGame(arena, ada);
  const page = ada.page;

  // A wrong digit that breaks no visible rule: only the server knows it is wrong.
  const spots = emptyCells(puzzle).filter(([r, c]) => candidates(puzzle.grid, r, c).length >= 2);
  const [r, c] = spots[0];
  const wrong = candidates(puzzle.grid, r, c).find((v) => v !== solution[r][c]) ?? 0;
  await page.click(`#cell-${r}-${c}`);
  await page.keyboard.press(String(wrong));
  await waitForMessage(ada, (m) => m.type === "move_accepted" && m.correct === false);
  await page.waitForSelector("#status:has-text('Lives 2/3')", { timeout: WAIT });
  expect(await page.locator(".value.bad").count()).toBe(1);
  await page.uncheck("#error-check");
  expect(await page.locator(".value.bad").count()).toBe(0);
  await page.check("#error-check");
  await page.keyboard.press("Backspace");

  // Drag across two empty neighbours, then one corner mark lands in both.
  const pair = emptyCells(puzzle).find(([r1, c1]) => c1 < 8 && puzzle.grid[r1][c1 + 1] === 0) ?? [0, 0];
  // Cells are redrawn on every update, so aim from the board's own box.
  const board = await page.locator("svg.board").boundingBox();
  if (!board) throw new Error("the board has no box");
  const unit = board.width / 9;
  const centre = (row: number, col: number) => [board.x + (col + 0.5) * unit, board.y + (row + 0.5) * unit] as const;
  await page.mouse.move(...centre(pair[0], pair[1]));
  await page.mouse.down();
  await page.mouse.move(...centre(pair[0], pair[1] + 1), { steps: 4 });
  await page.mouse.up();
  await page.keyboard.press("Shift+9");
  for (const col of [pair[1], pair[1] + 1]) {
    expect(await page.getAttribute(`#cell-${pair[0]}-${col}`, "aria-label")).toContain("candidates 9");
  }
  // Undo takes both marks back in one step.
  await page.keyboard.press("Control+z");
  expect(await page.getAttribute(`#cell-${pair[0]}-${pair[1]}`, "aria-label")).not.toContain("candidates");

  // A hint comes in two stages: the technique and where to look (the pattern
  // shaded), then, on "Show the step", the whole step with its target cell.
  await page.click("#hint-button");
  await page.waitForSelector("#hint-more", { timeout: WAIT });
  const clue = (await page.textContent("#hint")) ?? "";
  expect(clue).toMatch(/^Hint: (Look|Check|Try)/);
  await page.waitForSelector("svg.board .fill.hint-area", { state: "attached", timeout: WAIT });
  expect(await page.locator("svg.board .fill.hinted").count()).toBe(0);
  await screenshot(page, "main", "hint-clue");
  await page.waitForSelector("#status:has-text('Hints 1')", { timeout: WAIT });
  await page.click("#hint-more");
  await page.waitForSelector("#hint-more", { state: "detached", timeout: WAIT });
  const step = (await page.textContent("#hint")) ?? "";
  expect(step.startsWith("Hint: ") && step !== clue).toBe(true);
  await page.waitForSelector("svg.board .fill.hinted", { state: "attached", timeout: WAIT });
  await screenshot(page, "main", "hint-step");
});

test("keyboard: Escape clears the selection, Ctrl+A selects all, ? shows the shortcuts, Space after a pad click switches the mode", async () => {
  const ada = await namedPlayer(arena, "Ada");
  await createRoom(ada, { mode: "solo" });
  const { puzzle } = await startGame(arena, ada);
  const page = ada.page;
  const selected = () => page.locator("svg.board [aria-selected='true']").count();
  const [a] = emptyCells(puzzle);
  await page.click(`#cell-${a[0]}-${a[1]}`);
  expect(await selected()).toBe(1);
  await page.keyboard.press("Escape");
  expect(await selected()).toBe(0);
  await page.keyboard.press("Control+a");
  expect(await selected()).toBe(81);
  await page.keyboard.press("Escape");

  await page.keyboard.press("?");
  await page.waitForSelector("#shortcuts", { state: "visible", timeout: WAIT });
  expect(await page.textContent("#shortcuts")).toContain("Ctrl + A");
  await screenshot(page, "main", "shortcuts");
  await page.keyboard.press("Escape");
  await page.waitForSelector("#shortcuts", { state: "hidden", timeout: WAIT });

  // A digit from the pad, then Space: the mode switches and nothing is typed again.
  await page.click(`#cell-${a[0]}-${a[1]}`);
  await page.click(".pad button:text-is('1')");
  await waitForLabel(ada, a, ": 1");
  const moves = ada.sent.filter((t) => t === "move").length;
  await page.keyboard.press(" ");
  await page.waitForSelector(".mode.on[data-mode='corner']", { timeout: WAIT });
  expect(ada.sent.filter((t) => t === "move").length).toBe(moves);
});
