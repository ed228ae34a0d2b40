// Everything a player needs fits one screen, on a desktop (1280x800) and on a
// phone (390x844): nothing wider than the screen, and in a game the timer, the
// whole board and the digit pad in view without scrolling. Big grids on a phone
// zoom in to readable cells and follow the selection.

import { expect, test } from "vitest";
import { createRoom, fillByClicks, meetByLink, namedPlayer, screenshotScreen, startGame, useArena, WAIT, type Player } from "./harness";

const arena = useArena();

const SCREENS = [
  { name: "desktop", width: 1280, height: 800 },
  { name: "phone", width: 390, height: 844 },
];

/** How far the page is wider than the screen (0 when it fits). */
function overflowX(p: Player): Promise<number> {
  return p.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

/** Whether the element is wholly inside the viewport (the page not scrolled). */
async function inView(p: Player, selector: string): Promise<boolean> {
  return p.page.evaluate((sel) => {
    const el = document.querySelector(sel);
    if (!el) return false;
    const b = el.getBoundingClientRect();
    return window.scrollY === 0 && b.top >= 0 && b.left >= 0 && b.bottom <= window.innerHeight + 0.5 && b.right <= window.innerWidth + 0.5;
  }, selector);
}

for (const screen of SCREENS) {
  test(`${screen.name}: the lobby and a 9x9 game fit the screen, board, pad and timer together`, async () => {
    const ada = await namedPlayer(arena, "Ada", { width: screen.width, height: screen.height });
    expect(await overflowX(ada)).toBeLessThanOrEqual(0);
    await screenshotScreen(ada.page, `layout-lobby-${screen.name}`);
    await createRoom(ada, { mode: "solo" });
    await startGame(arena, ada);
    // The game opens at its top, though the lobby was scrolled down to its form.
    expect(await overflowX(ada)).toBeLessThanOrEqual(0);
    for (const part of ["svg.board", "#timer", ".pad button.digit[data-value='9']", ".pad button[aria-label='Redo']", "#leave"]) {
      expect(await inView(ada, part), `${part} in view`).toBe(true);
    }
    await screenshotScreen(ada.page, `layout-game-${screen.name}`);
  });
}

test("phone: a hint's words show without scrolling", async () => {
  const ada = await namedPlayer(arena, "Ada", { width: 390, height: 844 });
  await createRoom(ada, { mode: "solo" });
  await startGame(arena, ada);
  await ada.page.click("#hint-button");
  await ada.page.waitForFunction(() => (document.querySelector("#hint")?.textContent ?? "").length > 0, undefined, { timeout: WAIT });
  expect(await inView(ada, "#hint"), "the hint in view").toBe(true);
  expect(await inView(ada, "svg.board"), "and the board").toBe(true);
  expect(await inView(ada, ".pad button[aria-label='Redo']"), "and the whole pad").toBe(true);
  await screenshotScreen(ada.page, "layout-hint-phone");
});

test("desktop: a finished race's results sit beside the board, the whole board still in view; each racer's row is one line", async () => {
  const [ada, bob] = await meetByLink(arena, { mode: "race" });
  for (const p of [ada, bob]) await p.page.setViewportSize({ width: 1280, height: 800 });
  const { puzzle, solution } = await startGame(arena, ada, [bob]);
  // The race's header is one line.
  const headHeight = () => ada.page.evaluate(() => document.querySelector(".game-head")?.getBoundingClientRect().height ?? 0);
  expect(await headHeight()).toBeLessThan(56);
  await fillByClicks(ada, puzzle, solution);
  await fillByClicks(bob, puzzle, solution);
  await ada.page.waitForSelector("#results:not([hidden])", { timeout: WAIT });
  await ada.page.evaluate(() => window.scrollTo(0, 0));
  for (const part of ["svg.board", "#results", "#rematch", "#timer"]) expect(await inView(ada, part), `${part} in view`).toBe(true);
  expect(await headHeight()).toBeLessThan(56);
  // Every racer's row (place, dot, name, bar, time) on one line.
  const rowHeights = await ada.page.evaluate(() => [...document.querySelectorAll(".progress-list li")].map((li) => li.getBoundingClientRect().height));
  expect(rowHeights).toHaveLength(2);
  for (const height of rowHeights) expect(height).toBeLessThan(36);
  await screenshotScreen(ada.page, "layout-race-results-desktop");
});

/** Whether everything a player needs is in view: the clock, Leave, the board's box and the whole pad. */
async function needsInView(p: Player, values: number): Promise<Record<string, boolean>> {
  const out: Record<string, boolean> = {};
  for (const part of ["#timer", "#leave", ".board-box", ".pad button[aria-label='Redo']", `.pad button.digit[data-value='${values}']`]) out[part] = await inView(p, part);
  return out;
}

const BIG: Array<{ name: string; variant: string; params: Record<string, string>; values: number; opensZoomed: boolean }> = [
  { name: "16x16", variant: "classic", params: { box: "4x4" }, values: 16, opensZoomed: false },
  { name: "25x25", variant: "classic", params: { box: "5x5" }, values: 25, opensZoomed: true },
  { name: "Samurai", variant: "gattai", params: { mode: "samurai" }, values: 9, opensZoomed: false },
];
for (const big of BIG) {
  test(`phone: a ${big.name} fits with its whole pad, zoomed in or out`, async () => {
    const ada = await namedPlayer(arena, "Ada", { width: 390, height: 844 });
    await createRoom(ada, { variant: big.variant, params: big.params, mode: "solo" });
    await startGame(arena, ada);
    const cellWidth = () => ada.page.evaluate(() => document.querySelector("#cell-0-0")?.getBoundingClientRect().width ?? 0);
    const digitSize = () => ada.page.evaluate(() => Math.max(...[...document.querySelectorAll(".board .value")].map((t) => (t as SVGGraphicsElement).getBoundingClientRect().height)));
    // A board whose cells would be unreadable (a 25x25's 15 px) opens zoomed in.
    await ada.page.waitForSelector(`#zoom[aria-pressed='${big.opensZoomed}']`, { timeout: WAIT });
    for (const zoomed of [big.opensZoomed, !big.opensZoomed]) {
      if (zoomed !== big.opensZoomed) await ada.page.click("#zoom");
      await ada.page.waitForSelector(`#zoom[aria-pressed='${zoomed}']`, { timeout: WAIT });
      await ada.page.evaluate(() => window.scrollTo(0, 0));
      expect(await overflowX(ada)).toBeLessThanOrEqual(0);
      const shown = await needsInView(ada, big.values);
      expect(shown, `${zoomed ? "zoomed" : "unzoomed"}: ${JSON.stringify(shown)}`).toEqual(Object.fromEntries(Object.keys(shown).map((k) => [k, true])));
      // Zoomed in, cells are finger-sized; the state a board opens in is readable.
      if (zoomed) expect(await cellWidth()).toBeGreaterThanOrEqual(36);
      if (zoomed === big.opensZoomed) expect(await cellWidth()).toBeGreaterThanOrEqual(17);
      if (zoomed === big.opensZoomed) expect(await digitSize()).toBeGreaterThanOrEqual(zoomed ? 20 : 12);
      await screenshotScreen(ada.page, `layout-${big.name}-phone-${zoomed ? "zoomed" : "unzoomed"}`);
    }
    // Focused from the keyboard, the board shows it along its own edge (a
    // Samurai's shape), never as a rectangle around its holes.
    await ada.page.focus("svg.board");
    const focus = await ada.page.evaluate(() => {
      const svg = document.querySelector("svg.board");
      return { outline: svg ? getComputedStyle(svg).outlineStyle : "", edges: document.querySelectorAll("svg.board .thick.edge").length };
    });
    expect(focus.outline).toBe("none");
    expect(focus.edges).toBeGreaterThan(0);
  });
}

test("phone: a 16x16 grid zooms in to readable cells that follow the selection", async () => {
  const ada = await namedPlayer(arena, "Ada", { width: 390, height: 844 });
  await createRoom(ada, { variant: "classic", params: { box: "4x4" }, mode: "solo" });
  await startGame(arena, ada);
  expect(await overflowX(ada)).toBeLessThanOrEqual(0);
  const cellWidth = () => ada.page.evaluate(() => document.querySelector("#cell-0-0")?.getBoundingClientRect().width ?? 0);
  expect(await cellWidth()).toBeLessThan(30);
  await ada.page.click("#zoom");
  await ada.page.waitForSelector("#zoom[aria-pressed='true']", { timeout: WAIT });
  expect(await cellWidth()).toBeGreaterThanOrEqual(36);
  // Walk to the far corner with the keys: the view follows the cursor.
  await ada.page.click("#cell-0-0");
  for (let i = 0; i < 15; i++) {
    await ada.page.keyboard.press("ArrowRight");
    await ada.page.keyboard.press("ArrowDown");
  }
  const cursorInBox = await ada.page.evaluate(() => {
    const box = document.querySelector(".board-box")?.getBoundingClientRect();
    const cell = document.querySelector("#cell-15-15")?.getBoundingClientRect();
    return !!box && !!cell && cell.left >= box.left - 1 && cell.right <= box.right + 1 && cell.top >= box.top - 1 && cell.bottom <= box.bottom + 1;
  });
  expect(cursorInBox).toBe(true);
  expect(await overflowX(ada)).toBeLessThanOrEqual(0);
  await screenshotScreen(ada.page, "layout-16x16-phone-zoomed");
});
