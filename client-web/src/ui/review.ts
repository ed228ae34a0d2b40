// A race review on the page: the racers and their results, where their time
// went tier by tier, and one racer's race replayed on the board (play,
// pause, speed, a slider) beside their timeline — every digit with the time
// it took and the technique that placed it, mistakes and hints. A link
// shares it.

import { geometryOf } from "../game/geometry";
import { plainPaint } from "../game/render";
import { boardAt, replayLength, resultText, reviewLink, seconds, slowest, stepAt, stepText, tierRows, wrongAt } from "../game/review";
import { clock } from "../game/time";
import type { RaceReview } from "../protocol";
import { BoardView } from "./board-view";
import { copyWithFeedback } from "./clipboard";
import { h, replace } from "./dom";

/** Replay speeds offered (times real time). */
const SPEEDS = [1, 4, 16, 64];
/** How often the replay moves on, ms. */
const FRAME_MS = 100;

/** The race review screen. */
export class ReviewScreen {
  readonly el: HTMLElement;
  private readonly board: BoardView;
  private readonly racers = h("ol", { class: "review-racers", id: "review-racers" });
  private readonly steps = h("ol", { class: "review-steps", id: "review-steps" });
  private readonly slowestLine = h("p", { class: "muted", id: "review-slowest" });
  private readonly clockLabel = h("span", { id: "review-clock" });
  private readonly playButton = h("button", { type: "button", class: "primary", id: "review-play", onclick: () => this.togglePlay() }, "Play");
  private readonly slider = h("input", { type: "range", id: "review-time", min: "0", step: "100", "aria-label": "Moment of the race" }) as HTMLInputElement;
  private readonly speed = h("select", { id: "review-speed", "aria-label": "Replay speed" }, ...SPEEDS.map((s) => h("option", { value: String(s) }, `${s}×`))) as HTMLSelectElement;
  /** The racer replayed (index into the review's racers). */
  private racer = 0;
  /** The moment shown, ms from the start. */
  private at: number;
  private timer?: ReturnType<typeof setInterval>;
  private readonly length: number;

  /** `title`: the variant and its parameters in words. */
  constructor(
    private readonly review: RaceReview,
    title: string,
    back: () => void,
  ) {
    const geometry = geometryOf(review.puzzle);
    this.board = new BoardView(geometry, { select: () => undefined });
    this.length = replayLength(review);
    this.at = this.length;
    this.slider.max = String(this.length);
    this.slider.value = String(this.at);
    this.slider.addEventListener("input", () => this.seek(Number(this.slider.value)));
    this.speed.value = "16";
    const link = reviewLink(location.origin, location.pathname, review.id);
    const linkField = h("input", { type: "text", readonly: "", value: link, id: "review-link", "aria-label": "Link to this review" }) as HTMLInputElement;
    const shareButton = h("button", { type: "button", id: "review-share" }, "Copy link") as HTMLButtonElement;
    shareButton.addEventListener("click", () => void copyWithFeedback(shareButton, link, () => linkField.select()));
    this.el = h(
      "main",
      { class: "review", id: "review" },
      h(
        "section",
        { class: "card" },
        h(
          "div",
          { class: "row" },
          h("h2", {}, "Race review"),
          h("button", { type: "button", class: "small", id: "review-back", onclick: () => { this.stop(); back(); } }, "Back"),
        ),
        h("p", { class: "muted", id: "review-title" }, `${title}, ${review.difficulty} · ${review.racers.length} racers · ${new Date(review.at_ms).toLocaleString()}`),
        this.racers,
        h("h3", {}, "Where the time went"),
        this.tierTable(),
        h("div", { class: "row" }, linkField, shareButton),
      ),
      h(
        "section",
        { class: "card review-replay" },
        h("div", { class: "board-box" }, this.board.svg),
        h("div", { class: "row review-controls" }, this.playButton, this.speed, this.slider, this.clockLabel),
        this.slowestLine,
        this.steps,
      ),
    );
    this.showRacer();
    this.update();
  }

  /** The tier table: a row per tier, a column per racer; the quickest per digit in bold. */
  private tierTable(): HTMLElement {
    const rows = tierRows(this.review);
    return h(
      "table",
      { class: "review-tiers", id: "review-tiers" },
      h("thead", {}, h("tr", {}, h("th", {}, "Digits"), ...this.review.racers.map((r) => h("th", {}, r.name)))),
      h(
        "tbody",
        {},
        ...rows.map((row) =>
          h(
            "tr",
            {},
            h("th", {}, row.label),
            ...row.cells.map((c, i) =>
              h("td", { class: i === row.quickest ? "quickest" : "" }, c ? `${c.digits} in ${clock(c.ms)} (${seconds(c.ms / c.digits)} each)` : "–"),
            ),
          ),
        ),
      ),
    );
  }

  private togglePlay() {
    if (this.timer) return this.stop();
    if (this.at >= this.length) this.at = 0;
    this.timer = setInterval(() => {
      if (!this.el.isConnected) return this.stop();
      this.at = Math.min(this.length, this.at + FRAME_MS * Number(this.speed.value));
      if (this.at >= this.length) this.stop();
      this.update();
    }, FRAME_MS);
    this.update();
  }

  private stop() {
    clearInterval(this.timer);
    this.timer = undefined;
    this.update();
  }

  private seek(ms: number) {
    this.at = Math.max(0, Math.min(this.length, ms));
    this.update();
  }

  private choose(racer: number) {
    this.racer = racer;
    this.showRacer();
    this.update();
  }

  /** The racers (the one replayed marked), their longest waits and timeline: on a change of racer. */
  private showRacer() {
    const r = this.review.racers[this.racer];
    replace(
      this.racers,
      ...this.review.racers.map((x, i) =>
        h(
          "li",
          {},
          h(
            "button",
            { type: "button", class: "link", "aria-pressed": String(i === this.racer), onclick: () => this.choose(i) },
            `${x.name}: ${resultText(x)} · ${x.mistakes} mistake${x.mistakes === 1 ? "" : "s"} · ${x.hints} hint${x.hints === 1 ? "" : "s"}`,
          ),
        ),
      ),
    );
    const waits = slowest(r);
    this.slowestLine.textContent =
      waits.length > 0 ? `${r.name}'s longest waits: ${waits.map((s) => `${seconds(s.took_ms)} for ${stepText(s)}`).join("; ")}.` : `${r.name} placed no digit.`;
    replace(
      this.steps,
      ...r.steps.map((s) =>
        h(
          "li",
          { class: `review-step ${s.act}`, onclick: () => this.seek(s.at_ms) },
          h("span", { class: "muted" }, `${clock(s.at_ms)} (+${seconds(s.took_ms)}) `),
          stepText(s),
        ),
      ),
    );
  }

  /** The moment shown: the board, the controls, the timeline's current step (every replay frame). */
  update() {
    const r = this.review.racers[this.racer];
    const current = stepAt(r, this.at);
    const step = r.steps[current];
    const cols = this.review.puzzle.layout.cols;
    this.board.paint(
      plainPaint(boardAt(this.review, r, this.at), {
        editable: false,
        wrong: wrongAt(this.review, r, this.at),
        hint: step ? step.row * cols + step.col : undefined,
      }),
    );
    this.playButton.textContent = this.timer ? "Pause" : "Play";
    this.slider.value = String(Math.round(this.at));
    this.clockLabel.textContent = `${clock(this.at)} / ${clock(this.length)}`;
    [...this.steps.children].forEach((li, i) => li.classList.toggle("current", i === current));
  }
}
