// Pencil marks as SudokuPad draws them (corner marks fill the corners in order,
// centre marks shrink to fit), and a digit pad that counts: each digit's number
// still to place, a finished digit greyed out, and a placed digit clearing
// itself from the marks of the cells that see it.

import { expect, test } from "vitest";
import { cellLabel, createRoom, emptyCells, namedPlayer, screenshot, startGame, useArena, waitForLabel, waitForMessage, WAIT, type RC, meetByLink } from "./harness";

const arena = useArena();

/** The bounding boxes of a cell and of its mark texts, in page pixels. */
async function markBoxes(page: import("playwright-core").Page, [r, c]: RC, cls: "corner" | "centre") {
  return page.evaluate(
    ([row, col, kind]) => {
      const hit = document.querySelector(`#cell-${row}-${col}`) as SVGGraphicsElement;
      const cell = hit.getBoundingClientRect();
      const index = hit.dataset.cell;
      const x0 = cell.left;
      const texts = [...document.querySelectorAll<SVGTextElement>(`svg.board text.${kind}`)].filter((t) => {
        const box = t.getBoundingClientRect();
        const cx = box.left + box.width / 2;
        const cy = box.top + box.height / 2;
        return kind === "corner" ? t.dataset.cell === index : cx > x0 && cx < cell.right && cy > cell.top && cy < cell.bottom;
      });
      return { cell: { left: cell.left, top: cell.top, right: cell.right, bottom: cell.bottom }, marks: texts.map((t) => { const b = t.getBoundingClientRect(); return { text: t.textContent, left: b.left, top: b.top, right: b.right, bottom: b.bottom }; }) };
    },
    [r, c, cls] as const,
  );
}

test("corner marks sit in the corners in order; nine centre marks fit inside their cell", async () => {
  const ada = await namedPlayer(arena, "Ada");
  await createRoom(ada, { mode: "solo" });
  const { puzzle } = await startGame(arena, ada);
  const [a, b] = emptyCells(puzzle);
  await ada.page.click(`#cell-${a[0]}-${a[1]}`);
  await ada.page.keyboard.press("Shift+5");
  let corner = await markBoxes(ada.page, a, "corner");
  const { cell } = corner;
  const w = cell.right - cell.left;
  // A lone 5: the top-left corner, not the middle of the cell.
  expect(corner.marks).toHaveLength(1);
  expect(corner.marks[0].right).toBeLessThan(cell.left + w / 2);
  expect(corner.marks[0].bottom).toBeLessThan(cell.top + w / 2);
  await ada.page.keyboard.press("Shift+7");
  corner = await markBoxes(ada.page, a, "corner");
  const seven = corner.marks.find((m) => m.text === "7");
  expect(seven && seven.left).toBeGreaterThan(cell.left + w / 2);
  expect(seven && seven.bottom).toBeLessThan(cell.top + w / 2);

  await ada.page.click(`#cell-${b[0]}-${b[1]}`);
  for (let v = 1; v <= 9; v++) await ada.page.keyboard.press(`Control+${v}`);
  await waitForLabel(ada, b, "candidates 1 2 3 4 5 6 7 8 9");
  const centre = await markBoxes(ada.page, b, "centre");
  expect(centre.marks.map((m) => m.text).join("")).toBe("123456789");
  for (const m of centre.marks) {
    expect(m.left).toBeGreaterThanOrEqual(centre.cell.left);
    expect(m.right).toBeLessThanOrEqual(centre.cell.right);
    expect(m.top).toBeGreaterThanOrEqual(centre.cell.top);
    expect(m.bottom).toBeLessThanOrEqual(centre.cell.bottom);
  }
  await screenshot(ada.page, "svg.board", "pencil-marks");
});

