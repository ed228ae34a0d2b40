// The step-through solver on the page: the board with every candidate, the
// step about to be taken (its technique and cells highlighted, what it
// removes struck out, a killer step's cage outlined) and its explanation, with
// Next, Undo and Finish.

import type { AnalysisState } from "../game/analysis";
import { geometryOf, type Geometry } from "../game/geometry";
import { plainPaint } from "../game/render";
import { gradeSentence } from "../game/tiers";
import type { PuzzleV1 } from "../protocol";
import { BoardView } from "./board-view";
import { h, replace } from "./dom";

/** The analysis screen. */
export class AnalysisScreen {
  readonly el: HTMLElement;
  private readonly geometry: Geometry;
  private readonly board: BoardView;
  private readonly counter = h("p", { class: "muted", id: "analysis-counter" });
  private readonly step = h("div", { class: "analysis-step", id: "analysis-step", role: "status", "aria-live": "polite" });
  private readonly nextButton = h("button", { type: "button", class: "primary", id: "analysis-next", onclick: () => this.go("next") }, "Next");
  private readonly undoButton = h("button", { type: "button", id: "analysis-undo", onclick: () => this.go("undo") }, "Undo");
  private readonly finishButton = h("button", { type: "button", id: "analysis-finish", onclick: () => this.go("finish") }, "Finish");

  constructor(
    private readonly state: AnalysisState,
    puzzle: PuzzleV1,
    back: () => void,
  ) {
    this.geometry = geometryOf(puzzle);
    this.board = new BoardView(this.geometry, { select: () => undefined });
    const grade = state.analysis.grade;
    this.el = h(
      "main",
      { class: "analysis", id: "analysis" },
      h(
        "section",
        { class: "card" },
        h("div", { class: "row" }, h("h2", {}, "Analysis"), h("button", { type: "button", class: "small", id: "analysis-back", onclick: back }, "Back")),
        h("p", { id: "analysis-grade" }, grade ? gradeSentence(grade) : "The techniques here do not finish it: the last position needs a guess."),
        h("div", { class: "board-box" }, this.board.svg),
        this.counter,
        this.step,
        h("div", { class: "row" }, this.undoButton, this.nextButton, this.finishButton),
      ),
    );
    this.update();
  }

  /** Next, Undo, Finish (also the → ← End keys). */
  go(how: "next" | "undo" | "finish") {
    if (how === "next") this.state.next();
    if (how === "undo") this.state.undo();
    if (how === "finish") this.state.finish();
    this.update();
  }

  /** A key on the analysis page; `true` if it was used. */
  key(e: KeyboardEvent): boolean {
    const how = ({ ArrowRight: "next", " ": "next", ArrowLeft: "undo", End: "finish" } as const)[e.key as "ArrowRight"];
    if (!how) return false;
    this.go(how);
    return true;
  }

  update() {
    const s = this.state;
    const marks = s.marks();
    const position = s.position;
    this.board.paint(
      plainPaint(position.values, {
        editable: false,
        hint: marks.placed,
        hintArea: marks.area,
        candidates: position.candidates,
        removed: marks.removed,
        pattern: marks.pattern,
        stepCage: marks.cage,
      }),
    );
    const total = s.steps.length;
    this.counter.textContent = `Step ${Math.min(s.at + 1, total)} of ${total}`;
    const step = s.current;
    replace(
      this.step,
      ...(step
        ? [
            h("p", { class: "technique", id: "analysis-technique" }, `${step.technique} (${step.rating})`),
            h("p", { id: "analysis-explanation" }, step.explanation),
            step.cage.length > 0 ? h("p", { class: "muted", id: "analysis-cage" }, `Cage of ${step.cage.length} cells adding up to ${step.cage_sum}, outlined in red.`) : null,
          ]
        : [h("p", { class: "technique", id: "analysis-technique" }, s.analysis.solved ? "Solved." : "No technique here goes further.")]),
    );
    this.nextButton.disabled = s.done;
    this.finishButton.disabled = s.done;
    this.undoButton.disabled = s.at === 0;
  }
}
