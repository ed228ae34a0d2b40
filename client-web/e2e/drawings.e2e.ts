// Community puzzles on the board: real f-puzzles links from the variant
// corpus (../shared/datasets/variants/), pasted into "Play your own puzzle",
// played solo; the board draws their rules from the drawing primitives the
// server sends (thermometers, arrows, dots, X/V, outside clues), and each is
// saved as a screenshot.

import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "vitest";
import { datasetsDir } from "../test/fixtures";
import type { PuzzleV1 } from "../src/protocol";
import { cellLabel, lastPuzzle, leaveGame, namedPlayer, screenshot, solve, typeSolution, useArena, waitForMessage, WAIT, type Player } from "./harness";

const arena = useArena();

/** The corpus puzzles that carry their original f-puzzles string, by title. */
function fpuzzlesLinks(): Map<string, string> {
  const text = readFileSync(join(datasetsDir(), "variants", "puzzles.jsonl"), "utf8");
  const links = new Map<string, string>();
  for (const line of text.split("\n").filter((l) => l.trim())) {
    const p = JSON.parse(line) as { title: string; fpuzzles: string | null };
    if (p.fpuzzles) links.set(p.title, `https://www.f-puzzles.com/?load=${p.fpuzzles}`);
  }
  return links;
}

/** Pastes `text` (a link or JSON) into "Play your own puzzle" and plays it solo, until the board is up. */
async function playPasted(player: Player, text: string) {
  if (!(await player.page.locator("#own-puzzle[open]").count())) await player.page.click("#own-puzzle summary");
  await player.page.fill("#puzzle-text", text);
  await player.page.selectOption("#mode", "solo");
  await player.page.click("#create-room");
  await player.page.waitForSelector("svg.board", { timeout: WAIT });
}

/** What each puzzle must show: drawn element classes and how many at least. */
const CASES: Array<{ title: string; shot: string; expect: Record<string, number> }> = [
  { title: "Peak Sudoku", shot: "fpuzzles-little-killer-xv", expect: { "drawn-clue": 1, "drawn-letter": 1 } },
  { title: "Killer Blister", shot: "fpuzzles-killer-little-killer", expect: { "drawn-clue": 1, "cage-line": 4 } },
  { title: "159 Arrows", shot: "fpuzzles-arrows", expect: { "drawn-line": 2, "drawn-arrowhead": 2, "drawn-shape": 2 } },
  { title: "Tiny Scar", shot: "fpuzzles-whispers-xsum", expect: { "drawn-line": 1, "drawn-clue": 1 } },
];

test("pasted f-puzzles links are played with their rules drawn", async () => {
  const links = fpuzzlesLinks();
  const player = await namedPlayer(arena, "Setter");
  for (const c of CASES) {
    const link = links.get(c.title);
    expect(link, c.title).toBeDefined();
    await playPasted(player, link ?? "");
    for (const [cls, least] of Object.entries(c.expect)) {
      const count = await player.page.locator(`svg.board .${cls}`).count();
      expect(count, `${c.title}: .${cls}`).toBeGreaterThanOrEqual(least);
    }
    expect(await cellLabel(player, [0, 0])).toBeTruthy();
    // Its own title, setter and rules, not the variant's.
    const heading = await player.page.textContent("h2.title");
    expect(heading).toContain(`“${c.title}” by `);
    expect(heading).not.toContain("Classic");
    if (c.title === "Peak Sudoku") {
      expect(await player.page.textContent("#rules-text")).toContain("This is the ideal Sudoku");
    }
    // And our own reading of each kind of rule it has.
    const notes = await player.page.locator("#rule-notes li").allTextContents();
    const kind = { "Peak Sudoku": "Little killer clues (", "Killer Blister": "Cages (", "159 Arrows": "Arrows (", "Tiny Scar": "German whispers (" }[c.title];
    expect(notes.some((n) => n.startsWith(kind ?? "?")), `${c.title}: ${notes.join(" | ")}`).toBe(true);
    await screenshot(player.page, "svg.board", c.shot);
    await leaveGame(player);
  }
});

