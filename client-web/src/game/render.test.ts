import { expect, test } from "vitest";
import { killerFixture, samuraiFixture } from "../../test/fixtures";
import { geometryOf } from "./geometry";
import { boardSvg, type BoardPaint } from "./render";

function paint(values: number[], over: Partial<BoardPaint> = {}): BoardPaint {
  return {
    values,
    corner: values.map(() => 0),
    centre: values.map(() => 0),
    selection: new Set(),
    peers: new Set(),
    highlight: 0,
    conflicts: new Set(),
    wrong: new Set(),
    cursors: [],
    editable: true,
    ...over,
  };
}

test("killer: one dashed group and one sum per cage", () => {
  const { puzzle } = killerFixture();
  const g = geometryOf(puzzle);
  const svg = boardSvg(g, paint(g.givens));
  expect(svg.match(/<g class="cage"/g)).toHaveLength(g.cages.length);
  expect(svg.match(/class="cage-sum"/g)).toHaveLength(g.cages.length);
  expect(svg).toContain(`>${g.cages[0].sum}</text>`);
  // A cage whose digits pass its sum (the largest digit everywhere is more
  // than any cage of two or more different digits adds up to) shows it broken.
  const values = [...g.givens];
  const cage = g.cages.find((c) => c.cells.length >= 2 && c.cells.every((cell) => g.givens[cell] === 0));
  if (!cage) throw new Error("fixture has no empty multi-cell cage");
  for (const cell of cage.cells) values[cell] = g.size;
  expect(boardSvg(g, paint(values)).match(/class="cage-sum bad"/g)).toHaveLength(1);
});

test("samurai: a labelled grid cell for each of the 369 cells, none in the holes", () => {
  const g = geometryOf(samuraiFixture());
  const svg = boardSvg(g, paint(g.givens));
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
  const svg = boardSvg(g, paint(values, { corner, conflicts: new Set([0]), selection: new Set([0]) }));
  expect(svg).toContain('aria-label="Row 1, column 1: &#60;, conflict" aria-selected="true"');
  expect(svg).toContain('aria-label="Row 1, column 2: empty, candidates 1 3"');
  expect(svg).toContain('class="value entered bad"');
});
