// The setter, the step-through solver and race reviews, loaded only when a
// player opens one (the first page stays small): their state, their screens,
// and what the page does for them — templates and counts asked for, the
// draft kept in the browser, analyses and reviews shown and closed.

import { AnalysisState } from "../game/analysis";
import { SetterState } from "../game/setter";
import { readDraft } from "../game/setter-link";
import { variantTitle } from "../game/title";
import type { Session } from "../game/session";
import type { ClientMessage, PuzzleV1, ServerMessage, SetterDraft } from "../protocol";
import { AnalysisScreen } from "./analysis";
import { ReviewScreen } from "./review";
import { TournamentScreen } from "./tournament";
import { SetterScreen } from "./setter";

/** Where the draft is kept in the browser. */
const SETTER_KEY = "arena.setter";
/** How long the setter waits after an edit before asking for a count, ms. */
const CHECK_AFTER_MS = 250;

/** What the workshop needs from the page. */
export interface WorkshopHost {
  session: Session;
  send(messages: ClientMessage[]): void;
  /** Something changed: the page redraws (and may switch screens). */
  changed(): void;
  storage: { get(key: string): string | null; set(key: string, value: string | null): void };
  /** The server's clock, ms. */
  serverNow(): number;
}

/** The screens the workshop shows over the lobby or a finished game. */
export type WorkshopScreen = "setter" | "analysis" | "review" | "tournament";

/** The setter and the analysis, as the page sees them. */
export class Workshop {
  private readonly setter = new SetterState();
  private setterScreen?: SetterScreen;
  /** A draft waiting for its template (from a link or storage). */
  private saved?: SetterDraft;
  private checkTimer?: ReturnType<typeof setTimeout>;
  /** `check_puzzle` requests not answered yet. */
  private checksOut = 0;
  /** The screen shown, if any. */
  private showing?: WorkshopScreen;
  /** Where an analysis goes back to. */
  private analysisFrom?: "setter";
  private analysisScreen?: AnalysisScreen;
  /** The puzzle an analysis is of (drawn under it). */
  private analysed?: PuzzleV1;
  /** The race review asked for and not yet come (sent again once connected). */
  private reviewWanted?: string;
  private reviewScreen?: ReviewScreen;
  /** The tournament whose standings are to open when they come ("new": the one I create). */
  private tournamentWanted?: string;
  private tournamentScreen?: TournamentScreen;

  constructor(private readonly host: WorkshopHost) {
    try {
      this.saved = readDraft(JSON.parse(host.storage.get(SETTER_KEY) ?? "null"));
    } catch {
      this.saved = undefined;
    }
  }

  /** The screen to show now, if any (the setter only outside a game in progress). */
  screen(room: { state: string } | null | undefined): WorkshopScreen | undefined {
    if (this.showing === "review" && this.reviewScreen) return "review";
    if (this.showing === "tournament" && this.tournamentScreen && (!room || room.state === "finished")) return "tournament";
    if (this.showing === "analysis" && this.analysisScreen) return "analysis";
    if (this.showing === "setter" && (!room || room.state === "finished")) return "setter";
    return undefined;
  }

  /** The element of a screen, made anew. */
  element(kind: WorkshopScreen): HTMLElement | undefined {
    if (kind === "analysis") return this.analysisScreen?.el;
    if (kind === "review") return this.reviewScreen?.el;
    if (kind === "tournament") return this.tournamentScreen?.el;
    this.setterScreen = new SetterScreen(this.setter, () => this.host.session.variants, {
      template: (variant, params) => {
        // A new grid: nothing of the old draft is kept.
        this.saved = undefined;
        this.host.send([{ type: "setter_template", variant, params }]);
      },
      changed: () => this.setterChanged(),
      analyse: () => this.analyse(this.setter.toDraft()),
      play: (settings) => this.host.send(this.host.session.createRoom(settings)),
      back: () => {
        this.showing = undefined;
        this.host.changed();
      },
    });
    this.setterChanged();
    return this.setterScreen.el;
  }

  /** The page left the workshop's screens: their elements go. */
  left() {
    this.setterScreen = undefined;
  }

  /** Redraws the screen shown. */
  update() {
    this.setterScreen?.update();
    if (this.showing === "tournament") this.tournamentScreen?.update();
  }

  /** Every quarter second: clocks. */
  tick() {
    if (this.showing === "tournament") this.tournamentScreen?.tick();
  }

  /** A key on a workshop screen; `true` if it was used. */
  key(e: KeyboardEvent): boolean {
    if (this.showing === "analysis") return this.analysisScreen?.key(e) ?? false;
    if (this.showing === "review" || this.showing === "tournament") return false;
    return !e.ctrlKey && !e.metaKey && (this.setterScreen?.key(e) ?? false);
  }

  /** Opens the setter: on `draft` (a link's), else on the draft as it was left. */
  openSetter(draft?: SetterDraft) {
    this.showing = "setter";
    if (draft) this.saved = draft;
    if (draft || !this.setter.template) this.askTemplate();
    this.host.changed();
  }

  /** Watches tournament `id`: its standings open when they come. */
  openTournament(id: string) {
    this.tournamentWanted = id;
    this.host.send([{ type: "watch_tournament", id }]);
  }

  /** Creates a tournament: its standings open when the server answers. */
  createTournament(m: ClientMessage) {
    this.tournamentWanted = "new";
    this.host.send([m]);
  }

