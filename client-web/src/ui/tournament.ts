// A tournament's page: its name, kind and clock, the Race button while it
// runs, the standings as they change (pushed by the server after every race)
// and a link to share. Spectators see the same page without racing.

import type { Session } from "../game/session";
import { recentText, stateAt, timeLine, tournamentLink } from "../game/tournament";
import { variantTitle } from "../game/title";
import type { ClientMessage } from "../protocol";
import { copyWithFeedback } from "./clipboard";
import { h, replace } from "./dom";

/** What the page needs from the app. */
export interface TournamentActions {
  send(messages: ClientMessage[]): void;
  back(): void;
  /** The server's clock, ms. */
  now(): number;
}

/** The tournament page. */
export class TournamentScreen {
  readonly el: HTMLElement;
  private readonly title = h("h2", { id: "tournament-title" });
  private readonly kind = h("p", { class: "muted", id: "tournament-kind" });
  private readonly clockLine = h("p", { class: "tournament-clock", id: "tournament-clock", role: "timer" });
  private readonly raceButton = h("button", { type: "button", class: "primary big", id: "tournament-race", onclick: () => this.race() }, "Race") as HTMLButtonElement;
  private readonly standings = h("tbody", { id: "standings" });
  private readonly summary = h("p", { class: "muted", id: "tournament-summary" });
  private readonly link = h("input", { type: "text", readonly: "", id: "tournament-link", "aria-label": "Link to this tournament" }) as HTMLInputElement;

  constructor(
    private readonly session: Session,
    private readonly actions: TournamentActions,
  ) {
    const share = h("button", { type: "button", id: "tournament-share" }, "Copy link") as HTMLButtonElement;
    share.addEventListener("click", () => void copyWithFeedback(share, this.link.value, () => this.link.select()));
    this.el = h(
      "main",
      { class: "tournament", id: "tournament" },
      h(
        "section",
        { class: "card" },
        h("div", { class: "row" }, this.title, h("button", { type: "button", class: "small", id: "tournament-back", onclick: () => actions.back() }, "Back")),
        this.kind,
        this.clockLine,
        this.raceButton,
        this.summary,
        h(
          "table",
          { class: "standings" },
          h("thead", {}, h("tr", {}, ...["#", "Player", "Points", "Races", "Wins", "Last places"].map((t) => h("th", {}, t)))),
          this.standings,
        ),
        h("div", { class: "row" }, this.link, share),
      ),
    );
    this.update();
  }

  private race() {
    const t = this.session.tournament;
    if (t && !this.session.creatingRoom) this.actions.send(this.session.tournamentRace(t.id));
  }

  /** The clock and the Race button (every quarter second). */
  tick() {
    const t = this.session.tournament;
    if (!t) return;
    const now = this.actions.now();
    this.clockLine.textContent = timeLine(t, now);
    const state = stateAt(t, now);
    this.raceButton.hidden = state === "finished";
    this.raceButton.disabled = state !== "running" || this.session.creatingRoom;
    this.raceButton.textContent = state === "scheduled" ? "Race (once it starts)" : this.session.creatingRoom ? "Finding a race…" : "Race";
  }

  /** Redraws from the last standings. */
  update() {
    const t = this.session.tournament;
    if (!t) return;
    this.title.textContent = t.name;
    const manifest = this.session.variants.find((v) => v.id === t.variant);
    this.kind.textContent = `${variantTitle(manifest, t)}, ${t.difficulty} · by ${t.host} · ${Math.round((t.ends_at_ms - t.starts_at_ms) / 60_000)} minutes`;
    this.summary.textContent = `${t.players} player${t.players === 1 ? "" : "s"} · ${t.races} race${t.races === 1 ? "" : "s"} so far`;
    this.link.value = tournamentLink(location.origin, location.pathname, t.id);
    replace(
      this.standings,
      ...(t.standings.length === 0
        ? [h("tr", {}, h("td", { colspan: "6", class: "muted" }, "Nobody has raced yet."))]
        : t.standings.map((r) =>
            h(
              "tr",
              { class: r.me ? "me" : "" },
              h("td", {}, String(r.rank)),
              h("td", {}, r.name, r.on_fire ? h("span", { class: "fire", title: "Two wins in a row: the next race counts double" }, " ×2") : null),
              h("td", {}, String(r.points)),
              h("td", {}, String(r.races)),
              h("td", {}, String(r.wins)),
              h("td", { class: "recent" }, recentText(r.recent)),
            ),
          )),
    );
    this.tick();
  }
}
