// The lobby's "Your record" card: my streak (by my local date) and my stats per
// variant and difficulty, and a leaderboard browser (today's puzzle, this week,
// all time) for any variant and difficulty.

import type { Session } from "../game/session";
import type { BoardKind, ClientMessage, Manifest, ServerMessage, StatRow } from "../protocol";
import { h, replace } from "./dom";
import { clock, notRankedNote } from "../game/time";

/** The card; `update` redraws it from the session. */
export class RecordsCard {
  readonly el: HTMLElement;
  private readonly record = h("div", { id: "my-record" });
  private readonly boardKind = h(
    "select",
    { id: "board-kind", "aria-label": "Board" },
    h("option", { value: "daily" }, "Today's puzzle"),
    h("option", { value: "weekly" }, "This week"),
    h("option", { value: "all_time" }, "All time"),
    h("option", { value: "ratings" }, "Race ratings"),
  );
  private readonly boardVariant = h("select", { id: "board-variant", "aria-label": "Board variant" });
  private readonly boardDifficulty = h("select", { id: "board-difficulty", "aria-label": "Board difficulty" });
  private readonly boardView = h("div", { id: "board-view" });

  constructor(send: (m: ClientMessage) => void) {
    this.el = h(
      "section",
      { class: "card", id: "records" },
      h("h2", {}, "Your record"),
      this.record,
      h("h3", {}, "Leaderboards"),
      h(
        "form",
        {
          class: "row",
          onsubmit: (e) => {
            e.preventDefault();
            if (this.boardKind.value === "ratings") {
              send({ type: "ratings", variant: this.boardVariant.value, params: {}, difficulty: this.boardDifficulty.value });
              return;
            }
            send({
              type: "leaderboard",
              board: this.boardKind.value as BoardKind,
              variant: this.boardVariant.value,
              params: {},
              difficulty: this.boardDifficulty.value,
            });
          },
        },
        this.boardKind,
        this.boardVariant,
        this.boardDifficulty,
        h("button", { type: "submit", id: "show-board" }, "Show"),
      ),
      this.boardView,
    );
  }

  /** The variants the board browser offers (when the server's list changes). */
  showVariants(variants: Manifest[]) {
    replace(this.boardVariant, ...variants.map((v) => h("option", { value: v.id }, v.name)));
    replace(this.boardDifficulty, ...["easy", "medium", "hard", "extreme"].map((d) => h("option", { value: d }, d)));
  }

  /** My streak and stats, and the leaderboard I last asked for. */
  update(session: Session) {
    const p = session.profile;
    const names = new Map(session.variants.map((v) => [v.id, v.name]));
    replace(
      this.record,
      p
        ? h(
            "p",
            { id: "streak" },
            `Streak: ${p.streak} ${p.streak === 1 ? "day" : "days"} (best ${p.best_streak})` +
              (p.played_today ? " — today's done." : p.streak > 0 ? " — play today's puzzle to keep it." : "."),
          )
        : null,
      p && p.stats.length > 0 ? h("div", { class: "scroll-x" }, statsTable(p.stats, names)) : h("p", { class: "muted" }, "No finished games yet."),
    );
    const ratings = session.browsedRatings;
    if (ratings) return replace(this.boardView, ...ratingsView(ratings, names));
    const b = session.browsedBoard;
    if (!b) return replace(this.boardView);
    const which = b.board === "all_time" ? "all time" : b.board === "weekly" ? `week of ${b.date}` : b.date;
    const rows = [...b.top, ...b.around.filter((r) => !b.top.some((t) => t.rank === r.rank))];
    replace(
      this.boardView,
      h("p", { class: "muted" }, `${names.get(b.variant) ?? b.variant} · ${b.difficulty} · ${which} — ${b.total} ${b.total === 1 ? "player" : "players"}`),
      b.flagged ? h("p", { id: "board-flagged" }, notRankedNote(b.flagged)) : null,
      rows.length === 0
        ? null
        : h(
            "table",
            { class: "ranks", id: "board-rows" },
            h(
              "tbody",
              {},
              ...rows.map((r) => h("tr", { class: r.me ? "me" : "" }, h("td", {}, String(r.rank)), h("td", {}, r.name), h("td", {}, clock(r.time_ms)))),
            ),
          ),
    );
  }
}

/** A kind's race ratings: mine (with its history) and the highest established ones. */
function ratingsView(r: Extract<ServerMessage, { type: "ratings" }>, names: Map<string, string>): HTMLElement[] {
  const mine =
    r.rating === null
      ? "You have no rating here yet: race a quick race of this kind."
      : `Your rating: ${r.rating}${r.provisional ? " (provisional)" : ""} after ${r.games} ${r.games === 1 ? "race" : "races"}` +
        (r.history.length > 1 ? ` — ${r.history.join(" → ")}` : "") +
        ".";
  return [
    h("p", { class: "muted" }, `${names.get(r.variant) ?? r.variant} · ${r.difficulty} · race ratings — ${r.total} rated ${r.total === 1 ? "player" : "players"}`),
    h("p", { id: "my-rating" }, mine),
    r.top.length === 0
      ? h("p", { class: "muted" }, "Nobody has an established rating yet (five rated races).")
      : h(
          "table",
          { class: "ranks", id: "rating-rows" },
          h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", {}, "Player"), h("th", {}, "Rating"), h("th", {}, "Races"))),
          h(
            "tbody",
            {},
            ...r.top.map((row) => h("tr", { class: row.me ? "me" : "" }, h("td", {}, String(row.rank)), h("td", {}, row.name), h("td", {}, String(row.rating)), h("td", {}, String(row.games)))),
          ),
        ),
  ];
}

/** My games per variant and difficulty: solved, best, average, and the recent times. */
function statsTable(stats: StatRow[], names: Map<string, string>): HTMLElement {
  return h(
    "table",
    { class: "ranks", id: "stats" },
    h("thead", {}, h("tr", {}, ...["Variant", "Difficulty", "Solved", "Best", "Average", "Recent"].map((t) => h("th", {}, t)))),
    h(
      "tbody",
      {},
      ...stats.map((st) =>
        h(
          "tr",
          {},
          h("td", {}, names.get(st.variant) ?? st.variant),
          h("td", {}, st.difficulty),
          h("td", {}, String(st.solved)),
          h("td", {}, clock(st.best_ms)),
          h("td", {}, clock(st.average_ms)),
          h("td", { class: "trend" }, st.recent_ms.map(clock).join(" · ")),
        ),
      ),
    ),
  );
}
