// How long a move takes to draw on a busy board, in Debian's Chromium: a 9x9
// with 10 thermometers, 6 arrows and 20 Kropki dots beside the same 9x9 with
// none, at desktop (1280x800) and phone (390x844) size, interleaved. Each frame
// is the client's own work for a move (conflicts from the rules, both changing
// layers of the real BoardView) and the style and layout it forces; painting
// happens after, off this clock. Prints a table; `npm run perf`.

import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { build } from "vite";
import { afterAll, beforeAll, test } from "vitest";
import { classic } from "../test/fixtures";
import type { Constraint, PuzzleV1 } from "../src/protocol";
import { builtArena, clientDir, launchBrowser } from "../e2e/harness";

const FRAMES = 400;
/** Empty cells the frames fill in and take back. */
const EMPTY = 20;
const ROUNDS = 3;

let browser: Browser;
let bundle: string;

beforeAll(async () => {
  browser = await launchBrowser();
  const out = await build({
    root: clientDir,
    logLevel: "silent",
    build: {
      write: false,
      minify: true,
      lib: { entry: join(clientDir, "perf", "draw-entry.ts"), formats: ["iife"], name: "drawBenchEntry" },
    },
  });
  const outputs = (Array.isArray(out) ? out : [out]).flatMap((o) => ("output" in o ? o.output : []));
  bundle = outputs.map((o) => ("code" in o ? o.code : "")).join("\n");
});

afterAll(async () => {
  await browser?.close();
});

/** A valid 9x9 solution: the shifted-rows pattern. */
function solution(): number[] {
  return Array.from({ length: 81 }, (_, i) => {
    const [r, c] = [Math.floor(i / 9), i % 9];
    return ((r * 3 + Math.floor(r / 3) + c) % 9) + 1;
  });
}

/** 10 thermometers, 6 arrows and 20 dots that `s` satisfies. */
function busyConstraints(s: number[]): Constraint[] {
  const at = (r: number, c: number) => s[r * 9 + c];
  const out: Constraint[] = [];
  // Thermometers: four cells along a row, rising.
  for (let r = 0; r < 9 && out.length < 10; r++) {
    for (const c0 of [0, 5]) {
      if (out.length >= 10) break;
      const cells = [0, 1, 2, 3].map((k) => [r, c0 + k] as [number, number]);
      if (cells.every(([rr, cc], k) => k === 0 || at(rr, cc) > at(rr, cc - 1))) out.push({ type: "thermometer", cells, slow: false });
    }
  }
  // Arrows: a circle and two cells below it adding up to it.
  let arrows = 0;
  for (let r = 0; r + 2 < 9 && arrows < 6; r++) {
    for (let c = 0; c < 9 && arrows < 6; c++) {
      if (at(r + 1, c) + at(r + 2, c) === at(r, c)) {
        out.push({ type: "arrow", circle: [[r, c]], line: [[r + 1, c], [r + 2, c]] });
        arrows++;
      }
    }
  }
  // Dots: neighbours one apart (white) or one double the other (black).
  let dots = 0;
  for (let r = 0; r < 9 && dots < 20; r++) {
    for (let c = 0; c + 1 < 9 && dots < 20; c += 2) {
      const [a, b] = [at(r, c), at(r, c + 1)];
      const cells: [[number, number], [number, number]] = [[r, c], [r, c + 1]];
      if (Math.abs(a - b) === 1) out.push({ type: "difference", cells, value: 1 });
      else if (a === 2 * b || b === 2 * a) out.push({ type: "ratio", cells, value: 2 });
      else continue;
      dots++;
    }
  }
  return out;
}

/**
 * `puzzle` with every cell of `s` given but `empty` ones, as the server sends
 * it: drawings and rule notes filled in by the real engine (`arena export
 * --format v1`, which also checks it has one solution).
 */
function served(puzzle: PuzzleV1, s: number[], empty: number): PuzzleV1 {
  const grid = Array.from({ length: 9 }, (_, r) => Array.from({ length: 9 }, (_, c) => ((r * 9 + c) % 4 === 0 && r * 9 + c < empty * 4 ? 0 : s[r * 9 + c])));
  const file = join(mkdtempSync(join(tmpdir(), "arena-perf-")), "busy.json");
  const format = (puzzle.constraints ?? []).length > 0 ? "sudoku-arena/puzzle@2" : puzzle.format;
  writeFileSync(file, JSON.stringify({ ...puzzle, format, grid }));
  const { arena, plugins } = builtArena();
  const out = execFileSync(arena, ["--plugins", plugins, "export", "--format", "v1", file], { encoding: "utf8" });
  const served = JSON.parse(out) as PuzzleV1;
  return { ...served, solution: null };
}

test("a move on a busy 9x9 board", async () => {
  const s = solution();
  const constraints = busyConstraints(s);
  const count = (t: string) => constraints.filter((k) => k.type === t).length;
  const busy = served({ ...classic(3, 3), constraints }, s, EMPTY);
  const plain = served(classic(3, 3), s, EMPTY);
  if ((busy.drawings ?? []).length === 0) throw new Error("the engine drew nothing");
  const css = readFileSync(join(clientDir, "src", "style.css"), "utf8");
  const rows: string[] = [];
  for (const [name, width, height] of [
    ["desktop", 1280, 800],
    ["phone", 390, 844],
  ] as const) {
    const page = await browser.newPage({ viewport: { width, height } });
    await page.setContent(`<!doctype html><html><head><style>${css}</style></head><body><div class="board-col"><div id="board" class="board-box"></div></div></body></html>`);
    await page.addScriptTag({ content: bundle });
    const times: Record<string, number[]> = { busy: [], plain: [] };
    const first: Record<string, number[]> = { busy: [], plain: [] };
    // Interleaved: busy, plain, busy, plain, …
    for (let round = 0; round < ROUNDS; round++) {
      for (const [which, puzzle] of [
        ["busy", busy],
        ["plain", plain],
      ] as const) {
        const r = await page.evaluate(
          ([p, sol, n]) => (window as unknown as { drawBench: (p: unknown, s: number[], n: number) => { first: number; frames: number[] } }).drawBench(p, sol, n),
          [puzzle, s, FRAMES] as const,
        );
        times[which].push(...r.frames);
        first[which].push(r.first);
      }
    }
    await page.close();
    const q = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))];
    const med = (which: string) => q(times[which], 0.5);
    rows.push(
      `| ${name} | ${q(first.busy, 0.5).toFixed(2)} | ${med("busy").toFixed(3)} | ${q(times.busy, 0.99).toFixed(3)} | ${Math.max(...times.busy).toFixed(2)} | ${med("plain").toFixed(3)} | ${(med("busy") / med("plain")).toFixed(2)} |`,
    );
  }
  console.log(
    [
      `Drawing a move, ${ROUNDS} x ${FRAMES} frames interleaved; busy = ${count("thermometer")} thermometers, ${count("arrow")} arrows, ${count("difference") + count("ratio")} dots`,
      "",
      "| viewport | first draw, busy (ms) | frame median, busy (ms) | p99 busy | worst busy | frame median, plain (ms) | busy / plain |",
      "|---|---:|---:|---:|---:|---:|---:|",
      ...rows,
    ].join("\n"),
  );
});
