import { expect, test } from "vitest";
import { classic, paintOf } from "../../test/fixtures";
import type { Drawing } from "../protocol";
import { geometryOf } from "./geometry";
import { boardSvg, CELL, viewBox } from "./render";


const DRAWINGS: Drawing[] = [
  { type: "line", cells: [[8, 0], [7, 0], [6, 0]], color: "#c8c8c8", thickness: 40, arrow: false },
  { type: "shape", cells: [[8, 0]], shape: "circle", fill: "#c8c8c8", stroke: null, size: 80, joined: false },
  { type: "line", cells: [[0, 0], [0, 1], [1, 2]], color: "#888888", thickness: 5, arrow: true },
  { type: "dot", cells: [[4, 4], [4, 5]], fill: "#000000", text: null },
  { type: "letter", cells: [[2, 2], [3, 2]], text: "X" },
  { type: "clue", at: [-1, 3], text: "17", direction: [1, 1] },
  { type: "cage", cells: [[5, 5], [5, 6]], label: "9" },
  { type: "text", cell: [7, 7], text: "<b>" },
  { type: "corner", cells: [[0, 7], [0, 8], [1, 7], [1, 8]], fill: "white", text: "1289" },
];

test("every drawing primitive is drawn, lines under the grid and marks over it", () => {
  const puzzle = { ...classic(3, 3), drawings: DRAWINGS };
  const g = geometryOf(puzzle);
  const svg = boardSvg(g, paintOf(g.givens));
  // The thermometer: a thick grey line through the cells' centres, and its bulb.
  expect(svg).toContain(`points="${0.5 * CELL},${8.5 * CELL} ${0.5 * CELL},${7.5 * CELL} ${0.5 * CELL},${6.5 * CELL}"`);
  expect(svg).toContain(`stroke-width="${0.4 * CELL}"`);
  expect(svg).toMatch(/<circle class="drawn-shape" cx="20" cy="340" r="16" fill="#c8c8c8"/);
  // The arrow ends in a head; the dot sits on the edge between its cells.
  expect(svg.match(/drawn-arrowhead/g)).toHaveLength(2);
  expect(svg).toContain(`<circle class="drawn-dot" cx="${5 * CELL}" cy="${4.5 * CELL}"`);
  expect(svg).toMatch(/class="drawn-letter"[^>]*>X</);
  expect(svg).toMatch(/class="drawn-clue"[^>]*>17</);
  expect(svg).toMatch(/class="cage-sum"[^>]*>9</);
  // A quadruple's circle sits where its four cells meet, its digits in two lines.
  expect(svg).toContain(`<circle class="drawn-corner" cx="${8 * CELL}" cy="${1 * CELL}"`);
  expect(svg).toMatch(/class="drawn-corner-text"[^>]*>12</);
  expect(svg).toMatch(/class="drawn-corner-text"[^>]*>89</);
  // Text is escaped, never markup.
  expect(svg).toContain("&lt;b&gt;");
  expect(svg).not.toContain("<b>");
  // Lines and shapes come before the grid lines, marks after them.
  const thin = svg.indexOf('class="thin"');
  expect(svg.indexOf("drawn-line")).toBeLessThan(thin);
  expect(svg.indexOf("drawn-dot")).toBeGreaterThan(thin);
});

test("a clue outside the grid widens the board by a cell on every side", () => {
  const plain = geometryOf(classic(3, 3));
  const clued = geometryOf({ ...classic(3, 3), drawings: DRAWINGS });
  const width = (box: string) => Number(box.split(" ")[2]);
  expect(width(viewBox(clued)) - width(viewBox(plain))).toBe(2 * CELL);
  const inside = geometryOf({ ...classic(3, 3), drawings: DRAWINGS.filter((d) => d.type !== "clue") });
  expect(viewBox(inside)).toBe(viewBox(plain));
});