test("the pad counts what is left of each digit; placing one clears it from its peers' marks", async () => {
  const ada = await namedPlayer(arena, "Ada");
  await createRoom(ada, { mode: "solo" });
  const { puzzle, solution } = await startGame(arena, ada);
  const empty = emptyCells(puzzle);
  const count = async (v: number) => (await ada.page.textContent(`.pad button[data-value='${v}'] .count`))?.trim();
  // An empty cell with an empty row-mate (some rows of a generated puzzle have
  // one empty cell only), its digit, and every empty cell of that digit, it first.
  const first = empty.find(([r, c]) => empty.some(([r2, c2]) => r2 === r && c2 !== c));
  if (!first) throw new Error("no row with two empty cells");
  const mate = empty.find(([r, c]) => r === first[0] && c !== first[1]);
  if (!mate) throw new Error("no empty cell beside the first");
  const digit = solution[first[0]][first[1]];
  const others = empty.filter(([r, c]) => solution[r][c] === digit && (r !== first[0] || c !== first[1]));
  const left = [first, ...others];
  expect(await count(digit)).toBe(String(left.length));
  await ada.page.click(`#cell-${mate[0]}-${mate[1]}`);
  await ada.page.keyboard.press(`Shift+${digit}`);
  await waitForLabel(ada, mate, `candidates ${digit}`);

  await ada.page.click(`#cell-${first[0]}-${first[1]}`);
  await ada.page.keyboard.press(String(digit));
  await waitForMessage(ada, (m) => m.type === "move_accepted" && m.row === first[0] && m.col === first[1]);
  expect(await cellLabel(ada, mate)).not.toContain(`candidates ${digit}`);
  expect(await count(digit)).toBe(String(left.length - 1));
  // The option off: the mark of a row-mate of the next cell stays.
  const second = left[1];
  const mate2 = second && empty.find(([r, c]) => r === second[0] && c !== second[1]);
  if (second && mate2) {
    await ada.page.click(`#cell-${mate2[0]}-${mate2[1]}`);
    await ada.page.keyboard.press(`Shift+${digit}`);
    await ada.page.uncheck("#auto-clear");
    await ada.page.click(`#cell-${second[0]}-${second[1]}`);
    await ada.page.keyboard.press(String(digit));
    await waitForMessage(ada, (m) => m.type === "move_accepted" && m.row === second[0] && m.col === second[1]);
    expect(await cellLabel(ada, mate2)).toContain(`candidates ${digit}`);
  }
  // Every cell of the digit filled (each move answered before the next: on a
  // loaded machine a click could land before the last key was handled): its
  // button greys out.
  for (const [r, c] of left.slice(2)) {
    await ada.page.click(`#cell-${r}-${c}`);
    await ada.page.keyboard.press(String(digit));
    await waitForMessage(ada, (m) => m.type === "move_accepted" && m.row === r && m.col === c);
  }
  await ada.page.waitForSelector(`.pad button.done[data-value='${digit}']`, { timeout: WAIT });
  expect(await count(digit)).toBe("0");
  await screenshot(ada.page, ".board-col", "pad-counts");
});

test("in a race, filling in the candidates costs a hint that everyone sees", async () => {
  const [ada, bob] = await meetByLink(arena, { mode: "race" });
  const { puzzle } = await startGame(arena, ada, [bob]);
  const [a] = emptyCells(puzzle);
  expect(await ada.page.textContent("#fill-candidates")).toBe("Candidates (+30 s)");
  await ada.page.click("#fill-candidates");
  await waitForMessage(ada, (m) => m.type === "candidates_filled");
  await waitForLabel(ada, a, "candidates");
  await ada.page.waitForSelector("#status:has-text('Hints 1')", { timeout: WAIT });
  await waitForMessage(bob, (m) => m.type === "progress" && m.player.name === "Ada" && m.player.hints === 1);
  await screenshot(ada.page, "main", "race-candidates-filled");
});

test("colour mode paints cells from SudokuPad's palette; the colours survive a reload", async () => {
  const ada = await namedPlayer(arena, "Ada");
  await createRoom(ada, { mode: "solo" });
  const { puzzle } = await startGame(arena, ada);
  const [a, b] = emptyCells(puzzle);
  await ada.page.click("[data-mode='colour']");
  // The pad shows the palette.
  expect(await ada.page.evaluate(() => getComputedStyle(document.querySelector(".pad button[data-value='5']") as Element).backgroundColor)).toBe("rgb(230, 161, 207)");
  await ada.page.click(`#cell-${a[0]}-${a[1]}`);
  await ada.page.click(`#cell-${b[0]}-${b[1]}`, { modifiers: ["Control"] });
  await ada.page.keyboard.press("5");
  await ada.page.waitForFunction(() => document.querySelectorAll("svg.board rect.colour").length === 2, null, { timeout: WAIT });
  // Values are untouched, and nothing went to the server.
  expect(await cellLabel(ada, a)).toContain("empty");
  await screenshot(ada.page, ".board-col", "colour-mode");
  await ada.page.reload();
  await ada.page.waitForSelector("svg.board", { timeout: WAIT });
  await ada.page.waitForFunction(() => document.querySelectorAll("svg.board rect.colour").length === 2, null, { timeout: WAIT });
});
