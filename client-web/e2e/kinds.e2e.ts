// Every kind of rule the variant corpus uses (../shared/datasets/variants/),
// as the server sends it — each corpus puzzle through `arena export --format
// v1`, which fills in the engine's drawings — drawn by the client's own
// renderer with its stylesheet in Chromium, at desktop and phone width, and
// saved as screenshots (kind-<id>-desktop.png, kind-<id>-phone.png). Each
// puzzle's own solution breaks no rule on the board: the broken-constraint
// marks never cry wolf.

import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { conflicts } from "../src/game/conflicts";
import { geometryOf } from "../src/game/geometry";
import { boardSvg } from "../src/game/render";
import type { PuzzleV1 } from "../src/protocol";
import { datasetsDir, paintOf } from "../test/fixtures";
import { builtArena, clientDir, launchBrowser, screenshot } from "./harness";

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

/** Every corpus puzzle, with its id, as the server would send it (solution kept). */
function corpusAsServed(): Array<{ id: string; puzzle: PuzzleV1 }> {
  const file = join(datasetsDir(), "variants", "puzzles.jsonl");
  const ids = readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => (JSON.parse(l) as { id: string }).id);
  const { arena, plugins } = builtArena();
  const out = execFileSync(arena, ["--plugins", plugins, "export", "--format", "v1", file], { encoding: "utf8", maxBuffer: 64 << 20 });
  const puzzles = out.split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l) as PuzzleV1);
  expect(puzzles.length).toBe(ids.length);
  return puzzles.map((puzzle, i) => ({ id: ids[i], puzzle }));
}

test("every kind of the corpus is drawn at desktop and phone size, and its solution breaks no rule", async () => {
  const css = readFileSync(join(clientDir, "src", "style.css"), "utf8");
  const desktop = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const phone = await browser.newPage({ viewport: { width: 390, height: 844 } });
  const kinds = new Set<string>();
  for (const { id, puzzle } of corpusAsServed()) {
    const g = geometryOf(puzzle);
    const solution = puzzle.solution?.flat() ?? [];
    expect([...conflicts(g, solution)], `${id}: its own solution is marked`).toEqual([]);
    for (const k of puzzle.constraints ?? []) kinds.add(k.type);
    const givens = g.givens;
    const svg = boardSvg(g, paintOf(givens));
    for (const [page, size] of [
      [desktop, "desktop"],
      [phone, "phone"],
    ] as const) {
      await page.setContent(`<!doctype html><html><head><style>${css}</style></head><body><div class="board-col">${svg}</div></body></html>`);
      const drawn = await page.locator('svg.board [class^="drawn-"], svg.board g.cage').count();
      if ((puzzle.drawings ?? []).length > 0) expect(drawn, `${id}: drawings shown`).toBeGreaterThan(0);
      const box = await page.locator("svg.board").boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= (size === "phone" ? 390 : 1280), `${id} fits the ${size} width`).toBe(true);
      await screenshot(page, "svg.board", `kind-${id}-${size}`);
    }
  }
  // The corpus covers the vocabulary: at least these kinds were drawn.
  for (const kind of ["thermometer", "arrow", "difference", "ratio", "xv", "littleKiller", "sandwich", "cage", "renban", "whispers", "palindrome", "between"]) {
    expect(kinds, kind).toContain(kind);
  }
});