test("on a phone the drawn rules and the clues outside the grid stay on screen", async () => {
  const link = fpuzzlesLinks().get("Killer Blister") ?? "";
  const phone = await namedPlayer(arena, "Phone", { width: 390, height: 844 });
  await playPasted(phone, link);
  // Every outside clue lies inside the screen's width.
  const clues = phone.page.locator("svg.board .drawn-clue");
  expect(await clues.count()).toBeGreaterThanOrEqual(4);
  for (const box of await Promise.all((await clues.all()).map((c) => c.boundingBox()))) {
    expect(box, "a clue's box").not.toBeNull();
    if (box) {
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(390);
      // Readable: a clue's digits at least 10 px tall.
      expect(box.height).toBeGreaterThanOrEqual(10);
    }
  }
  await screenshot(phone.page, "svg.board", "fpuzzles-killer-little-killer-phone");
  // Playing moves nothing on the page: every layout shift counted, input or not.
  await phone.page.evaluate(() => {
    const w = window as unknown as { shifted: number };
    w.shifted = 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.shifted += (e as unknown as { value: number }).value;
    }).observe({ type: "layout-shift" });
  });
  const puzzle = lastPuzzle(phone);
  const solution = solve(arena.server, puzzle);
  await typeSolution(phone, puzzle, solution, 12);
  await phone.page.click("#cell-4-4");
  await phone.page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  expect(await phone.page.evaluate(() => (window as unknown as { shifted: number }).shifted)).toBe(0);
});

test("a digit that breaks an arrow is marked like a repeat, and the arrow's sum helper counts", async () => {
  const player = await namedPlayer(arena, "Breaker");
  await playPasted(player, fpuzzlesLinks().get("159 Arrows") ?? "");
  const room = await waitForMessage(player, (m) => m.type === "room" && m.room.puzzle != null);
  const puzzle = (room.type === "room" ? room.room.puzzle : null) as PuzzleV1;
  // An arrow with an empty circle and a shaft of two or more cells: any digit
  // in the circle below the shaft's length breaks it (each shaft cell adds 1 or more).
  const arrow = (puzzle.constraints ?? []).find(
    (k) => k.type === "arrow" && k.circle.length === 1 && k.line.length >= 2 && puzzle.grid[k.circle[0][0]][k.circle[0][1]] === 0,
  );
  if (arrow?.type !== "arrow") throw new Error("no arrow with an empty circle");
  const [r, c] = arrow.circle[0];
  // A digit no given of the circle's row, column or box holds: only the arrow can object.
  const box = (i: number) => Math.floor(i / 3);
  const seen = new Set<number>();
  puzzle.grid.forEach((row, rr) =>
    row.forEach((v, cc) => {
      if (v && (rr === r || cc === c || (box(rr) === box(r) && box(cc) === box(c)))) seen.add(v);
    }),
  );
  const digit = [1, 2, 3, 4, 5, 6, 7, 8, 9].find((d) => d < arrow.line.length && !seen.has(d));
  if (digit === undefined) throw new Error("no digit only the arrow rules out");
  await player.page.click(`#cell-${r}-${c}`);
  await expect.poll(() => player.page.textContent("#cage-help")).toContain("Arrow");
  expect(await cellLabel(player, [r, c])).not.toContain("conflict");
  await player.page.keyboard.press(String(digit));
  await expect.poll(() => cellLabel(player, [r, c])).toContain("conflict");
  expect(await player.page.textContent("#cage-help")).toContain(`Arrow ${digit}`);
  await screenshot(player.page, ".board-col", "fpuzzles-arrow-broken");
  // Taken back, the mark goes.
  await player.page.keyboard.press("Backspace");
  await expect.poll(() => cellLabel(player, [r, c])).not.toContain("conflict");
});

