// The setter on the page: pick a variant, set givens, killer cages (type a
// total, L/U/R/D to join, or drag), jigsaw regions, lines, dots and cell marks;
// the server's live count (none / one / several, where two solutions differ)
// and grade; then share a link, analyse it, or open a room on it.

import { geometryOf, valueOfSymbol, type Cell } from "../game/geometry";
import { plainPaint } from "../game/render";
import { CELL_KINDS, CLUE_KINDS, DOT_KINDS, GLOBAL_RULES, LINE_KINDS, type SetterState, type Tool } from "../game/setter";
import { setterLink } from "../game/setter-link";
import { gradeSentence, offeredDifficulties } from "../game/tiers";
import { variantTitle } from "../game/title";
import type { Manifest, Mode, ParamValue, PuzzleCheck, RoomSettings } from "../protocol";
import { BoardView } from "./board-view";
import { copyWithFeedback } from "./clipboard";
import { h, replace } from "./dom";

/** What the setter asks the app to do. */
export interface SetterActions {
  /** Ask for a variant's empty puzzle. */
  template(variant: string, params: Record<string, ParamValue>): void;
  /** The draft changed: keep it and have it counted. */
  changed(): void;
  /** Analyse the draft. */
  analyse(): void;
  /** Open a room on the draft. */
  play(settings: RoomSettings): void;
  /** Back to the lobby. */
  back(): void;
}

const TOOLS: Record<Tool, string> = {
  digits: "Givens",
  cages: "Cages",
  regions: "Regions",
  lines: "Lines",
  dots: "Dots",
  cells: "Cell marks",
  clues: "Outside clues",
  erase: "Erase rules",
};

const TOOL_HELP: Record<Tool, string> = {
  digits: "Click a cell and type a digit; Backspace clears it. Arrow keys move.",
  cages: "Type a one- or two-digit total to start a cage; L, U, R, D join it to the cage left, above, right or below; or drag over cells, then type the total. Backspace takes a cell out.",
  regions: "Drag over cells (or click one), then type the region's number.",
  lines: "Drag along the cells of the line, from its start (a thermometer's bulb, an arrow's circle).",
  dots: "Drag from a cell to its neighbour to place the dot between them.",
  cells: "Click a cell to mark it (click again to take the mark off).",
  clues: "Drag from an edge cell inwards along its row or column (a little killer: along a diagonal), then type the clue's number; a quadruple: click its 2x2's top-left cell, then type its digits.",
  erase: "Click a cell to take off every line, dot and mark through it.",
};

/** The setter screen. */
export class SetterScreen {
  readonly el: HTMLElement;
  private readonly variant = h("select", { id: "setter-variant", "aria-label": "Variant" });
  private readonly params = h("div", { class: "params", id: "setter-params" });
  private readonly tools = h("div", { class: "setter-tools", id: "setter-tools", role: "toolbar", "aria-label": "Setter tools" });
  private readonly kind = h("select", { id: "setter-kind", "aria-label": "Kind" });
  private readonly rules = h("div", { class: "setter-tools", id: "setter-rules" });
  private readonly help = h("p", { class: "muted", id: "setter-help" });
  private readonly boardBox = h("div", { class: "board-box", id: "setter-board" });
  private readonly status = h("p", { class: "setter-status", id: "setter-status", role: "status", "aria-live": "polite" });
  private readonly grade = h("p", { id: "setter-grade" });
  private readonly linkButton = h("button", { type: "button", class: "small", id: "setter-link" }, "Copy a link");
  private readonly analyseButton = h("button", { type: "button", id: "setter-analyse", disabled: true }, "Analyse");
  private readonly playButtons: HTMLButtonElement[];
  private board?: BoardView;
  private drawn = "";
  private shownVariants = "";
  /** The last count, and whether the draft changed since it was asked. */
  check?: PuzzleCheck;
  pending = false;

