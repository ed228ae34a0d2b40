// The home screen: my name, the form that creates a room (variant with its rules,
// parameters, difficulty, mode, public or private, mistakes and hints), joining by
// code, and the list of public rooms.

import { puzzleLink } from "../game/puzzle-link";
import { copyWithFeedback } from "./clipboard";
import { offeredDifficulties, tierLabel } from "../game/tiers";
import { variantTitle } from "../game/title";
import { RecordsCard } from "./records";
import { TournamentsCard } from "./tournaments-card";
import { dailySettings, nextDailyAt } from "../game/daily";
import type { ClientMessage, Manifest, MistakePolicy, Mode, ParamValue, RoomSettings } from "../protocol";
import type { Session } from "../game/session";
import { h, replace } from "./dom";

/** The first card's solo game: classic 9x9, easy, hints at +30 s. */
function quickSolo(): RoomSettings {
  return {
    variant: "classic",
    params: {},
    difficulty: "easy",
    mode: "solo",
    public: false,
    max_players: 1,
    mistakes: { type: "none" },
    hints: { type: "penalty", seconds: 30 },
    ghosts: false,
    own_best: false,
    quick: false,
    rated: false,
  };
}

/** The first card's race: classic 9x9, easy, private (its link is sent), up to 4 players. */
function quickRace(): RoomSettings {
  return { ...quickSolo(), mode: "race", max_players: 4, mistakes: { type: "penalty", seconds: 10 } };
}

/** Public rooms the server lists per page. */
const PAGE_ROOMS = 50;

/** What the home screen asks the app to do. */
export interface HomeActions {
  send(m: ClientMessage): void;
  rename(name: string): void;
  /** Open the puzzle setter. */
  openSetter(): void;
  /** Create an arena tournament (its standings open when it comes). */
  createTournament(m: ClientMessage): void;
  /** Open a tournament's standings. */
  openTournament(id: string): void;
  /** The server's clock, ms. */
  serverNow(): number;
}

/** The lobby. */
export class HomeScreen {
  readonly el: HTMLElement;
  private readonly variant = h("select", { id: "variant", "aria-label": "Variant" });
  private readonly rules = h("p", { class: "rules", id: "rules" });
  private readonly params = h("div", { class: "params" });
  private readonly difficulty = h("select", { id: "difficulty", "aria-label": "Difficulty" });
  private readonly mode = h(
    "select",
    { id: "mode", "aria-label": "Mode" },
    h("option", { value: "solo" }, "Solo"),
    h("option", { value: "race" }, "Race"),
    h("option", { value: "coop" }, "Co-op"),
  );
  private readonly isPublic = h("input", { type: "checkbox", id: "public", checked: true });
  /** A race whose result moves the racers' ratings (races only). */
  private readonly isRated = h("input", { type: "checkbox", id: "rated" });
  private readonly puzzleText = h("textarea", {
    id: "puzzle-text",
    rows: 3,
    spellcheck: false,
    "aria-label": "Your own puzzle",
    placeholder: "Paste a puzzle: an 81-character line (. or 0 for empty), a v1 or archive JSON, or a killer",
  });
  private readonly ownPuzzle = h(
    "details",
    { class: "own-puzzle", id: "own-puzzle" },
    h("summary", {}, "Play your own puzzle"),
    this.puzzleText,
    h(
      "div",
      { class: "row" },
      h("span", { class: "muted" }, "The server checks it has exactly one solution. Games on your own puzzles stay off the leaderboards."),
      h("button", { type: "button", class: "small", id: "puzzle-link", onclick: (e: Event) => void this.copyPuzzleLink(e.currentTarget as HTMLButtonElement) }, "Copy a link to it"),
    ),
  );
  private readonly maxPlayers = h("input", { type: "number", id: "max-players", min: 2, max: 8, value: 4 });
  private readonly mistakes = h(
    "select",
    { id: "mistakes", "aria-label": "Mistakes" },
    h("option", { value: "none" }, "No feedback"),
    h("option", { value: "penalty" }, "Feedback, +10 s per mistake"),
    h("option", { value: "lives" }, "Feedback, 3 lives"),
  );
  private readonly hints = h(
    "select",
    { id: "hints", "aria-label": "Hints" },
    h("option", { value: "penalty" }, "Hints, +30 s each"),
    h("option", { value: "off" }, "No hints"),
  );
  private readonly roomList = h("tbody");
  private readonly roomCount = h("p", { class: "muted", id: "room-count" });
  private readonly roomVariant = h("select", { id: "room-variant", "aria-label": "Rooms of", onchange: () => this.filterRooms() });
  private readonly roomJoinable = h("input", { type: "checkbox", id: "room-joinable", onchange: () => this.filterRooms() });
  private readonly roomsBack = h("button", { type: "button", class: "small", id: "rooms-back", onclick: () => this.pageRooms(-1) }, "Back");
  private readonly roomsMore = h("button", { type: "button", class: "small", id: "rooms-more", onclick: () => this.pageRooms(1) }, "More");
  private readonly code = h("input", { id: "join-code", placeholder: "room code", "aria-label": "Room code" });
  private readonly name = h("input", { id: "name", maxlength: 24, "aria-label": "Your name" });
  private shownVariants = "";
  private readonly dailyList = h("div", { class: "daily-list", id: "daily-list" });
  private readonly syncShown = h("p", { id: "sync-shown", class: "muted" });
  private readonly redeemCode = h("input", { id: "redeem-code", placeholder: "code from your other device", "aria-label": "Sync code", autocomplete: "off" });
  private readonly hideMe = h("input", { type: "checkbox", id: "hide-me" });
  private readonly records: RecordsCard;
  private readonly tournaments: TournamentsCard;
  private readonly nextDaily = h("p", { class: "muted", id: "next-daily" });
  private readonly dailyGhosts = h("input", { type: "checkbox", id: "daily-ghosts" });
  private readonly createButton = h("button", { type: "submit", class: "primary", id: "create-room" }, "Create room");
  private readonly createStatus = h("p", { id: "create-status", class: "create-status", role: "status", "aria-live": "polite" });