/** The puzzle behind an f-puzzles or SudokuPad link, as `arena export --format corpus` reads it. */
function exported(link: string): Record<string, unknown> {
  const file = join(mkdtempSync(join(tmpdir(), "arena-link-")), "link.txt");
  writeFileSync(file, `${link}\n`);
  const out = execFileSync(arena.server.arena, ["--plugins", arena.server.plugins, "export", "--format", "corpus", file], { encoding: "utf8" });
  const { id: _id, ...rest } = JSON.parse(out) as Record<string, unknown>;
  return rest;
}

test("a pasted puzzle, solved, is shared back as f-puzzles and SudokuPad links that hold the same puzzle", async () => {
  const pasted = fpuzzlesLinks().get("Peak Sudoku") ?? "";
  const player = await namedPlayer(arena, "Sharer");
  await playPasted(player, pasted);
  const puzzle = lastPuzzle(player);
  await typeSolution(player, puzzle, solve(arena.server, puzzle));
  await player.page.waitForSelector("#share-links", { timeout: WAIT });
  const href = (site: string) => player.page.getAttribute(`#share-links a[data-site="${site}"]`, "href");
  const fpuzzles = (await href("f-puzzles")) ?? "";
  const sudokupad = (await href("SudokuPad")) ?? "";
  expect(fpuzzles).toMatch(/^https:\/\/www\.f-puzzles\.com\/\?load=/);
  expect(sudokupad).toMatch(/^https:\/\/sudokupad\.app\/fpuzzles/);
  // The same rules, givens, title, setter and words, whichever way it went.
  const original = exported(pasted);
  expect(exported(fpuzzles)).toEqual(original);
  expect(exported(sudokupad)).toEqual(original);
  expect(original.title).toBe("Peak Sudoku");
  await screenshot(player.page, "#results", "fpuzzles-shared-back");
});

/** Our own 4x4 in SudokuPad's own format (zipped JSON, LZString): givens, a killer
 * cage, a white and a black dot (which make it unique), a red line, a grey circle. */
const SUDOKUPAD_SCL =
  "https://sudokupad.app/sclN4SwJgXA5ALiB2BPKAaAtgUxgQzNnEw2ArjABYD2ATtAIJ6pXEA2GAztAHLVrbMAETVmwB0/AJIwAOlDb9s/GOxgjUMaABUEyFGwrNSICvGgBGAEwBmACw2L507dsOoAXxQBjDBADaP4ABuEKbuKIEQlu4Auig+YUHWoeFQ5m4xcSgo6Znh5tExVN5+PgAMKCXpZabppuU1KNXppSjmlSiW9a2xtR1N5nWx/dWxlgM+o42xPv1d0+3po7OjvTEe2L7AXr5zFYMNUTFBkTEUGx7q4yIArPsoAO4QJSKjZI/PKDQwnuYQAMQAYp5TH8Su5NhdFtcYg8ni83qNPt8QWDzr4njdLFD7m8ABwoV5PPGIjw/ADC/3J5NcMWYGzuAAdtujylifKZrg0oasIP9/iV+WVyMFQVFXEA===";

test("a SudokuPad link in its own format is played: its dots and cage are rules, the rest drawn", async () => {
  const player = await namedPlayer(arena, "Padder");
  await playPasted(player, SUDOKUPAD_SCL);
  expect(await player.page.textContent("h2.title")).toContain("“Tiny” by Ada");
  expect(await player.page.locator("svg.board .drawn-dot").count()).toBe(2);
  expect(await player.page.locator("svg.board .drawn-line").count()).toBe(1);
  const notes = await player.page.locator("#rule-notes li").allTextContents();
  expect(notes.join(" | ")).toContain("White dots (1)");
  expect(notes.join(" | ")).toContain("Cages (1)");
  await screenshot(player.page, "svg.board", "sudokupad-scl");
  const puzzle = lastPuzzle(player);
  await typeSolution(player, puzzle, solve(arena.server, puzzle));
  await player.page.waitForSelector("#share-links", { timeout: WAIT });
});
