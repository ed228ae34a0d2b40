// Every bundled variant, at every parameter value, is played solo in the browser:
// the board is drawn from the geometry the server sends, takes digits, corner and
// centre marks, and a screenshot of each is saved under e2e/artifacts/.

import { beforeAll, expect, test } from "vitest";
import { geometryOf } from "../src/game/geometry";
import type { Manifest } from "../src/protocol";
import { cellLabel, createRoom, emptyCells, namedPlayer, screenshot, startGame, useArena, waitForMessage, type Player, leaveGame } from "./harness";

const arena = useArena();
let player: Player;
let variants: Manifest[];

beforeAll(async () => {
  player = await namedPlayer(arena, "Shots");
  const m = await waitForMessage(player, (m) => m.type === "variants");
  variants = m.type === "variants" ? m.variants : [];
});

test("every bundled variant is offered with its rules", () => {
  const ids = variants.map((v) => v.id);
  for (const id of ["classic", "x-sudoku", "windoku", "anti-knight", "gattai", "jigsaw", "killer"]) expect(ids).toContain(id);
});

test("each variant's board renders, takes input, and is saved as a screenshot", async () => {
  const page = player.page;
  for (const v of variants) {
    const combos: Array<Record<string, string>> = [{}];
    for (const p of v.params) {
      const values = p.allowed.map(String);
      combos.splice(0, combos.length, ...combos.flatMap((c) => values.map((x) => ({ ...c, [p.key]: x }))));
    }
    for (const params of combos) {
      const name = [v.id, ...Object.entries(params).map(([k, x]) => `${k}-${x}`)].join("_");
      // The parameter values are sent as the manifest spells them.
      const typed = Object.fromEntries(
        Object.entries(params).map(([k, x]) => [k, v.params.find((p) => p.key === k)?.allowed.find((a) => String(a) === x) ?? x]),
      );
      await createRoom(player, { variant: v.id, params: typed as Record<string, string>, difficulty: v.difficulties[0], mode: "solo" });
      const { puzzle, solution } = await startGame(arena, player);
      // The header names the variant with each parameter's display label (a
      // yes/no parameter only when on).
      for (const p of v.params) {
        const i = p.allowed.map(String).indexOf(params[p.key]);
        if (p.allowed[i] === false) continue;
        // (A label's own parentheses read as a comma inside the title's.)
        const label = p.labels?.[i]?.replace(/^(.*?)\s*\((.*)\)$/, "$1, $2");
        expect(await page.textContent("h2.title")).toContain(label ?? (p.allowed[i] === true ? p.name : params[p.key]));
      }
      expect(await page.locator("svg.board [role=gridcell]").count()).toBe(puzzle.cells?.length ?? puzzle.layout.rows * puzzle.layout.cols);
      // One right digit, a corner mark and a centre mark on the first empty cells.
      const { symbols } = geometryOf(puzzle);
      const [a, b, c] = emptyCells(puzzle);
      await page.click(`#cell-${a[0]}-${a[1]}`);
      await page.keyboard.press(symbols[solution[a[0]][a[1]] - 1]);
      await waitForMessage(player, (m) => m.type === "move_accepted" && m.row === a[0] && m.col === a[1]);
      await page.click(`#cell-${b[0]}-${b[1]}`);
      await page.keyboard.press(`Shift+${symbols[0]}`);
      await page.keyboard.press(`Shift+${symbols[1]}`);
      await page.click(`#cell-${c[0]}-${c[1]}`);
      await page.keyboard.press(`Control+${symbols[2]}`);
      await page.keyboard.press(`Control+${symbols[3]}`);
      const label = (r: number, col: number) => cellLabel(player, [r, col]);
      expect(await label(a[0], a[1])).toContain(`: ${symbols[solution[a[0]][a[1]] - 1]}`);
      expect(await label(b[0], b[1])).toContain(`candidates ${symbols[0]} ${symbols[1]}`);
      expect(await label(c[0], c[1])).toContain(`candidates ${symbols[2]} ${symbols[3]}`);
      await screenshot(page, ".board-col", name);
      await leaveGame(player);
    }
  }
});
