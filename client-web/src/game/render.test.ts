import { expect, test } from "vitest";
import { classic, killerFixture, samuraiFixture, paintOf } from "../../test/fixtures";
import { geometryOf } from "./geometry";
import { boardSvg, CELL } from "./render";


test("killer: one dashed group and one sum per cage", () => {
  const { puzzle } = killerFixture();
  const g = geometryOf(puzzle);
  const svg = boardSvg(g, paintOf(g.givens));
  expect(svg.match(/<g class="cage"/g)).toHaveLength(g.cages.length);
  expect(svg.match(/class="cage-sum"/g)).toHaveLength(g.cages.length);
  expect(svg).toContain(`>${g.cages[0].sum}</text>`);
  // A cage whose digits pass its sum (the largest digit everywhere is more
  // than any cage of two or more different digits adds up to) shows it broken.
  const values = [...g.givens];
  const cage = g.cages.find((c) => c.cells.length >= 2 && c.cells.every((cell) => g.givens[cell] === 0));
  if (!cage) throw new Error("fixture has no empty multi-cell cage");
  for (const cell of cage.cells) values[cell] = g.size;
  expect(boardSvg(g, paintOf(values)).match(/class="cage-sum bad"/g)).toHaveLength(1);
});

test("samurai: a labelled grid cell for each of the 369 cells, none in the holes", () => {
  const g = geometryOf(samuraiFixture());
  const svg = boardSvg(g, paintOf(g.givens));
  expect(svg.match(/role="gridcell"/g)).toHaveLength(369);
  expect(svg).not.toContain('id="cell-0-10"');
  expect(svg).toContain('id="cell-6-10"');
});

test("cells say what they hold; text is escaped", () => {
  const { puzzle } = killerFixture();
  puzzle.symbols = "12345678<";
  const g = geometryOf(puzzle);
  const values = g.givens.map(() => 0);
  values[0] = 9;
  const corner = values.map(() => 0);
  corner[1] = 0b101;
  const svg = boardSvg(g, paintOf(values, { corner, conflicts: new Set([0]), selection: new Set([0]) }));
  expect(svg).toContain('aria-label="Row 1, column 1: &#60;, conflict" aria-selected="true"');
  expect(svg).toContain('aria-label="Row 1, column 2: empty, candidates 1 3"');
  expect(svg).toContain('class="value entered bad"');
});

/** The x, y and font size of each `<text class="…">` of a kind, in order. */
function texts(svg: string, cls: string): Array<{ x: number; y: number; font: number; text: string }> {
  const re = new RegExp(`<text class="${cls}"[^>]* x="([\\d.]+)" y="([\\d.]+)" font-size="([\\d.]+)">([^<]*)</text>`, "g");
  return [...svg.matchAll(re)].map((m) => ({ x: Number(m[1]), y: Number(m[2]), font: Number(m[3]), text: m[4] }));
}

test("corner marks fill the corners in order; a lone 5 sits in the top-left corner, not the centre", () => {
  const g = geometryOf(classic(3, 3));
  const corner = g.givens.map(() => 0);
  corner[0] = 1 << 4;
  corner[1] = (1 << 4) | (1 << 6) | (1 << 0) | (1 << 8) | (1 << 2);
  const svg = boardSvg(g, paintOf(g.givens.map(() => 0), { corner }));
  const marks = texts(svg, "corner");
  expect(marks[0]).toMatchObject({ text: "5" });
  expect(marks[0].x).toBeLessThan(CELL / 3);
  expect(marks[0].y).toBeLessThan(CELL / 3);
  // 1, 3, 5, 7, 9 in cell 1: top-left, top-right, bottom-left, bottom-right, top-middle.
  const second = marks.slice(1).map((m) => [m.text, Math.round((m.x - CELL) / (CELL / 6)), Math.round(m.y / (CELL / 6))]);
  expect(second).toEqual([["1", 1, 1], ["3", 5, 1], ["5", 1, 5], ["7", 5, 5], ["9", 3, 1]]);
});

