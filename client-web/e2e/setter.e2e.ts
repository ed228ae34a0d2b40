// The setter and the step-through solver in the browser: a classic set clue by
// clue with its live count (the cells where two solutions differ shaded, then
// "exactly one" and its grade), kept across a reload, analysed step by step,
// played solo and analysed after the game; a killer typed with totals and
// L/U/R/D joins; jigsaw regions repainted; lines, dots, marks and rules drawn.

import { execFileSync } from "node:child_process";
import { expect, test } from "vitest";
import type { Page } from "playwright-core";
import { namedPlayer, screenshot, solve, typeSolution, useArena, waitForMessage, WAIT, type Player } from "./harness";
import { setterLink } from "../src/game/setter-link";
import type { PuzzleCheck, PuzzleV1 } from "../src/protocol";

const arena = useArena();

/** Wikipedia's puzzle: 30 givens, one solution, easy. */
const LINE = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

/** Opens the setter from the lobby (on the variant and parameters given). */
async function openSetter(p: Player, variant = "classic") {
  await p.page.click("#open-setter");
  await p.page.waitForSelector("#setter svg.board", { timeout: WAIT });
  if (variant !== "classic") {
    await p.page.selectOption("#setter-variant", variant);
    await waitForMessage(p, (m) => m.type === "setter_template" && m.variant === variant);
    await p.page.waitForSelector("#setter-status:has-text('Several solutions')", { timeout: WAIT });
  }
}

/** The latest count the page received. */
function lastCheck(p: Player): PuzzleCheck {
  for (let i = p.received.length - 1; i >= 0; i--) {
    const m = p.received[i];
    if (m.type === "puzzle_check") return m.check;
  }
  throw new Error("no count yet");
}

/** Waits until `selector` matches `test` of its count; a timeout says what the page had. */
async function waitCount(p: Player, selector: string, test: (n: number) => boolean) {
  const deadline = Date.now() + WAIT;
  for (;;) {
    const n = await p.page.locator(selector).count();
    if (test(n)) return;
    if (Date.now() > deadline) {
      const status = await p.page.textContent("#setter-status");
      const kinds = p.received.filter((m) => m.type === "puzzle_check").slice(-3).map((m) => (m.type === "puzzle_check" ? (m.check.puzzle?.constraints ?? []).map((c) => c.type).join(",") + ` / ${m.check.problem ?? ""}` : ""));
      throw new Error(`${selector}: ${n} found; status "${status}"; the last counts' constraints: ${JSON.stringify(kinds)}`);
    }
    await p.page.waitForTimeout(100);
  }
}

/** Drags over cells, aiming at each cell's own box (an outside clue widens the board). */
async function drag(page: Page, cells: Array<[number, number]>) {
  // The board is redrawn when a count comes back (never during a drag): a
  // cell looked up just then is found again in the new board.
  const centre = async ([r, c]: [number, number]) => {
    for (let tries = 0; tries < 20; tries++) {
      const box = await page.locator(`#setter #cell-${r}-${c}`).boundingBox();
      if (box) return [box.x + box.width / 2, box.y + box.height / 2] as const;
      await page.waitForSelector(`#setter #cell-${r}-${c}`, { state: "attached", timeout: WAIT });
    }
    throw new Error(`no cell r${r + 1}c${c + 1}`);
  };
  // Every cell of the drag on screen first (pressing the board never scrolls
  // it); a cell redrawn while it is scrolled to is scrolled to again.
  const scrollTo = async ([r, c]: [number, number]) => {
    for (let tries = 0; ; tries++) {
      try {
        return await page.locator(`#setter #cell-${r}-${c}`).scrollIntoViewIfNeeded({ timeout: WAIT });
      } catch (e) {
        if (tries >= 20 || !String(e).includes("not attached")) throw e;
      }
    }
  };
  for (const cell of [cells[0], cells[cells.length - 1]]) await scrollTo(cell);
  await page.mouse.move(...(await centre(cells[0])));
  await page.mouse.down();
  for (const cell of cells.slice(1)) await page.mouse.move(...(await centre(cell)), { steps: 3 });
  await page.mouse.up();
}

