// Killer Sudoku in the browser: no givens, cages drawn with their sums, the
// cage helper a killer player reads (the digit sets of the selected cage, those
// its digits rule out struck through), a cage sum that turns red once broken,
// hints that explain cage reasoning; raced desktop against phone, and solved
// together.

import { describe, expect, test } from "vitest";
import { cellLabel, createRoom, emptyCells, fillByClicks, namedPlayer, screenshot, screenshotScreen, startGame, useArena, waitForMessage, WAIT, type Player, leaveGame, meetByLink } from "./harness";

const arena = useArena();
const PHONE = { width: 390, height: 844 };
const KILLER = { variant: "killer", params: { size: "9x9" }, difficulty: "medium" };

/** Ada (desktop) creates a killer room, Bob (phone) joins by its link. */
async function meet(mode: "race" | "coop"): Promise<[Player, Player]> {
  const [ada, bob] = await meetByLink(arena, { ...KILLER, mode }, PHONE);
  if (mode === "race") {
    await bob.page.click("#ready");
    await ada.page.waitForSelector("#ready-count:has-text('1 of 1 ready')", { timeout: WAIT });
  }
  return [ada, bob];
}

test("solo: the cage helper, a broken cage sum, and hints that explain the cages", async () => {
  const ada = await namedPlayer(arena, "Ada");
  await createRoom(ada, { ...KILLER, mode: "solo" });
  const { puzzle, solution } = await startGame(arena, ada);
  const page = ada.page;
  expect(await page.textContent("h2.title")).toContain("Killer Sudoku");
  expect(emptyCells(puzzle)).toHaveLength(81);
  const cages = puzzle.cages ?? [];
  expect(await page.locator("svg.board .cage-sum").count()).toBe(cages.length);

  // The helper follows the selection: a cage of two or more cells, its sum and size.
  const cage = cages.find((c) => c.cells.length >= 3) ?? cages[0];
  const [first, ...rest] = cage.cells;
  await page.click(`#cell-${first[0]}-${first[1]}`);
  await page.waitForSelector(`#cage-help h3:has-text('Cage ${cage.sum} in ${cage.cells.length}')`, { timeout: WAIT });
  const sets = await page.locator("#cage-help .set").allTextContents();
  expect(sets.length).toBeGreaterThan(0);
  expect(await page.locator("#cage-help .set.gone").count()).toBe(0);
  // Its right digit leaves exactly the sets holding it.
  const digit = String(solution[first[0]][first[1]]);
  await page.keyboard.press(digit);
  await waitForMessage(ada, (m) => m.type === "move_accepted");
  const holding = sets.filter((s) => s.includes(digit)).length;
  await page.waitForFunction((n) => document.querySelectorAll("#cage-help .set:not(.gone)").length === n, holding, { timeout: WAIT });
  await screenshot(page, "main", "killer-helper");

  // The largest digit in every other cell of the cage passes any sum it can have.
  for (const [r, c] of rest) {
    await page.click(`#cell-${r}-${c}`);
    await page.keyboard.press("9");
  }
  await page.waitForSelector("svg.board .cage-sum.bad", { timeout: WAIT });
  expect(await page.locator("svg.board .cage-sum.bad").count()).toBe(1);
  await page.waitForSelector("#cage-help .muted:has-text('No digit set fits')", { timeout: WAIT });
  await screenshot(page, "main", "killer-broken-cage");
  for (const [r, c] of rest) {
    await page.click(`#cell-${r}-${c}`);
    await page.keyboard.press("Backspace");
  }
  await page.waitForSelector("svg.board .cage-sum.bad", { state: "detached", timeout: WAIT });

  // A hint names the cage's sum and the digit sets that fill it.
  await page.click("#hint-button");
  await page.waitForSelector("#hint-more", { timeout: WAIT });
  await page.click("#hint-more");
  await page.waitForSelector("#hint-more", { state: "detached", timeout: WAIT });
  const step = (await page.textContent("#hint")) ?? "";
  expect(step).toMatch(/adds? up to/);
  await screenshot(page, "main", "killer-hint");

  // The button under the step does it: a digit placed (the server takes it), or
  // the candidates it rules out taken out of my marks.
  const told = await waitForMessage(ada, (m) => m.type === "hint");
  const hint = told.type === "hint" ? told.hint : null;
  if (!hint) throw new Error("no hint");
  if (hint.value != null) {
    const [hr, hc] = hint.cell;
    expect(hint.value).toBe(solution[hr][hc]);
    await page.click("#hint-apply");
    await waitForMessage(ada, (m) => m.type === "move_accepted" && m.row === hr && m.col === hc && m.value === hint.value);
    expect(await cellLabel(ada, [hr, hc])).toContain(`: ${hint.value}`);
  } else {
    const [er, ec] = hint.eliminations[0];
    const gone = hint.eliminations.filter(([r, c]) => r === er && c === ec).map(([, , v]) => v);
    await page.click(`#cell-${er}-${ec}`);
    for (const v of gone) await page.keyboard.press(`Control+${v}`);
    expect(await cellLabel(ada, [er, ec])).toContain(`candidates ${gone.join(" ")}`);
    expect(await page.textContent("#hint-apply")).toBe("Remove them");
    await page.click("#hint-apply");
    await expect.poll(() => cellLabel(ada, [er, ec])).not.toContain("candidates");
  }
  await page.waitForSelector("#hint-apply", { state: "detached", timeout: WAIT });
});