test("a corner mark and a centre mark in one cell do not overlap", () => {
  const g = geometryOf(classic(3, 3));
  const corner = g.givens.map(() => 0);
  const centre = g.givens.map(() => 0);
  corner[0] = 1 << 4;
  centre[0] = 1 << 6;
  const svg = boardSvg(g, paintOf(g.givens.map(() => 0), { corner, centre }));
  const [c5] = texts(svg, "corner");
  const [c7] = texts(svg, "centre");
  const apart = Math.abs(c5.x - c7.x) > (c5.font + c7.font) * 0.4 || Math.abs(c5.y - c7.y) > (c5.font + c7.font) * 0.5;
  expect(apart).toBe(true);
});

test("nine centre marks shrink and wrap to fit inside the cell", () => {
  const g = geometryOf(classic(3, 3));
  const centre = g.givens.map(() => 0);
  centre[0] = 0x1ff;
  centre[1] = 0b11;
  const lines = texts(boardSvg(g, paintOf(g.givens.map(() => 0), { centre })), "centre");
  const nine = lines.filter((l) => l.x < CELL);
  expect(nine.map((l) => l.text).join("")).toBe("123456789");
  expect(nine.length).toBeGreaterThan(1);
  for (const l of nine) expect(l.text.length * l.font * 0.62).toBeLessThanOrEqual(CELL * 0.8 + 0.01);
  // Two marks stay on one line, at the largest size.
  const two = lines.filter((l) => l.x > CELL);
  expect(two).toHaveLength(1);
  expect(two[0].font).toBeCloseTo(CELL * 0.32);
  expect(nine[0].font).toBeGreaterThan(two[0].font * 0.5);
});

test("co-op: an entered value takes its author's colour; a teammate's cursor carries a name tab", () => {
  const g = geometryOf(classic(3, 3));
  const values = g.givens.map(() => 0);
  values[10] = 4;
  const svg = boardSvg(g, paintOf(values, { authors: new Map([[10, "#123456"]]), cursors: [{ cell: 20, colour: "#abcdef", name: "Bob" }] }));
  expect(svg).toContain('class="value entered" style="fill:#123456"');
  expect(svg).toContain('class="cursor-tab"');
  expect(svg).toMatch(/class="cursor-name"[^>]*>Bob<\/text>/);
  // The tab stays inside the teammate's own cell (r2c2): over a neighbour it hid its marks.
  const tab = /class="cursor-tab" x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)"/.exec(svg);
  const [x, y, w, hgt] = (tab ?? []).slice(1).map(Number);
  expect(tab).not.toBeNull();
  expect(x).toBeGreaterThanOrEqual(2 * CELL);
  expect(y).toBeGreaterThanOrEqual(2 * CELL);
  expect(x + w).toBeLessThanOrEqual(3 * CELL);
  expect(y + hgt).toBeLessThanOrEqual(3 * CELL);
  // A long name is cut to fit, whole in the cursor's title.
  const long = boardSvg(g, paintOf(values, { cursors: [{ cell: 20, colour: "#abcdef", name: "Bartholomew" }] }));
  expect(long).toMatch(/class="cursor-name"[^>]*>Bartho…<\/text>/);
  expect(long).toContain("<title>Bartholomew</title>");
});

test("colours fill their cells (several as stripes) under the lines", () => {
  const g = geometryOf(classic(3, 3));
  const colour = g.givens.map(() => 0);
  colour[0] = 1 << 4;
  colour[1] = (1 << 0) | (1 << 8);
  const svg = boardSvg(g, paintOf(g.givens.map(() => 0), { colour, selection: new Set([0]) }));
  expect(svg.match(/class="colour"/g)).toHaveLength(3);
  expect(svg).toContain('style="fill:#e6a1cf"');
  // The selected coloured cell keeps its colour (no selection fill over it).
  expect(svg).not.toContain('class="fill selected"');
});
