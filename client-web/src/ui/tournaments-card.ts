// The lobby's arena tournaments: those running, coming and just over (each
// opens its standings), and a form that creates one of the kind picked in
// the new-game form.

import type { Session } from "../game/session";
import { timeLine } from "../game/tournament";
import { variantTitle } from "../game/title";
import type { ClientMessage, ParamValue } from "../protocol";
import { h, replace } from "./dom";

/** What the card needs from the lobby. */
export interface TournamentsActions {
  /** Creates a tournament (its standings open when it comes). */
  create(m: ClientMessage): void;
  /** Opens a tournament's standings. */
  open(id: string): void;
  /** The kind picked in the new-game form. */
  kind(): { variant: string; params: Record<string, ParamValue>; difficulty: string };
  /** The server's clock, ms. */
  now(): number;
}

/** The tournaments card. */
export class TournamentsCard {
  readonly el: HTMLElement;
  private readonly list = h("ul", { class: "tournament-list", id: "tournament-list" });
  private readonly name = h("input", { type: "text", id: "tournament-name", maxlength: "40", "aria-label": "Tournament name", placeholder: "Name" }) as HTMLInputElement;
  private readonly minutes = h(
    "select",
    { id: "tournament-minutes", "aria-label": "Length" },
    ...[10, 20, 30, 45, 60].map((m) => h("option", { value: String(m) }, `${m} minutes`)),
  ) as HTMLSelectElement;
  private readonly start = h(
    "select",
    { id: "tournament-start", "aria-label": "Start" },
    ...[
      [0, "starting now"],
      [5, "in 5 minutes"],
      [15, "in 15 minutes"],
      [60, "in an hour"],
    ].map(([m, label]) => h("option", { value: String(m) }, String(label))),
  ) as HTMLSelectElement;

  constructor(
    private readonly session: Session,
    private readonly actions: TournamentsActions,
  ) {
    this.minutes.value = "20";
    this.el = h(
      "section",
      { class: "card", id: "tournaments" },
      h("h2", {}, "Arena tournaments"),
      h("p", { class: "muted" }, "Race back to back for the whole length: 4 points a win, 2 for second, 1 for any finish, double after two wins in a row."),
      this.list,
      h(
        "div",
        { class: "row" },
        this.name,
        this.minutes,
        this.start,
        h("button", { type: "button", id: "create-tournament", title: "A tournament of the variant and difficulty picked above", onclick: () => this.create() }, "Create a tournament"),
      ),
    );
  }

  private create() {
    const kind = this.actions.kind();
    const name = this.name.value.trim() || `${this.session.me?.name ?? "My"} arena`;
    this.actions.create({ type: "create_tournament", name, ...kind, minutes: Number(this.minutes.value), starts_in_minutes: Number(this.start.value) });
  }

  /** Redraws the list (its times by the server's clock). */
  update() {
    const s = this.session;
    const now = this.actions.now();
    replace(
      this.list,
      ...(s.tournaments.length === 0
        ? [h("li", { class: "muted" }, "No tournament right now: create one, and share its link.")]
        : s.tournaments.map((t) => {
            const kind = `${variantTitle(
              s.variants.find((v) => v.id === t.variant),
              t,
            )}, ${t.difficulty}`;
            const leader = t.leader ? ` · leading: ${t.leader}` : "";
            return h(
              "li",
              {},
              h("button", { type: "button", class: "link", onclick: () => this.actions.open(t.id) }, t.name),
              h("span", { class: "muted" }, ` ${kind} · ${timeLine(t, now)} · ${t.players} player${t.players === 1 ? "" : "s"}${leader}`),
            );
          })),
    );
  }
}