  /** Asks for race review `id` (shown when it comes; asked again on reconnecting until then). */
  openReview(id: string) {
    this.reviewWanted = id;
    this.host.send([{ type: "race_review", id }]);
  }

  /** Asks for the analysis of the room's puzzle (the server checks my game is over). */
  analyseRoom() {
    this.analyse(undefined);
  }

  /** The server's answers for the setter and the analysis. */
  onMessage(m: ServerMessage) {
    if (m.type === "welcome" && this.showing === "setter" && !this.setter.template) this.askTemplate();
    if (m.type === "welcome" && this.reviewWanted) this.host.send([{ type: "race_review", id: this.reviewWanted }]);
    if (m.type === "welcome" && this.tournamentWanted && this.tournamentWanted !== "new") this.host.send([{ type: "watch_tournament", id: this.tournamentWanted }]);
    if (m.type === "tournament" && (this.tournamentWanted === "new" || m.tournament.id === this.tournamentWanted)) {
      this.tournamentWanted = undefined;
      this.tournamentScreen ??= new TournamentScreen(this.host.session, {
        send: (ms) => this.host.send(ms),
        back: () => this.closeLinked("#tournament-"),
        now: () => this.host.serverNow(),
      });
      this.showing = "tournament";
      if (location.hash !== `#tournament-${m.tournament.id}`) history.replaceState(null, "", `#tournament-${m.tournament.id}`);
    }
    if (m.type === "error" && this.tournamentWanted && m.message.includes("tournament")) this.tournamentWanted = undefined;
    // Off to a race: the room's screens take over.
    if (m.type === "room" && this.showing === "tournament") this.showing = undefined;
    if (m.type === "race_review" && m.review.id === this.reviewWanted) {
      this.reviewWanted = undefined;
      const manifest = this.host.session.variants.find((v) => v.id === m.review.variant);
      this.reviewScreen = new ReviewScreen(m.review, variantTitle(manifest, m.review), () => this.closeLinked("#review-"));
      this.showing = "review";
    }
    // A review refused (unknown, or a daily's before its day is over): the page shows why.
    if (m.type === "error" && this.reviewWanted && m.message.includes("review")) this.reviewWanted = undefined;
    if (m.type === "setter_template") {
      const saved = this.saved;
      this.saved = undefined;
      this.setter.start(m.puzzle, m.variant, m.params, saved?.variant === m.variant ? saved : undefined);
      if (this.setterScreen) this.setterScreen.check = undefined;
      this.setterChanged();
    }
    if (m.type === "puzzle_check" || (m.type === "error" && this.checksOut > 0 && this.showing === "setter")) {
      this.checksOut = Math.max(0, this.checksOut - 1);
      if (this.setterScreen) {
        // A draft the server refused (a region of the wrong size) is a problem to show.
        this.setterScreen.check =
          m.type === "puzzle_check" ? m.check : { solutions: 0, gave_up: false, differing: [], grade: null, puzzle: null, problem: m.message };
        this.setterScreen.pending = this.checksOut > 0 || this.checkTimer !== undefined;
      }
    }
    if (m.type === "analysis" && this.analysed) {
      const g = this.analysed.layout;
      this.analysisScreen = new AnalysisScreen(new AnalysisState(m.analysis, g.cols, g.rows * g.cols), this.analysed, () => this.closeAnalysis());
      this.analysisFrom = this.showing === "setter" ? "setter" : undefined;
      this.showing = "analysis";
    }
    if (m.type === "room" && this.showing === "setter") this.showing = undefined;
  }

  /** Asks for the template of the draft kept (or of a classic grid). */
  private askTemplate() {
    this.saved ??= this.setter.draft;
    const d = this.saved;
    this.host.send([{ type: "setter_template", variant: d?.variant ?? "classic", params: d?.params ?? {} }]);
  }

  /** The draft changed: keep it, redraw, and ask for a count once edits pause. */
  private setterChanged() {
    const draft = this.setter.draft;
    if (draft) this.host.storage.set(SETTER_KEY, JSON.stringify(draft));
    clearTimeout(this.checkTimer);
    this.checkTimer = setTimeout(() => {
      this.checkTimer = undefined;
      const d = this.setter.toDraft();
      if (!d) return;
      this.checksOut++;
      this.host.send([{ type: "check_puzzle", draft: d }]);
    }, CHECK_AFTER_MS);
    if (this.setterScreen) this.setterScreen.pending = true;
    this.host.changed();
  }

  /** Asks for the analysis of the draft, or (no draft) of the room's puzzle. */
  private analyse(draft?: SetterDraft) {
    this.analysed = draft ? this.setter.display(this.setterScreen?.check?.puzzle?.drawings ?? []) : (this.host.session.room?.puzzle ?? undefined);
    this.host.send([{ type: "analyse", ...(draft ? { draft } : {}) }]);
  }

  /** Closes a screen a link opens (a review, a tournament): its link leaves the address. */
  private closeLinked(prefix: "#review-" | "#tournament-") {
    this.showing = undefined;
    this.reviewScreen = this.tournamentScreen = undefined;
    if (location.hash.startsWith(prefix)) history.replaceState(null, "", location.pathname);
    this.host.changed();
  }

  private closeAnalysis() {
    this.showing = this.analysisFrom;
    this.analysisScreen = undefined;
    this.host.changed();
  }
}