  constructor(
    private readonly session: Session,
    private readonly actions: HomeActions,
  ) {
    this.variant.addEventListener("change", () => this.showVariant());
    this.mode.addEventListener("change", () => this.showMode());
    const send = (m: ClientMessage) => this.actions.send(m);
    this.records = new RecordsCard(send);
    this.tournaments = new TournamentsCard(session, {
      create: (m) => this.actions.createTournament(m),
      open: (id) => this.actions.openTournament(id),
      kind: () => ({ variant: this.variant.value, params: this.chosenParams(), difficulty: this.difficulty.value }),
      now: () => this.actions.serverNow(),
    });
    this.hideMe.addEventListener("change", () => send({ type: "hide_from_boards", hidden: this.hideMe.checked }));
    this.el = h(
      "main",
      { class: "home" },
      h("a", { class: "skip-link", href: "#", onclick: (e: Event) => { e.preventDefault(); this.variant.focus(); } }, "Skip to the new game form"),
      h(
        "section",
        { class: "card quick", id: "quick" },
        h("h2", {}, "Play"),
        h(
          "div",
          { class: "row" },
          h("button", { type: "button", class: "big", id: "play-now", onclick: () => this.quick(quickSolo()) }, "Play now"),
          h("button", { type: "button", class: "big", id: "race-friend", onclick: () => this.quick(quickRace()) }, "Race a friend"),
          h("button", { type: "button", class: "big", id: "today", onclick: () => this.quick(dailySettings("classic", "medium")) }, "Today's puzzle"),
          h("button", { type: "button", class: "big", id: "quick-race", onclick: () => this.quickRace("classic", {}, "easy") }, "Quick race"),
        ),
        h("p", { class: "muted" }, "Classic Sudoku: alone, against a friend you send a link to, the puzzle everyone plays today, or a race with whoever is racing now. Everything else is below."),
      ),
      h(
        "section",
        { class: "card" },
        h("h2", {}, "New game"),
        h(
          "form",
          {
            id: "create",
            onsubmit: (e) => {
              e.preventDefault();
              this.askForRoom(() => this.session.createRoom(this.settings()));
            },
          },
          h("label", { for: "variant" }, "Variant"),
          this.variant,
          this.rules,
          this.params,
          h("label", { for: "difficulty" }, "Difficulty"),
          this.difficulty,
          h("label", { for: "mode" }, "Mode"),
          this.mode,
          h("div", { class: "multi" },
            h("label", { for: "max-players" }, "Players"),
            this.maxPlayers,
            h("label", { class: "check" }, this.isPublic, " Public (listed below)"),
            h("label", { class: "check competitive" }, this.isRated, " Rated (races)"),
          ),
          h("label", { for: "mistakes", class: "competitive" }, "Mistakes"),
          this.mistakes,
          h("label", { for: "hints" }, "Hints"),
          this.hints,
          this.ownPuzzle,
          this.createButton,
          h(
            "button",
            {
              type: "button",
              id: "quick-race-kind",
              title: "Join whoever is racing this variant and difficulty now, or open a race others join",
              onclick: () => this.quickRace(this.variant.value, this.chosenParams(), this.difficulty.value),
            },
            "Quick race of this kind",
          ),
          this.createStatus,
        ),
        h(
          "p",
          { class: "row" },
          h("button", { type: "button", class: "small", id: "open-setter", onclick: () => this.actions.openSetter() }, "Set a puzzle yourself"),
          h("span", { class: "muted" }, "Givens, cages, regions, lines and dots, with a live count of its solutions."),
        ),
      ),
      h(
        "section",
        { class: "card" },
        h("h2", {}, "Join"),
        h(
          "form",
          {
            class: "row",
            onsubmit: (e) => {
              e.preventDefault();
              const code = this.code.value.trim();
              if (code) send({ type: "join_room", code, spectator: false });
            },
          },
          this.code,
          h("button", { type: "submit", id: "join" }, "Join"),
          h(
            "button",
            {
              type: "button",
              onclick: () => {
                const code = this.code.value.trim();
                if (code) send({ type: "join_room", code, spectator: true });
              },
            },
            "Watch",
          ),
        ),
        h("h3", {}, "Public rooms ", h("button", { type: "button", class: "small", onclick: () => send(this.session.listRooms()) }, "Refresh")),
        h("div", { class: "row room-filter" }, this.roomVariant, h("label", { class: "check" }, this.roomJoinable, " Free seat only")),
        h(
          "table",
          { class: "rooms" },
          h("thead", {}, h("tr", {}, ...["Variant", "Mode", "Host", "Players", "State", ""].map((t) => h("th", {}, t)))),
          this.roomList,
        ),
        h("div", { class: "row" }, this.roomCount, this.roomsBack, this.roomsMore),
      ),
      this.tournaments.el,
      h(
        "section",
        { class: "card", id: "daily" },
        h("h2", {}, "Today's puzzles"),
        h("label", { class: "check" }, this.dailyGhosts, " Race the ghosts of today's players (their recorded games, replayed as you play)"),
        this.dailyList,
        this.nextDaily,
      ),
      this.records.el,
      h(
        "section",
        { class: "card" },
        h("h2", {}, "You"),
        h(
          "form",
          {
            class: "row",
            onsubmit: (e) => {
              e.preventDefault();
              this.actions.rename(this.name.value.trim());
            },
          },
          h("label", { for: "name" }, "Name"),
          this.name,
          h("button", { type: "submit" }, "Change name"),
        ),
        h(
          "div",
          { class: "row" },
          h("button", { type: "button", id: "sync-code", onclick: () => send({ type: "sync_code" }) }, "Move to another device"),
          this.syncShown,
        ),
        h(
          "form",
          {
            class: "row",
            onsubmit: (e) => {
              e.preventDefault();
              const code = this.redeemCode.value.trim();
              if (code) send({ type: "redeem_sync", code });
              this.redeemCode.value = "";
            },
          },
          this.redeemCode,
          h("button", { type: "submit", id: "redeem" }, "Use a code"),
        ),
        h(
          "label",
          { class: "check" },
          this.hideMe,
          " Hide my name from public leaderboards",
        ),
      ),
    );
    this.showMode();
  }

