// The drawing primitives the server sends with a puzzle (PuzzleV1.drawings:
// thermometers, arrows, Kropki dots, X/V, parity shapes, little killer and
// sandwich clues, …) as SVG markup, without knowing any rule. Sizes arrive in
// hundredths of a cell, colours as CSS colours. Two layers: lines and shapes
// under the grid lines, marks, cages, clues and texts over them.

import type { Drawing } from "../protocol";
import { cageOutline, CAGE_INSET, type Geometry } from "./geometry";

type Rc = [number, number];

/** Which of the two drawing layers. */
export type DrawingLayer = "under" | "over";

/** Whether a drawing goes under the grid lines (lines and shapes) or over them. */
function layerOf(d: Drawing): DrawingLayer {
  return d.type === "line" || d.type === "shape" ? "under" : "over";
}

/** A cage total's size, as a fraction of a cell: 12 px on a 390 px phone's 9x9. */
export const CAGE_SUM_SIZE = 0.3;

/** Whether any drawing stands outside the grid (an outside clue): the board then keeps a cell's margin. */
export function drawsOutside(g: Pick<Geometry, "rows" | "cols" | "drawings">): boolean {
  return g.drawings.some(
    (d) => d.type === "clue" && (d.at[0] < 0 || d.at[1] < 0 || d.at[0] >= g.rows || d.at[1] >= g.cols),
  );
}