  constructor(
    private readonly state: SetterState,
    private readonly manifests: () => Manifest[],
    private readonly actions: SetterActions,
  ) {
    this.variant.addEventListener("change", () => this.showParams(true));
    this.kind.addEventListener("change", () => this.chooseKind());
    this.linkButton.addEventListener("click", () => {
      const draft = this.state.draft;
      if (!draft) return;
      const link = setterLink(`${location.origin}${location.pathname}`, draft);
      void copyWithFeedback(this.linkButton, link, () => window.prompt("Copy this link", link));
    });
    this.analyseButton.addEventListener("click", () => this.actions.analyse());
    const modes: Array<[Mode, string]> = [
      ["solo", "Play solo"],
      ["race", "Race friends"],
      ["coop", "Solve together"],
    ];
    this.playButtons = modes.map(([mode, label]) =>
      h("button", { type: "button", class: mode === "solo" ? "primary" : "", id: `setter-play-${mode}`, disabled: true, onclick: () => this.play(mode) }, label),
    );
    for (const tool of Object.keys(TOOLS) as Tool[]) {
      this.tools.append(h("button", { type: "button", class: "small", "data-tool": tool, "aria-pressed": "false", onclick: () => this.chooseTool(tool) }, TOOLS[tool]));
    }
    this.tools.append(this.kind);
    this.el = h(
      "main",
      { class: "setter", id: "setter" },
      h(
        "section",
        { class: "card" },
        h("div", { class: "row" }, h("h2", {}, "Set a puzzle"), h("button", { type: "button", class: "small", id: "setter-back", onclick: () => this.actions.back() }, "Back to the lobby")),
        h(
          "div",
          { class: "row" },
          h("label", { for: "setter-variant" }, "Variant"),
          this.variant,
          this.params,
          h("button", { type: "button", class: "small", id: "setter-new", onclick: () => this.showParams(true) }, "New grid"),
        ),
        this.tools,
        this.rules,
        this.help,
        this.boardBox,
        this.status,
        this.grade,
        h(
          "div",
          { class: "row" },
          h("button", { type: "button", class: "small", id: "setter-undo", onclick: () => this.state.undo() && this.actions.changed() }, "Undo"),
          h("button", { type: "button", class: "small", id: "setter-redo", onclick: () => this.state.redo() && this.actions.changed() }, "Redo"),
          h("button", { type: "button", class: "small", id: "setter-clear", onclick: () => (this.state.clear(), this.actions.changed()) }, "Clear"),
          this.linkButton,
        ),
        h("div", { class: "row" }, this.analyseButton, ...this.playButtons),
      ),
    );
    this.chooseTool(this.state.tool);
  }

  /** Redraws from the state and the last count. */
  update() {
    const manifests = this.manifests();
    const ids = manifests.map((m) => m.id).join(",");
    if (ids !== this.shownVariants) {
      this.shownVariants = ids;
      replace(this.variant, ...manifests.map((m) => h("option", { value: m.id }, variantTitle(m, { variant: m.id, params: {} }))));
      this.variant.value = this.state.draft?.variant ?? "classic";
      this.showParams(false);
    }
    this.showRules();
    this.drawBoard();
    this.showStatus();
  }

  private manifest(): Manifest | undefined {
    return this.manifests().find((m) => m.id === this.variant.value);
  }

  /** The parameter selects of the chosen variant; `fresh`: ask for its template. */
  private showParams(fresh: boolean) {
    const m = this.manifest();
    const current = this.state.draft?.variant === m?.id ? this.state.draft?.params : undefined;
    replace(
      this.params,
      ...(m?.params ?? []).map((p) => {
        const select = h(
          "select",
          { id: `setter-param-${p.key}`, "data-key": p.key, "aria-label": p.name, onchange: () => this.showParams(true) },
          ...p.allowed.map((v, i) => h("option", { value: JSON.stringify(v) }, p.labels?.[i] ?? String(v))),
        );
        select.value = JSON.stringify(current?.[p.key] ?? p.default);
        return select;
      }),
    );
    if (fresh && m) {
      const params: Record<string, ParamValue> = {};
      for (const select of this.params.querySelectorAll("select")) params[select.dataset.key ?? ""] = JSON.parse(select.value) as ParamValue;
      this.actions.template(m.id, params);
    }
  }

