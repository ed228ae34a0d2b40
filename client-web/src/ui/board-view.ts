// The board on the page: an <svg> drawn by game/render.ts, plus pointer input.
// Click or tap selects, dragging adds cells, Ctrl/Cmd+click toggles a cell.

import type { Cell, Geometry } from "../game/geometry";
import {
  backgroundLayer,
  CELL,
  contentLayer,
  drawingsOver,
  drawingsUnder,
  fillLayer,
  lineLayer,
  viewBox,
  type BoardPaint,
} from "../game/render";

const SVG = "http://www.w3.org/2000/svg";

/** What the board view reports back. */
export interface BoardEvents {
  /** A cell was pressed (`add`: Ctrl/Cmd held) or dragged over (`drag`). */
  select(cell: Cell, how: "only" | "add" | "toggle"): void;
  /** The press or drag ended. */
  release?(): void;
}

/** One board view; `paint` redraws the changing layer. */
export class BoardView {
  readonly svg: SVGSVGElement;
  private readonly fills: SVGGElement;
  private readonly content: SVGGElement;
  private dragging = false;

  constructor(
    private readonly geometry: Geometry,
    private readonly events: BoardEvents,
  ) {
    const g = geometry;
    this.svg = document.createElementNS(SVG, "svg");
    this.svg.setAttribute("viewBox", viewBox(g));
    this.svg.setAttribute("class", "board");
    this.svg.setAttribute("role", "grid");
    this.svg.setAttribute("aria-rowcount", String(g.rows));
    this.svg.setAttribute("aria-colcount", String(g.cols));
    this.svg.setAttribute("aria-label", `Sudoku board, ${g.rows} by ${g.cols}, values 1 to ${g.size}`);
    this.svg.setAttribute("tabindex", "0");
    const layer = (markup = "") => {
      const el = document.createElementNS(SVG, "g");
      el.innerHTML = markup;
      return el;
    };
    this.fills = layer();
    this.content = layer();
    this.svg.append(
      layer(backgroundLayer(g)),
      this.fills,
      layer(drawingsUnder(g)),
      layer(lineLayer(g)),
      layer(drawingsOver(g)),
      this.content,
    );

    this.svg.addEventListener("pointerdown", (e) => {
      const cell = this.cellAt(e);
      if (cell === undefined) return;
      e.preventDefault();
      // No scroll: a board half below the fold would move under the pointer mid-drag.
      this.svg.focus({ preventScroll: true });
      // Capture the pointer: the drag ends on this element wherever it is released.
      this.svg.setPointerCapture(e.pointerId);
      this.dragging = true;
      this.events.select(cell, e.ctrlKey || e.metaKey ? "toggle" : e.shiftKey ? "add" : "only");
    });
    this.svg.addEventListener("pointermove", (e) => {
      if (!this.dragging) return;
      const cell = this.cellAt(e);
      if (cell !== undefined) this.events.select(cell, "add");
    });
    const stop = () => {
      if (this.dragging) this.events.release?.();
      this.dragging = false;
    };
    this.svg.addEventListener("pointerup", stop);
    this.svg.addEventListener("pointercancel", stop);
  }

  /** Whether a press or drag is under way (a board redrawn now would lose it). */
  get pressed(): boolean {
    return this.dragging;
  }

  /** Redraws values, marks, selection and highlights. */
  paint(p: BoardPaint) {
    this.fills.innerHTML = fillLayer(this.geometry, p);
    this.content.innerHTML = contentLayer(this.geometry, p);
    const cursor = p.cursor;
    if (cursor !== undefined) {
      const [r, c] = [Math.floor(cursor / this.geometry.cols), cursor % this.geometry.cols];
      this.svg.setAttribute("aria-activedescendant", `cell-${r}-${c}`);
      // Zoomed in, the viewport follows the cursor.
      if (this.zoom > 1) this.svg.querySelector(`#cell-${r}-${c}`)?.scrollIntoView({ block: "nearest", inline: "nearest" });
    } else {
      this.svg.removeAttribute("aria-activedescendant");
    }
    this.svg.classList.toggle("readonly", !p.editable);
  }

  /** How many times wider than its box the board is drawn (1: it fits). */
  private zoom = 1;

  /** Whether the board is big enough to offer zoom: more than 9 cells a side. */
  get zoomable(): boolean {
    return this.geometry.rows > 9 || this.geometry.cols > 9;
  }

  /**
   * Zooms in so a cell is about 40 CSS pixels wide (at least 1.5 times the box),
   * or back out. Zoomed in, the box scrolls and follows the cursor.
   */
  setZoomed(on: boolean) {
    const box = this.svg.parentElement;
    const width = box?.clientWidth ?? 0;
    this.zoom = on && width > 0 ? Math.max(1.5, (this.geometry.cols * 40) / width) : 1;
    box?.classList.toggle("zoomed", this.zoom > 1);
    this.svg.style.width = this.zoom > 1 ? `${Math.round(this.zoom * 100)}%` : "";
    const cursor = this.svg.getAttribute("aria-activedescendant");
    if (this.zoom > 1 && cursor) this.svg.querySelector(`#${cursor}`)?.scrollIntoView({ block: "nearest", inline: "nearest" });
  }

  /** A cell's width on screen now, in CSS pixels. */
  cellWidth(): number {
    const units = this.svg.viewBox.baseVal.width;
    return units > 0 ? (this.svg.getBoundingClientRect().width * CELL) / units : 0;
  }

  /** Whether the board is zoomed in. */
  get zoomed(): boolean {
    return this.zoom > 1;
  }

  /** The active cell under a pointer, from its position in board units. */
  private cellAt(e: PointerEvent): Cell | undefined {
    const matrix = this.svg.getScreenCTM();
    if (!matrix) return undefined;
    const point = new DOMPoint(e.clientX, e.clientY).matrixTransform(matrix.inverse());
    const [r, c] = [Math.floor(point.y / CELL), Math.floor(point.x / CELL)];
    const g = this.geometry;
    if (r < 0 || r >= g.rows || c < 0 || c >= g.cols) return undefined;
    const cell = r * g.cols + c;
    return g.active[cell] ? cell : undefined;
  }
}