/** The drawings of one layer as SVG markup; `cell` is a cell's size in SVG units. */
export function drawingLayer(g: Geometry, layer: DrawingLayer, cell: number): string {
  const centre = ([r, c]: Rc): Rc => [(c + 0.5) * cell, (r + 0.5) * cell];
  const between = (a: Rc, b: Rc): Rc => {
    const [ax, ay] = centre(a);
    const [bx, by] = centre(b);
    return [(ax + bx) / 2, (ay + by) / 2];
  };
  const out: string[] = [];
  // Shading (shapes without an outline) first, then lines, then outlined
  // shapes: an arrow's white circle covers its shaft's start and stays on a
  // shaded cell. The order given otherwise.
  const rank = (d: Drawing) => (d.type === "shape" ? (d.stroke ? 2 : 0) : 1);
  const drawn = g.drawings.filter((d) => layerOf(d) === layer).sort((a, b) => rank(a) - rank(b));
  for (const d of drawn) {
    switch (d.type) {
      case "line": {
        const points = d.cells.map((rc) => centre(rc));
        const width = (d.thickness / 100) * cell;
        out.push(
          `<polyline class="drawn-line" points="${points.map(([x, y]) => `${x},${y}`).join(" ")}" fill="none" stroke="${attr(d.color)}" stroke-width="${width}" stroke-linecap="round" stroke-linejoin="round"/>`,
        );
        if (d.arrow && points.length >= 2) out.push(arrowHead(points[points.length - 2], points[points.length - 1], cell, d.color));
        break;
      }
      case "shape": {
        const paint = `fill="${attr(d.fill ?? "none")}" stroke="${attr(d.stroke ?? "none")}" stroke-width="${cell * 0.04}"`;
        const side = (d.size / 100) * cell;
        if (d.joined && d.cells.length > 1) {
          const xs = d.cells.map(([, c]) => c);
          const ys = d.cells.map(([r]) => r);
          const [x0, y0] = [Math.min(...xs) * cell, Math.min(...ys) * cell];
          const w = (Math.max(...xs) + 1) * cell - x0;
          const h = (Math.max(...ys) + 1) * cell - y0;
          const inset = (cell - side) / 2;
          out.push(
            `<rect class="drawn-shape" x="${x0 + inset}" y="${y0 + inset}" width="${w - 2 * inset}" height="${h - 2 * inset}" rx="${side / 2}" ${paint}/>`,
          );
          break;
        }
        for (const rc of d.cells) {
          const [x, y] = centre(rc);
          out.push(
            d.shape === "circle"
              ? `<circle class="drawn-shape" cx="${x}" cy="${y}" r="${side / 2}" ${paint}/>`
              : `<rect class="drawn-shape" x="${x - side / 2}" y="${y - side / 2}" width="${side}" height="${side}" ${paint}/>`,
          );
        }
        break;
      }
      case "dot": {
        const [x, y] = between(d.cells[0], d.cells[1]);
        out.push(`<circle class="drawn-dot" cx="${x}" cy="${y}" r="${cell * 0.12}" fill="${attr(d.fill)}" stroke="#000" stroke-width="${cell * 0.03}"/>`);
        if (d.text) out.push(label(x, y, d.text, cell * 0.16, "drawn-dot-text"));
        break;
      }
      case "corner": {
        // Where the four cells meet: the mean of their centres.
        const [x, y] = d.cells.map(centre).reduce(([ax, ay], [bx, by]) => [ax + bx / 4, ay + by / 4], [0, 0]);
        out.push(`<circle class="drawn-corner" cx="${x}" cy="${y}" r="${cell * 0.28}" fill="${attr(d.fill)}" stroke="#000" stroke-width="${cell * 0.025}"/>`);
        // Up to two digits a line, two lines: a quadruple's four fit.
        const lines = d.text.length > 2 ? [d.text.slice(0, 2), d.text.slice(2, 4)] : [d.text];
        const size = cell * (lines.length > 1 ? 0.19 : 0.24);
        lines.forEach((line, i) => out.push(label(x, y + (i - (lines.length - 1) / 2) * size, line, size, "drawn-corner-text")));
        break;
      }
      case "letter": {
        const [x, y] = between(d.cells[0], d.cells[1]);
        out.push(`<rect class="drawn-letter-bg" x="${x - cell * 0.14}" y="${y - cell * 0.16}" width="${cell * 0.28}" height="${cell * 0.32}" rx="${cell * 0.05}"/>`);
        out.push(label(x, y, d.text, cell * 0.3, "drawn-letter"));
        break;
      }
      case "cage": {
        const cells = d.cells.map(([r, c]) => r * g.cols + c);
        const parts = cageOutline(cells, g.cols).map(
          (s) => `<line class="cage-line" x1="${s.x1 * cell}" y1="${s.y1 * cell}" x2="${s.x2 * cell}" y2="${s.y2 * cell}"/>`,
        );
        out.push(`<g class="drawn-cage">${parts.join("")}</g>`);
        if (d.label) {
          const first = Math.min(...cells);
          const [x, y] = [(first % g.cols) * cell, Math.floor(first / g.cols) * cell];
          const size = cell * CAGE_SUM_SIZE;
          const inset = CAGE_INSET * cell * 0.25;
          out.push(`<rect class="cage-label-bg" x="${x + inset + 1}" y="${y + inset + 1}" width="${size * 0.62 * d.label.length + 2}" height="${size + 1}"/>`);
          out.push(`<text class="cage-sum" x="${x + inset + 2}" y="${y + inset + 1.5}" font-size="${size}">${escapeText(d.label)}</text>`);
        }
        break;
      }
      case "clue": {
        const [x, y] = centre(d.at);
        out.push(label(x, y, d.text, cell * 0.38, "drawn-clue"));
        if (d.direction) {
          // A small arrow in the clue's cell, pointing the way the clue reads.
          const [dr, dc] = d.direction;
          const from: Rc = [x + dc * cell * 0.22, y + dr * cell * 0.22];
          const to: Rc = [x + dc * cell * 0.42, y + dr * cell * 0.42];
          out.push(`<line class="drawn-clue-arrow" x1="${from[0]}" y1="${from[1]}" x2="${to[0]}" y2="${to[1]}" stroke-width="${cell * 0.03}"/>`);
          out.push(arrowHead(from, to, cell * 0.5, "currentColor"));
        }
        break;
      }
      case "text": {
        const [r, c] = d.cell;
        out.push(`<text class="drawn-text" x="${c * cell + cell * 0.06}" y="${r * cell + cell * 0.06}" font-size="${cell * 0.22}">${escapeText(d.text)}</text>`);
        break;
      }
    }
  }
  return out.join("");
}

/** An arrowhead at `to`, pointing away from `from`. */
function arrowHead(from: Rc, to: Rc, cell: number, colour: string): string {
  const [dx, dy] = [to[0] - from[0], to[1] - from[1]];
  const length = Math.hypot(dx, dy) || 1;
  const [ux, uy] = [dx / length, dy / length];
  const size = cell * 0.22;
  const wing = (sign: number): Rc => [to[0] - size * (ux * 0.87 - sign * uy * 0.5), to[1] - size * (uy * 0.87 + sign * ux * 0.5)];
  const [a, b] = [wing(1), wing(-1)];
  return `<polyline class="drawn-arrowhead" points="${a[0]},${a[1]} ${to[0]},${to[1]} ${b[0]},${b[1]}" fill="none" stroke="${attr(colour)}" stroke-width="${cell * 0.05}" stroke-linecap="round" stroke-linejoin="round"/>`;
}

function label(x: number, y: number, text: string, size: number, cls: string): string {
  return `<text class="${cls}" x="${x}" y="${y}" font-size="${size}">${escapeText(text)}</text>`;
}

/** Text for an SVG attribute (colours come from the server, never markup). */
function attr(s: string): string {
  return s.replace(/[^#a-zA-Z0-9(),.% -]/g, "");
}

function escapeText(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}