  private chooseTool(tool: Tool) {
    this.state.tool = tool;
    for (const b of this.tools.querySelectorAll<HTMLButtonElement>("button[data-tool]")) b.setAttribute("aria-pressed", String(b.dataset.tool === tool));
    const lists: Partial<Record<Tool, Record<string, string>>> = { lines: LINE_KINDS, dots: DOT_KINDS, cells: CELL_KINDS, clues: CLUE_KINDS };
    const kinds = lists[tool];
    this.kind.hidden = !kinds;
    if (kinds) {
      replace(this.kind, ...Object.entries(kinds).map(([k, label]) => h("option", { value: k }, label)));
      const chosen: Partial<Record<Tool, string>> = { lines: this.state.lineKind, dots: this.state.dotKind, cells: this.state.cellKind, clues: this.state.clueKind };
      this.kind.value = chosen[tool] ?? "";
    }
    this.help.textContent = TOOL_HELP[tool];
    this.state.path = [];
    this.drawn = "";
    this.drawBoard();
  }

  private chooseKind() {
    const v = this.kind.value;
    if (this.state.tool === "lines") this.state.lineKind = v as SetterState["lineKind"];
    if (this.state.tool === "dots") this.state.dotKind = v as SetterState["dotKind"];
    if (this.state.tool === "cells") this.state.cellKind = v as SetterState["cellKind"];
    if (this.state.tool === "clues") this.state.clueKind = v as SetterState["clueKind"];
  }

  private showRules() {
    const offered = this.state.offeredRules();
    const key = offered.map((r) => `${r}:${this.state.hasRule(r)}`).join(",");
    this.tools.querySelector<HTMLButtonElement>("button[data-tool=regions]")?.toggleAttribute("hidden", !this.state.hasRegions);
    if (this.rules.dataset.key === key) return;
    this.rules.dataset.key = key;
    replace(
      this.rules,
      h("span", { class: "muted" }, "Rules:"),
      ...offered.map((rule) => {
        const box = h("input", { type: "checkbox", id: `rule-${rule}`, checked: this.state.hasRule(rule) });
        box.addEventListener("change", () => {
          this.state.setRule(rule, box.checked);
          this.actions.changed();
        });
        return h("label", { for: `rule-${rule}` }, box, ` ${GLOBAL_RULES[rule]}`);
      }),
    );
  }

  private drawBoard() {
    const puzzle = this.state.display(this.check?.puzzle?.drawings ?? []);
    if (!puzzle) {
      replace(this.boardBox, h("p", { class: "muted" }, "Loading the grid…"));
      return;
    }
    let geometry;
    try {
      geometry = geometryOf(puzzle);
    } catch {
      return;
    }
    const key = JSON.stringify(puzzle);
    // Never under a drag: a new board would drop it (the release redraws).
    if ((key !== this.drawn || !this.board) && !this.board?.pressed) {
      this.drawn = key;
      this.board = new BoardView(geometry, { select: (cell, how) => this.select(cell, how), release: () => this.release() });
      replace(this.boardBox, this.board.svg);
    }
    const n = geometry.rows * geometry.cols;
    const regionColours = this.state.tool === "regions" ? geometry.cells.map((c) => 1 << ((this.state.regionOf(c) - 1) % 9)) : undefined;
    const colour = regionColours ? new Array<number>(n).fill(0) : undefined;
    if (colour && regionColours) geometry.cells.forEach((c, i) => (colour[c] = regionColours[i]));
    const differ = new Set((this.check && !this.pending ? this.check.differing : []).map(([r, c]) => r * geometry.cols + c));
    const selection = new Set<Cell>(this.state.path.length > 0 ? this.state.path : this.state.cursor !== undefined ? [this.state.cursor] : []);
    this.board.paint(plainPaint(geometry.givens, { colour, selection, cursor: this.state.cursor, differ }));
  }

  private select(cell: Cell, how: "only" | "add" | "toggle") {
    const s = this.state;
    if (how === "only") {
      s.cursor = cell;
      s.path = [cell];
    } else if (s.path[s.path.length - 1] !== cell && !s.path.includes(cell)) {
      s.path.push(cell);
    }
    this.drawBoard();
  }