describe("killer with two players", () => {
  test("a race, desktop against phone: the phone plays a cage or two, then forfeits", async () => {
    const [ada, bob] = await meet("race");
    const { puzzle, solution } = await startGame(arena, ada, [bob]);
    expect(puzzle.solution ?? null, "the server never sends the solution").toBeNull();
    // On the phone every cage total reads at 12 px or more.
    const sumPx = await bob.page.evaluate(() => {
      const svg = document.querySelector("svg.board") as SVGSVGElement;
      const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
      return [...document.querySelectorAll("svg.board text.cage-sum")].map((t) => Number(t.getAttribute("font-size")) * scale);
    });
    expect(sumPx.length).toBeGreaterThan(0);
    expect(Math.min(...sumPx)).toBeGreaterThanOrEqual(12);
    const cells = emptyCells(puzzle);
    await fillByClicks(bob, puzzle, solution, cells.slice(-10));
    await screenshotScreen(bob.page, "killer-race-phone");
    await leaveGame(bob);
    await ada.page.waitForFunction(() => document.querySelector("#people")?.textContent?.includes("left"), null, { timeout: WAIT });
    await fillByClicks(ada, puzzle, solution);
    await waitForMessage(ada, (m) => m.type === "finished");
    await ada.page.waitForSelector("#ranks", { timeout: WAIT });
    const ranks = await ada.page.locator("#ranks tbody tr").allTextContents();
    expect(ranks).toHaveLength(1);
    expect(ranks[0]).toContain("Ada");
    await screenshot(ada.page, "main", "killer-race-desktop");
  });

  test("solved together, desktop and phone", async () => {
    const [ada, bob] = await meet("coop");
    const { puzzle, solution } = await startGame(arena, ada, [bob]);
    const cells = emptyCells(puzzle);
    const half = Math.floor((cells.length * 2) / 3);
    await fillByClicks(ada, puzzle, solution, cells.slice(0, half));
    await screenshot(ada.page, "main", "killer-coop-desktop");
    await fillByClicks(bob, puzzle, solution, cells.slice(half));
    for (const p of [ada, bob]) {
      await waitForMessage(p, (m) => m.type === "finished");
      await p.page.waitForSelector("#results-title:has-text('Solved together')", { timeout: WAIT });
    }
    await screenshotScreen(bob.page, "killer-coop-phone");
  });
});