test("a classic set clue by clue: live count, grade, reload, analysis, then played and analysed", async () => {
  const ada = await namedPlayer(arena, "Setter");
  const page = ada.page;
  // The setter's code is fetched when it opens, not with the first page.
  const fetched: string[] = [];
  page.on("request", (r) => fetched.push(r.url()));
  const loaded = await page.evaluate(() => performance.getEntriesByType("resource").map((e) => e.name));
  expect(loaded.some((u) => u.includes("workshop"))).toBe(false);
  await openSetter(ada);
  expect(fetched.some((u) => u.includes("/assets/workshop-"))).toBe(true);
  await page.waitForSelector("#setter-status:has-text('Several solutions')", { timeout: WAIT });
  const givens = [...LINE].map((ch, i) => [Math.floor(i / 9), i % 9, ch] as const).filter(([, , ch]) => ch !== ".");
  // (Wikipedia's puzzle stays unique without its last given, not without two.)
  for (const [r, c, ch] of givens.slice(0, -2)) {
    await page.click(`#cell-${r}-${c}`);
    await page.keyboard.press(ch);
  }
  // Two givens short: several solutions, and where two of them differ is shaded.
  await page.waitForSelector("#setter-status:has-text('highlighted cells differ')", { timeout: WAIT });
  expect(await page.locator("#setter svg.board .fill.differ").count()).toBeGreaterThan(0);
  expect(await page.isDisabled("#setter-play-solo")).toBe(true);
  await screenshot(page, "#setter", "setter-several");
  for (const [r, c, ch] of givens.slice(-2)) {
    await page.click(`#cell-${r}-${c}`);
    await page.keyboard.press(ch);
  }
  await page.waitForSelector("#setter-status:has-text('Exactly one solution')", { timeout: WAIT });
  expect(await page.textContent("#setter-grade")).toContain("easy puzzle");
  expect(lastCheck(ada).puzzle?.solution ?? null).toBeNull();
  await screenshot(page, "#setter", "setter-unique");

  // The work survives a reload.
  await page.reload();
  await page.waitForSelector("#open-setter", { timeout: WAIT });
  await page.click("#open-setter");
  await page.waitForSelector("#setter-status:has-text('Exactly one solution')", { timeout: WAIT });
  expect(await page.getAttribute("#cell-0-0", "aria-label")).toContain("5 (given)");

  // Analyse: Next, Undo and Finish walk the logical solution.
  await page.click("#setter-analyse");
  await page.waitForSelector("#analysis-technique", { timeout: WAIT });
  expect(await page.textContent("#analysis-counter")).toMatch(/^Step 1 of \d+/);
  expect((await page.textContent("#analysis-explanation")) ?? "").not.toBe("");
  expect(await page.locator("#analysis svg.board .cand").count()).toBeGreaterThan(100);
  await page.click("#analysis-next");
  await page.waitForSelector("#analysis-counter:has-text('Step 2 of')", { timeout: WAIT });
  await screenshot(page, "#analysis", "analysis-step");
  await page.click("#analysis-undo");
  await page.waitForSelector("#analysis-counter:has-text('Step 1 of')", { timeout: WAIT });
  await page.click("#analysis-finish");
  await page.waitForSelector("#analysis-technique:has-text('Solved.')", { timeout: WAIT });
  expect(await page.locator("#analysis svg.board .value").count()).toBe(81);
  await page.click("#analysis-back");
  await page.waitForSelector("#setter-status:has-text('Exactly one solution')", { timeout: WAIT });

  // Played solo: the set puzzle's givens on the board; afterwards, its analysis.
  await page.click("#setter-play-solo");
  await page.waitForSelector("#play svg.board, svg.board[role=grid]", { timeout: WAIT });
  const room = (await waitForMessage(ada, (m) => m.type === "room" && !!m.room.puzzle)) as Extract<import("../src/protocol").ServerMessage, { type: "room" }>;
  const puzzle = room.room.puzzle;
  if (!puzzle) throw new Error("no puzzle");
  expect(puzzle.grid.flat().join("")).toBe(LINE.replace(/\./g, "0"));
  await typeSolution(ada, puzzle, solve(arena.server, puzzle));
  await page.waitForSelector("#analyse", { timeout: WAIT });
  await page.click("#analyse");
  await page.waitForSelector("#analysis-technique", { timeout: WAIT });
  await page.click("#analysis-back");
  await page.waitForSelector("#analyse", { timeout: WAIT });
});