  /** Refreshes the parts that come from the server. */
  update() {
    const s = this.session;
    this.showCreating();
    if (s.sharedPuzzle !== undefined) {
      this.puzzleText.value = s.sharedPuzzle;
      this.ownPuzzle.open = true;
      s.sharedPuzzle = undefined;
    }
    if (document.activeElement !== this.name) this.name.value = s.me?.name ?? "";
    const ids = s.variants.map((v) => v.id).join(",");
    if (ids !== this.shownVariants) {
      this.shownVariants = ids;
      const previous = this.variant.value;
      replace(this.variant, ...s.variants.map((v) => h("option", { value: v.id }, v.name)));
      if (s.variants.some((v) => v.id === previous)) this.variant.value = previous;
      else if (s.variants.some((v) => v.id === "classic")) this.variant.value = "classic";
      this.showVariant();
      this.showDailies();
      this.records.showVariants(s.variants);
      const filtered = this.roomVariant.value;
      replace(this.roomVariant, h("option", { value: "" }, "All variants"), ...s.variants.map((v) => h("option", { value: v.id }, v.name)));
      this.roomVariant.value = filtered;
    }
    this.records.update(s);
    this.tournaments.update();
    const sync = s.syncCode;
    this.syncShown.textContent = sync ? `Enter ${sync.code} on your other device within ${sync.minutes} minutes (once).` : "";
    this.hideMe.checked = s.profile?.hidden ?? false;
    const byId = new Map(s.variants.map((v) => [v.id, v]));
    const shown = s.rooms.length;
    this.roomCount.textContent =
      s.roomsTotal > shown
        ? `Rooms ${s.roomsOffset + 1}–${s.roomsOffset + shown} of ${s.roomsTotal}, rooms with a free seat first.`
        : "";
    this.roomsBack.hidden = s.roomsOffset === 0;
    this.roomsMore.hidden = s.roomsOffset + shown >= s.roomsTotal;
    replace(
      this.roomList,
      ...(s.rooms.length === 0
        ? [h("tr", {}, h("td", { colspan: 6, class: "muted" }, s.roomQuery.variant || s.roomQuery.joinable ? "No public rooms like that." : "No public rooms yet."))]
        : s.rooms.map((r) =>
            h(
              "tr",
              { "data-code": r.code },
              h("td", {}, `${variantTitle(byId.get(r.settings.variant), r.settings)} · ${r.settings.difficulty}`),
              h("td", {}, r.settings.quick ? `quick race${r.rating !== null ? ` · ~${r.rating}` : ""}` : r.settings.mode),
              h("td", { class: "host" }, r.settings.quick ? "—" : r.host),
              h("td", {}, `${r.players}/${r.settings.max_players}`),
              h("td", {}, r.state),
              h(
                "td",
                {},
                r.state === "waiting"
                  ? h("button", { class: "small", onclick: () => this.actions.send({ type: "join_room", code: r.code, spectator: false }) }, "Join")
                  : null,
                h("button", { class: "small", onclick: () => this.actions.send({ type: "join_room", code: r.code, spectator: true }) }, "Watch"),
              ),
            ),
          )),
    );
  }