  /** A press or drag ended: what it means depends on the tool. */
  private release() {
    const s = this.state;
    const path = s.path;
    let changed = true;
    switch (s.tool) {
      case "cages":
        if (path.length > 1) s.cagePath(path);
        else changed = false;
        break;
      case "lines":
        s.linePath(path);
        break;
      case "dots":
        s.dotPath(path);
        break;
      case "cells":
        if (path.length === 1) s.toggleCellMark(path[0]);
        break;
      case "clues":
        // The number comes next, typed (a quadruple's block is a single click).
        changed = false;
        this.help.textContent = s.cluePath(path) ? `Now type the clue's number. ${TOOL_HELP.clues}` : `That drag does not start at an edge and go straight in. ${TOOL_HELP.clues}`;
        break;
      case "erase":
        for (const c of path) s.eraseAt(c);
        break;
      default:
        changed = false;
    }
    if (s.tool !== "regions") s.path = [];
    if (changed) this.actions.changed();
    else this.drawBoard();
  }

  /** A key on the setter page; `true` if it was used. */
  key(e: KeyboardEvent): boolean {
    const s = this.state;
    const t = s.template;
    if (!t || s.cursor === undefined) return false;
    const moves: Record<string, [number, number]> = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] };
    const move = moves[e.key];
    if (move) {
      const cols = t.layout.cols;
      const [r, c] = [Math.floor(s.cursor / cols) + move[0], (s.cursor % cols) + move[1]];
      if (r >= 0 && c >= 0 && r < t.layout.rows && c < cols) {
        s.cursor = r * cols + c;
        s.path = [s.cursor];
      }
      this.drawBoard();
      return true;
    }
    const erase = e.key === "Backspace" || e.key === "Delete" || e.key === "0";
    if (s.tool === "cages") {
      if (/^[0-9]$/.test(e.key) && !(e.key === "0" && s.cageAt(s.cursor) < 0)) s.typeTotal(Number(e.key), Date.now());
      else if (/^[lurdLURD]$/.test(e.key)) s.join(e.key);
      else if (erase) s.uncage();
      else return false;
    } else if (s.tool === "clues") {
      if (!/^[0-9]$/.test(e.key) || !s.awaitingClue) return false;
      s.typeClue(Number(e.key), Date.now());
    } else if (s.tool === "regions") {
      const n = Number(e.key);
      if (!/^[0-9]$/.test(e.key) || n === 0) return false;
      s.paintRegion(s.path.length > 0 ? s.path : [s.cursor], n);
      s.path = [];
    } else if (s.tool === "digits") {
      const symbols = Array.from(t.symbols ?? "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ".slice(0, t.size));
      const v = valueOfSymbol({ symbols }, e.key.toUpperCase());
      if (erase) s.setGiven(0);
      else if (v > 0) s.setGiven(v);
      else return false;
    } else {
      return false;
    }
    this.actions.changed();
    return true;
  }

  private showStatus() {
    const check = this.check;
    const unique = !!check && !this.pending && check.solutions === 1 && !check.gave_up && !check.problem;
    this.analyseButton.disabled = !unique;
    for (const b of this.playButtons) b.disabled = !unique;
    let text = "";
    let cls = "";
    if (!check || this.pending) text = "Counting…";
    else if (check.problem) [text, cls] = [`Not a puzzle yet: ${check.problem}`, "problem"];
    else if (check.gave_up) [text, cls] = [`Too hard to count here (found ${check.solutions} so far).`, "several"];
    else if (check.solutions === 0) [text, cls] = ["No solution: some clues contradict each other.", "none"];
    else if (check.solutions === 1) [text, cls] = ["Exactly one solution.", "unique"];
    else [text, cls] = [`Several solutions${check.differing.length > 0 ? `: the ${check.differing.length} highlighted cells differ between two of them` : ""}.`, "several"];
    this.status.textContent = text;
    this.status.className = `setter-status ${cls}`;
    this.grade.textContent = unique && check?.grade ? gradeSentence(check.grade) : "";
  }

  private play(mode: Mode) {
    const draft = this.state.toDraft();
    const m = this.manifests().find((x) => x.id === draft?.variant);
    if (!draft || !m) return;
    // Any tier the variant offers: the server puts the graded one in its place.
    this.actions.play({
      variant: draft.variant,
      params: draft.params,
      difficulty: offeredDifficulties(m, draft.params)[0] ?? "easy",
      mode,
      public: false,
      max_players: mode === "solo" ? 1 : 4,
      mistakes: { type: "none" },
      hints: { type: "penalty", seconds: 30 },
      ghosts: false,
      own_best: false,
      quick: false,
      rated: false,
      draft,
    });
  }
}