test("a killer typed with totals and L/U/R/D joins, and a cage dragged", async () => {
  const ada = await namedPlayer(arena, "Killer setter");
  const page = ada.page;
  await openSetter(ada, "killer");
  await page.click("#setter-tools button[data-tool=cages]");
  // 1 then 0 quickly: a cage of 10 in r1c1; r1c2 joins it with L.
  await page.click("#cell-0-0");
  await page.keyboard.press("1");
  await page.keyboard.press("0");
  await page.click("#cell-0-1");
  await page.keyboard.press("l");
  // A cage of 17 below, joined upwards from r3c1 with U.
  await page.click("#cell-1-0");
  await page.keyboard.press("1");
  await page.keyboard.press("7");
  await page.click("#cell-2-0");
  await page.keyboard.press("u");
  // Three cells dragged, then their total.
  await drag(page, [[4, 4], [4, 5], [5, 5]]);
  await page.keyboard.press("9");
  await page.waitForFunction(() => document.querySelectorAll("#setter svg.board .cage-sum").length === 3, null, { timeout: WAIT });
  const sums = await page.locator("#setter svg.board .cage-sum").allTextContents();
  expect(sums.sort()).toEqual(["10", "17", "9"].sort());
  await page.waitForFunction(() => /Several solutions/.test(document.querySelector("#setter-status")?.textContent ?? ""), null, { timeout: WAIT });
  const check = lastCheck(ada);
  expect(check.puzzle?.cages?.map((c) => [c.sum, c.cells.length]).sort()).toEqual([[10, 2], [17, 2], [9, 3]].sort());
  await screenshot(page, "#setter", "setter-killer");
});

test("jigsaw regions repainted, and a region of the wrong size named", async () => {
  const ada = await namedPlayer(arena, "Jigsaw setter");
  const page = ada.page;
  await openSetter(ada, "jigsaw");
  await page.click("#setter-tools button[data-tool=regions]");
  expect(await page.locator("#setter svg.board .colour").count()).toBe(81);
  // Two cells of another region painted as region 1: it has 11 cells now.
  const template = (await waitForMessage(ada, (m) => m.type === "setter_template" && m.variant === "jigsaw")) as Extract<import("../src/protocol").ServerMessage, { type: "setter_template" }>;
  const first = template.puzzle.houses.filter((h) => h.kind === "region")[0].cells;
  const outside: Array<[number, number]> = [];
  for (let r = 0; r < 9 && outside.length < 2; r++) {
    for (let c = 0; c < 9 && outside.length < 2; c++) if (!first.some(([fr, fc]) => fr === r && fc === c)) outside.push([r, c]);
  }
  await drag(page, outside);
  await page.keyboard.press("1");
  await page.waitForSelector("#setter-status:has-text('region 1 has 11 cells')", { timeout: WAIT });
  await screenshot(page, "#setter", "setter-jigsaw");
  await page.click("#setter-undo");
  await page.waitForSelector("#setter-status:has-text('Several solutions')", { timeout: WAIT });
});

test("lines, dots, cell marks, outside clues and a global rule drawn and sent as constraints", async () => {
  const ada = await namedPlayer(arena, "Line setter");
  const page = ada.page;
  await openSetter(ada);
  await page.click("#setter-tools button[data-tool=lines]");
  await drag(page, [[0, 0], [0, 1], [0, 2], [1, 2]]);
  await page.selectOption("#setter-kind", "germanWhispers");
  await drag(page, [[3, 3], [4, 4], [5, 5]]);
  await page.click("#setter-tools button[data-tool=dots]");
  await page.selectOption("#setter-kind", "black");
  await drag(page, [[7, 0], [7, 1]]);
  await page.click("#setter-tools button[data-tool=cells]");
  await page.click("#cell-8-8");
  await page.check("#rule-antiKing");
  // A sandwich of 15 on row 9 from the left; a little killer of 20 on the
  // diagonal r1c7-r3c9.
  await page.click("#setter-tools button[data-tool=clues]");
  await drag(page, [[8, 0], [8, 1], [8, 2]]);
  await page.keyboard.press("1");
  await page.keyboard.press("5");
  await page.selectOption("#setter-kind", "littleKiller");
  await drag(page, [[0, 6], [1, 7], [2, 8]]);
  await page.keyboard.press("2");
  await page.keyboard.press("0");
  // A quadruple 1, 2 on the block r5c1-r6c2.
  await page.selectOption("#setter-kind", "quadruple");
  await page.click("#setter #cell-4-0");
  await page.keyboard.press("1");
  await page.keyboard.press("2");
  await waitCount(ada, "#setter svg.board .drawn-corner", (n) => n === 1);
  await waitCount(ada, "#setter svg.board .drawn-clue", (n) => n === 2);
  await waitCount(ada, "#setter svg.board .drawn-line", (n) => n >= 2);
  await waitCount(ada, "#setter svg.board .drawn-dot", (n) => n === 1);
  await page.waitForSelector("#setter-status:has-text('Several solutions')", { timeout: WAIT });
  const thermometer = lastCheck(ada).puzzle?.constraints?.find((c) => c.type === "thermometer");
  expect(thermometer && "cells" in thermometer ? thermometer.cells : []).toEqual([[0, 0], [0, 1], [0, 2], [1, 2]]);
  const types = (lastCheck(ada).puzzle?.constraints ?? []).map((c) => c.type).sort();
  expect(types).toEqual(["antiKing", "even", "littleKiller", "quadruple", "ratio", "sandwich", "thermometer", "whispers"]);
  const sandwich = lastCheck(ada).puzzle?.constraints?.find((c) => c.type === "sandwich");
  expect(sandwich && sandwich.type === "sandwich" ? [sandwich.sum, sandwich.cells.length] : []).toEqual([15, 9]);
  const diagonal = lastCheck(ada).puzzle?.constraints?.find((c) => c.type === "littleKiller");
  expect(diagonal && diagonal.type === "littleKiller" ? [diagonal.sum, diagonal.cells.length] : []).toEqual([20, 3]);
  await screenshot(page, "#setter", "setter-lines");
  // Erasing through a cell takes its line off.
  await page.click("#setter-tools button[data-tool=erase]");
  await page.click("#cell-4-4");
  await page.waitForFunction(
    () => document.querySelectorAll("#setter svg.board .drawn-line").length === 1,
    null,
    { timeout: WAIT },
  );
});