  /** A new filter for the public rooms: its first page. */
  private filterRooms() {
    this.session.roomQuery = { offset: 0, variant: this.roomVariant.value || null, joinable: this.roomJoinable.checked };
    this.actions.send(this.session.listRooms());
  }

  /** The next (1) or previous (-1) page of public rooms. */
  private pageRooms(step: number) {
    const page = Math.max(0, this.session.roomsOffset + step * PAGE_ROOMS);
    this.session.roomQuery = { ...this.session.roomQuery, offset: page };
    this.actions.send(this.session.listRooms());
  }

  /** One row per variant: its name and a button per difficulty for today's puzzle. */
  private showDailies() {
    const send = (m: ClientMessage) => this.actions.send(m);
    replace(
      this.dailyList,
      ...this.session.variants.map((v) =>
        h(
          "div",
          { class: "daily-row" },
          h("span", { class: "daily-name" }, v.name),
          ...offeredDifficulties(v, {}).map((d) =>
            h(
              "button",
              {
                type: "button",
                class: "small",
                id: `daily-${v.id}-${d}`,
                title: `Today's ${v.name} puzzle: ${tierLabel(d)}`,
                onclick: () => send({ type: "create_room", settings: dailySettings(v.id, d, this.dailyGhosts.checked) }),
              },
              d,
            ),
          ),
        ),
      ),
    );
    const next = nextDailyAt(new Date());
    this.nextDaily.textContent = `New puzzles at ${next.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })} your time (00:00 UTC).`;
  }

