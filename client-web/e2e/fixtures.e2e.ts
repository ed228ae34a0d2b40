// Killer (from the shared dataset), Jigsaw and Samurai geometries drawn by the
// client's own renderer with the client's stylesheet, in Chromium, before their
// plugins exist; each is checked for its shapes and saved as a screenshot.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import type { Browser, Page } from "playwright-core";
import { conflicts } from "../src/game/conflicts";
import { geometryOf, type Geometry } from "../src/game/geometry";
import { boardSvg, type BoardPaint } from "../src/game/render";
import type { PuzzleV1 } from "../src/protocol";
import { jigsawFixture, killerFixture, samuraiFixture } from "../test/fixtures";
import { clientDir, launchBrowser, screenshot } from "./harness";

let browser: Browser;
let page: Page;

beforeAll(async () => {
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 900, height: 900 } });
});

afterAll(async () => {
  await browser?.close();
});

/** Shows `puzzle` (with `values` on it) on a page styled like the client, in light or dark. */
async function show(puzzle: PuzzleV1, values: (g: Geometry) => number[], theme: "light" | "dark" = "light") {
  const g = geometryOf(puzzle);
  const v = values(g);
  const paint: BoardPaint = {
    values: v,
    corner: v.map(() => 0),
    centre: v.map(() => 0),
    selection: new Set([g.cells[0]]),
    peers: new Set(),
    highlight: 0,
    conflicts: conflicts(g, v),
    wrong: new Set(),
    cursors: [],
    editable: true,
  };
  const css = readFileSync(join(clientDir, "src", "style.css"), "utf8");
  await page.setContent(
    `<!doctype html><html data-theme="${theme}"><head><style>${css}</style></head><body><div class="board-col" style="max-width:860px">${boardSvg(g, paint)}</div></body></html>`,
  );
  return g;
}

test("killer: dashed cages with their sums", async () => {
  const { puzzle, solution } = killerFixture();
  const g = await show(puzzle, (g) => g.cells.map((c) => (c % 4 === 0 ? solution[Math.floor(c / 9)][c % 9] : 0)));
  expect(await page.locator("g.cage").count()).toBe(g.cages.length);
  expect(await page.locator("text.cage-sum").allTextContents()).toEqual(g.cages.map((c) => String(c.sum)));
  const dash = await page.locator("line.cage-line").first().evaluate((el) => getComputedStyle(el).strokeDasharray);
  expect(dash).not.toBe("none");
  expect(await page.locator(".value.bad").count()).toBe(0);
  await screenshot(page, "svg.board", "fixture-killer");
});

test("jigsaw: thick borders follow the regions", async () => {
  const g = await show(jigsawFixture(), (g) => g.givens);
  // More thick edges than the 72 of a classic 9x9, fewer than every edge.
  expect(g.thickLines.length).toBeGreaterThan(72);
  expect(await page.locator("line.thick").count()).toBe(g.thickLines.length);
  await screenshot(page, "svg.board", "fixture-jigsaw");
});

test("samurai: five grids, holes left empty, readable at 21x21 (dark mode)", async () => {
  const g = await show(samuraiFixture(), (g) => g.givens, "dark");
  expect(await page.locator("[role=gridcell]").count()).toBe(369);
  expect(await page.locator("#cell-0-10").count()).toBe(0);
  expect(await page.locator(".value.given").count()).toBe(g.givens.filter((v) => v !== 0).length);
  // A cell is at least 36 CSS pixels wide at this size.
  const box = await page.locator("#cell-10-10").boundingBox();
  expect(box?.width ?? 0).toBeGreaterThan(36);
  await screenshot(page, "svg.board", "fixture-samurai");
});