test("a Gattai set on its overlapping grids", async () => {
  const ada = await namedPlayer(arena, "Gattai setter");
  const page = ada.page;
  await openSetter(ada, "gattai");
  const template = (await waitForMessage(ada, (m) => m.type === "setter_template" && m.variant === "gattai")) as Extract<import("../src/protocol").ServerMessage, { type: "setter_template" }>;
  const { rows, cols } = template.puzzle.layout;
  expect(rows).toBeGreaterThan(9);
  // A given in a cell two grids share, typed on the zoomable board.
  const shared = template.puzzle.cells?.find(([r, c]) => r >= 6 && r < 9 && c >= 6 && c < 9) ?? [6, 6];
  await page.click(`#setter #cell-${shared[0]}-${shared[1]}`);
  await page.keyboard.press("7");
  await page.waitForFunction(
    ([r, c]) => (document.querySelector(`#setter #cell-${r}-${c}`)?.getAttribute("aria-label") ?? "").includes("7 (given)"),
    shared,
    { timeout: WAIT },
  );
  await page.waitForSelector("#setter-status:has-text('Several solutions')", { timeout: WAIT });
  expect(lastCheck(ada).puzzle?.grid[shared[0]][shared[1]]).toBe(7);
  expect(await page.locator("#setter svg.board .fill.differ").count()).toBeGreaterThan(0);
  await screenshot(page, "#setter", "setter-gattai");
  expect(cols).toBeGreaterThan(9);
});

test("a killer shared as a setter link: its analysis outlines the cages its steps read", async () => {
  // A generated killer (cages only), sent as a `#set=` link.
  const out = execFileSync(arena.server.arena, ["--plugins", arena.server.plugins, "generate", "--variant", "killer", "--difficulty", "medium", "--seed", "setter-link"], { encoding: "utf8" });
  const killer = JSON.parse(out.trim().split("\n")[0]) as PuzzleV1;
  const link = setterLink(`${arena.server.url}/`, { variant: "killer", params: killer.params ?? {}, grid: killer.grid, cages: killer.cages ?? [], regions: [], constraints: [] });
  const ada = await namedPlayer(arena, "Killer analyst");
  const page = ada.page;
  await page.goto(link);
  await page.waitForSelector("#setter-status:has-text('Exactly one solution')", { timeout: WAIT });
  expect(await page.locator("#setter svg.board .cage-sum").count()).toBe((killer.cages ?? []).length);
  await page.click("#setter-analyse");
  const told = await waitForMessage(ada, (m) => m.type === "analysis");
  if (told.type !== "analysis") throw new Error("no analysis");
  const caged = told.analysis.steps.findIndex((step) => step.cage.length > 0);
  expect(caged).toBeGreaterThanOrEqual(0);
  for (let i = 0; i < caged; i++) await page.keyboard.press("ArrowRight");
  await page.waitForSelector(`#analysis-counter:has-text('Step ${caged + 1} of')`, { timeout: WAIT });
  await page.waitForSelector("#analysis-cage", { timeout: WAIT });
  expect(await page.locator("#analysis svg.board .step-cage-line").count()).toBeGreaterThan(0);
  await screenshot(page, "#analysis", "analysis-killer-cage");
});