  /** The Create button and its status line: progress while the server makes the puzzle, then why it could not. */
  private showCreating() {
    const s = this.session;
    this.createButton.disabled = s.creatingRoom;
    this.createButton.setAttribute("aria-busy", String(s.creatingRoom));
    this.createButton.textContent = s.creatingRoom ? "Making the puzzle…" : "Create room";
    this.createStatus.classList.toggle("failed", !s.creatingRoom && s.createFailed !== undefined);
    this.createStatus.textContent = s.creatingRoom
      ? "Making a unique puzzle for this game; big grids can take a few seconds."
      : s.createFailed !== undefined
        ? `Could not make this game: ${s.createFailed}. Try again, or pick another variant.`
        : "";
  }

  private manifest(): Manifest | undefined {
    return this.session.variants.find((v) => v.id === this.variant.value);
  }

  private showVariant() {
    const m = this.manifest();
    this.rules.textContent = m?.rules ?? "";
    replace(
      this.params,
      ...(m?.params ?? []).map((p) => {
        const select = h(
          "select",
          { id: `param-${p.key}`, "data-key": p.key, "aria-label": p.name, onchange: () => this.showDifficulties() },
          ...p.allowed.map((v, i) => h("option", { value: JSON.stringify(v) }, p.labels?.[i] ?? String(v))),
        );
        select.value = JSON.stringify(p.default);
        return h("div", { class: "param" }, h("label", { for: `param-${p.key}` }, p.name), select);
      }),
    );
    this.showDifficulties();
  }

  /** The difficulty list: what the variant offers for the chosen parameters (a 4x4 grid is only ever easy). */
  private showDifficulties() {
    const m = this.manifest();
    const offered = m ? offeredDifficulties(m, this.chosenParams()) : [];
    const previous = this.difficulty.value;
    replace(this.difficulty, ...offered.map((d) => h("option", { value: d }, tierLabel(d))));
    if (offered.includes(previous)) this.difficulty.value = previous;
  }

  /** The parameter values chosen in the form. */
  private chosenParams(): Record<string, ParamValue> {
    const params: Record<string, ParamValue> = {};
    for (const select of this.params.querySelectorAll("select")) {
      params[select.dataset.key ?? ""] = JSON.parse(select.value) as ParamValue;
    }
    return params;
  }

  private showMode() {
    const mode = this.mode.value as Mode;
    this.maxPlayers.disabled = mode === "solo";
    this.isPublic.disabled = mode === "solo";
    this.mistakes.disabled = mode === "coop";
    if (mode === "coop") this.mistakes.value = "none";
  }

  private settings(): RoomSettings {
    const mode = this.mode.value as Mode;
    const params = this.chosenParams();
    const mistakes: MistakePolicy =
      this.mistakes.value === "penalty"
        ? { type: "penalty", seconds: 10 }
        : this.mistakes.value === "lives"
          ? { type: "lives", lives: 3 }
          : { type: "none" };
    return {
      variant: this.variant.value,
      params,
      difficulty: this.difficulty.value,
      mode,
      public: mode !== "solo" && this.isPublic.checked,
      max_players: mode === "solo" ? 1 : Math.min(8, Math.max(2, Number(this.maxPlayers.value) || 4)),
      mistakes: mode === "coop" ? { type: "none" } : mistakes,
      hints: this.hints.value === "off" ? { type: "off" } : { type: "penalty", seconds: 30 },
      ghosts: false,
      own_best: false,
      quick: false,
      rated: mode === "race" && this.isRated.checked,
      puzzle: this.puzzleText.value.trim() || undefined,
    };
  }

  /** Starts one of the first card's games (nothing if one is being made). */
  private quick(settings: RoomSettings) {
    this.askForRoom(() => this.session.createRoom(settings));
  }

  /** Joins the open quick race of a kind, or opens one (nothing if a room is being made). */
  private quickRace(variant: string, params: Record<string, ParamValue>, difficulty: string) {
    this.askForRoom(() => this.session.quickRace(variant, params, difficulty));
  }

  /** Sends a request for a room, unless one is already on its way. */
  private askForRoom(request: () => ClientMessage[]) {
    if (this.session.creatingRoom) return;
    for (const m of request()) this.actions.send(m);
    this.update();
  }

  /** Copies a link that opens the lobby with this puzzle filled in. */
  private async copyPuzzleLink(button: HTMLButtonElement) {
    const text = this.puzzleText.value.trim();
    if (!text) return;
    const link = puzzleLink(this.session.siteBase(location.origin + location.pathname), text);
    await copyWithFeedback(button, link, () => this.puzzleText.select());
  }
}
