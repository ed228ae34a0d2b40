// The game screen: board, digit pad with the input-mode switch, timer, hint,
// mistakes or lives, opponents' progress (race), teammates and their cursor
// colours (co-op), whose board to watch (spectators), chat, and the results.

import { gradeSentence } from "../game/tiers";
import type { EntryMode } from "../game/board";
import type { Game, Session } from "../game/session";
import type { ClientMessage, ShareLink } from "../protocol";
import { BoardView } from "./board-view";
import { colourIn } from "../game/colours";
import { h, replace } from "./dom";
import { clock, notRankedNote } from "../game/time";
import { gameTitle, variantTitle } from "../game/title";
import { ghostProgress, rankAmongGhosts } from "../game/ghosts";
import { cageOf, cageSets } from "../game/combos";
import { constraintCageAt, lineSumAt } from "../game/sums";
import { dailySettings } from "../game/daily";
import { remainingDigits } from "../game/digits";
import { livePlaces, ordinal } from "../game/race";
import { isDarkColour, PALETTE } from "../game/palette";

/** Below this many CSS pixels a cell is too small to read: the board opens zoomed in. */
const MIN_CELL_PX = 17;

/** Where the pad goes beside the board (style.css says the same). */
const WIDE_SCREEN = "(min-width: 60rem)";

/** A zoomed board's box is never shorter than this (a landscape phone). */
const MIN_ZOOMED_BOX_PX = 200;

/** What the game screen asks the app to do. */
export interface PlayActions {
  send(messages: ClientMessage[]): void;
  /** Something local changed (selection, mode): redraw. */
  changed(): void;
  leave(): void;
  serverNow(): number;
  /** The "a placed digit clears its marks" option changed (the app remembers it). */
  setClearMarks(on: boolean): void;
  /** My selection moved (co-op: teammates see my cursor). */
  cursorMoved(): void;
  /** Step through the puzzle's logical solution (once my game is over). */
  analyse(): void;
  /** Open a race's review. */
  review(id: string): void;
  /** Open a tournament's standings. */
  tournament(id: string): void;
}

/** The game and results. */
export class PlayScreen {
  readonly el: HTMLElement;
  private boardView?: BoardView;
  private boardGame?: Game;
  private readonly title = h("h2", { class: "title" });
  private readonly timer = h("span", { class: "timer", id: "timer", role: "timer", "aria-label": "Time" });
  private readonly status = h("span", { class: "status", id: "status" });
  private readonly tools = h("div", { class: "tools" });
  private readonly boardBox = h("div", { class: "board-box" });
  private readonly banner = h("div", { class: "win", id: "win", role: "status", "aria-live": "polite" });
  private readonly spectatorNote = h("p", { class: "muted", id: "spectator-note", hidden: true });
  private readonly rulesText = h("p", { id: "rules-text" });
  /** The server's own reading of each kind of constraint the puzzle has. */
  private readonly ruleNotes = h("ul", { id: "rule-notes", class: "rule-notes", "aria-label": "Each rule of this puzzle" });
  private readonly help = h(
    "section",
    { class: "shortcuts", id: "shortcuts", role: "dialog", "aria-label": "Rules and keyboard shortcuts", hidden: true },
    h("h3", {}, "Rules"),
    this.rulesText,
    this.ruleNotes,
    h("h3", {}, "Keyboard shortcuts"),
    h(
      "dl",
      {},
      ...[
        ["1-9, A-Z", "enter a value in the selected cells"],
        ["Shift + value", "corner mark"],
        ["Ctrl / Alt + value", "centre mark"],
        ["Space", "switch Digit / Corner / Centre / Colour"],
        ["Arrows", "move (Shift or Ctrl: extend the selection)"],
        ["Ctrl + A", "select every cell"],
        ["Escape", "clear the selection (or close this)"],
        ["Delete, Backspace", "erase"],
        ["Ctrl + Z / Ctrl + Y", "undo / redo"],
        ["?", "show or hide the rules and these shortcuts"],
      ].flatMap(([keys, what]) => [h("dt", {}, keys), h("dd", {}, what)]),
    ),
  );
  private readonly pad = h("div", { class: "pad", role: "group", "aria-label": "Digit pad" });
  private readonly modes = h("div", { class: "modes", role: "radiogroup", "aria-label": "Input mode" });
  private readonly clearMarks = h("input", {
    type: "checkbox",
    id: "auto-clear",
    onchange: (e) => {
      this.actions.setClearMarks((e.target as HTMLInputElement).checked);
      this.focusBoard();
    },
  });
  private readonly padOptions = h("label", { class: "check pad-options" }, this.clearMarks, " A placed digit clears its marks from the cells it sees");
  private readonly side = h("div", { class: "people", id: "people" });
  private readonly ghostList = h("div", { class: "people", id: "ghosts" });
  private readonly hintBox = h("p", { class: "hint", id: "hint", "aria-live": "polite" });
  private readonly cageHelp = h("section", { class: "cage-help", id: "cage-help", "aria-live": "polite", hidden: true });
  private readonly chatLog = h("ol", { class: "chat-log", id: "chat-log", "aria-live": "polite" });
  private readonly chatInput = h("input", { id: "chat-input", maxlength: 300, placeholder: "Say something", "aria-label": "Chat message" });
  private readonly results = h("section", { class: "results", id: "results", hidden: true });
  private readonly leaveWhy = h("p", {});
  /** Asks before a leave that costs the game (a solo game ends, a race is forfeited). */
  private readonly leaveConfirm = h(
    "section",
    { class: "shortcuts", id: "leave-confirm", role: "alertdialog", "aria-label": "Leave the game?", hidden: true },
    h("h3", {}, "Leave the game?"),
    this.leaveWhy,
    h(
      "div",
      { class: "row" },
      h("button", { type: "button", class: "primary", id: "keep-playing", onclick: () => this.closeLeave() }, "Keep playing"),
      h("button", { type: "button", id: "leave-anyway", onclick: () => this.actions.leave() }, "Leave"),
    ),
  );
  private shownChat = -1;
  /** Whether the pad sits beside the board (a wide screen). */
  private readonly wide = window.matchMedia(WIDE_SCREEN);
  /** The pad's column: beside the board on a wide screen, under it on a phone. */
  private readonly controls = h("div", { class: "controls" }, this.banner, this.hintBox, this.modes, this.pad, this.padOptions);

  constructor(
    private readonly session: Session,
    private readonly actions: PlayActions,
  ) {
    this.el = h(
      "main",
      { class: "play" },
      h("header", { class: "game-head" }, this.title, this.timer, this.status, this.tools),
      this.results,
      h("div", { class: "game-body" },
        h(
          "div",
          { class: "board-col" },
          this.spectatorNote,
          this.help,
          this.leaveConfirm,
          // Wide screens: the controls beside the board, so both fit one screen.
          // The hint right under the board on a phone (beside it on a wide
          // screen): in the side column it sat below the fold.
          h("div", { class: "board-and-controls" }, this.boardBox, this.controls),
        ),
        h(
          "aside",
          { class: "side" },
          this.side,
          this.ghostList,
          this.cageHelp,
          h("h3", {}, "Chat"),
          this.chatLog,
          h(
            "form",
            {
              class: "row",
              onsubmit: (e) => {
                e.preventDefault();
                const text = this.chatInput.value.trim();
                if (text) this.actions.send([{ type: "chat", text }]);
                this.chatInput.value = "";
              },
            },
            this.chatInput,
            h("button", { type: "submit", class: "small" }, "Send"),
          ),
        ),
      ),
    );
  }

  /** Shows or hides the rules and keyboard shortcuts. */
  toggleHelp() {
    this.help.hidden = !this.help.hidden;
    this.updateTools();
  }

  /** Hides the keyboard shortcuts or the leave question; `false` if neither was shown. */
  closeHelp(): boolean {
    const open = !this.help.hidden || !this.leaveConfirm.hidden;
    this.help.hidden = true;
    this.closeLeave();
    return open;
  }

  /** Leaves at once, or first asks when leaving would cost the game. */
  private askLeave() {
    const why = this.session.leaveWarning();
    if (!why) return this.actions.leave();
    this.leaveWhy.textContent = why;
    this.leaveConfirm.hidden = false;
    this.el.querySelector<HTMLButtonElement>("#keep-playing")?.focus();
  }

  private closeLeave() {
    if (this.leaveConfirm.hidden) return;
    this.leaveConfirm.hidden = true;
    this.focusBoard();
  }

  /** Gives the board keyboard focus. */
  focusBoard() {
    this.boardView?.svg.focus();
  }

  /** Redraws from the session. */
  update() {
    const s = this.session;
    const room = s.room;
    if (!room) return;
    const game = s.game;
    const variant = s.variants.find((v) => v.id === room.settings.variant);
    // A setter's puzzle (pasted from f-puzzles, say) goes by its own title and rules.
    const setter = room.puzzle;
    const name = setter?.title
      ? `“${setter.title}”${setter.author ? ` by ${setter.author}` : ""}`
      : gameTitle(variantTitle(variant, room.settings), game?.geometry);
    this.title.textContent = `${name} · ${room.settings.difficulty} · ${room.settings.mode}${room.spectator ? " · watching" : ""}`;
    this.rulesText.textContent = setter?.rules ?? variant?.rules ?? "";
    const notes = setter?.ruleNotes ?? [];
    if (this.ruleNotes.dataset.shown !== notes.join("\n")) {
      this.ruleNotes.dataset.shown = notes.join("\n");
      replace(this.ruleNotes, ...notes.map((note) => h("li", {}, note)));
    }

    if (game !== this.boardGame) {
      this.boardGame = game;
      this.boardView = game
        ? new BoardView(game.geometry, {
            select: (cell, how) => {
              if (!s.game || s.room?.spectator) return;
              if (how === "only") s.game.board.select(cell);
              else s.game.board.extend(cell, how === "toggle");
              this.actions.cursorMoved();
              this.actions.changed();
            },
          })
        : undefined;
      replace(this.boardBox, this.boardView?.svg ?? null);
      if (game) this.buildPad(game);
      this.fitZoomedBox();
      // A board whose cells would be too small to read (a 25x25 on a phone) opens zoomed in.
      const view = this.boardView;
      if (view?.zoomable) requestAnimationFrame(() => view === this.boardView && view.cellWidth() < MIN_CELL_PX && this.setZoom(view, true));
    }
    if (room.paused) {
      replace(this.boardBox, h("div", { class: "paused", id: "paused" }, "Paused — the board is hidden. Resume to go on."));
      this.boardGame = undefined;
    }
    const paint = s.paint((id) => colourIn(room.players, id));
    if (paint && this.boardView) this.boardView.paint(paint);
    const note = s.hiddenBoardNote();
    this.spectatorNote.hidden = note === undefined;
    this.spectatorNote.textContent = note ?? "";

    this.updateTools();
    if (game) this.updatePad(game);
    this.updateModes();
    this.updatePeople();
    this.updateHint();
    this.updateCageHelp();
    this.updateChat();
    this.updateResults();
    this.tick();
  }

  /** Zooms the board in or out, fits its box to the screen and says so on the button. */
  private setZoom(view: BoardView, on: boolean) {
    view.setZoomed(on);
    this.fitZoomedBox();
    this.updateTools();
  }

  /** The screen changed size: the zoomed box and the results fit it again
   * (the app calls this from its one resize listener). */
  fitToScreen() {
    this.fitZoomedBox();
    this.placeResults();
  }

  /** A zoomed board's box takes the height the screen has left once the
   * controls under it (on a phone) are in view too; it scrolls inside. */
  private fitZoomedBox() {
    const box = this.boardBox;
    if (!box.classList.contains("zoomed")) {
      box.style.maxHeight = "";
      return;
    }
    const top = box.getBoundingClientRect().top + window.scrollY;
    const controls = box.nextElementSibling?.getBoundingClientRect();
    const under = controls && controls.top > box.getBoundingClientRect().top + 8 ? controls.height : 0;
    box.style.maxHeight = `${Math.max(MIN_ZOOMED_BOX_PX, Math.floor(window.innerHeight - top - under - 8))}px`;
  }

  /** Shown results sit where the pad was, beside the board, on a wide
   * screen (above it they pushed the board below the fold at 1280x800);
   * on a phone, above the board, where the game's header leaves off. */
  private placeResults() {
    const beside = !this.results.hidden && this.wide.matches;
    if (beside && this.results.parentElement !== this.controls) this.controls.prepend(this.results);
    if (!beside && this.results.parentElement === this.controls) this.el.insertBefore(this.results, this.el.querySelector(".game-body"));
    this.el.classList.toggle("results-beside", beside);
  }

  /** Updates the clock (called several times a second). */
  tick() {
    const room = this.session.room;
    this.updateGhosts();
    if (!room || room.start_at === null) return;
    const me = this.session.myPlayer();
    if (me?.finished_ms != null) {
      this.timer.textContent = clock(me.finished_ms);
    } else if (room.state === "playing" && !room.paused) {
      const penalties = this.session.livePenaltyMs();
      this.timer.textContent = clock(this.actions.serverNow() - room.start_at - room.paused_ms + penalties);
    }
  }

  /** The ghosts' bars, as far as each had got at this point of its game. */
  private updateGhosts() {
    const room = this.session.room;
    const runs = room?.ghosts ?? [];
    this.ghostList.hidden = runs.length === 0;
    if (!room || runs.length === 0 || room.start_at === null) return;
    const elapsed = room.state === "playing" && !room.paused ? this.actions.serverNow() - room.start_at - room.paused_ms : Infinity;
    replace(
      this.ghostList,
      h("h3", {}, "Ghosts"),
      h(
        "ul",
        { class: "progress-list" },
        ...runs.map((run, i) => {
          const { pct, done } = ghostProgress(run, elapsed);
          return h(
            "li",
            { "data-ghost": String(i) },
            h("span", { class: "dot ghost", title: "a recorded game" }),
            h("span", { class: "name" }, run.name),
            h("progress", { max: 100, value: pct, "aria-label": `${run.name}'s ghost` }),
            h("span", { class: "muted" }, done ? ` ✓ ${clock(run.time_ms)}` : ` ${pct}%`),
          );
        }),
      ),
    );
  }

  private buildPad(game: Game) {
    const g = game.geometry;
    const s = this.session;
    // Under the board: nine values and the three tools in two rows; more values
    // with the tools in as few rows of up to ten as they fill (16: two, 25: three).
    const keys = g.size + 3;
    const columns = g.size <= 9 ? g.size : Math.ceil(keys / Math.ceil(keys / 10));
    this.pad.style.setProperty("--columns", String(Math.max(columns, 3)));
    // Beside the board: a square keypad (3x3 for nine values, 4x4 for sixteen…).
    this.pad.style.setProperty("--side-columns", String(Math.max(3, Math.ceil(Math.sqrt(g.size)))));
    replace(
      this.pad,
      ...g.symbols.map((symbol, i) =>
        h(
          "button",
          {
            type: "button",
            class: "digit",
            "data-value": String(i + 1),
            "aria-label": `Enter ${symbol}`,
            // The board takes the focus back, so Space then switches the mode
            // instead of pressing this button again.
            onclick: () => this.act(s.enter(i + 1)),
          },
          symbol,
          h("span", { class: "count" }),
        ),
      ),
      h("button", { type: "button", class: "action", "aria-label": "Erase", onclick: () => this.act(s.erase()) }, "⌫"),
      h("button", { type: "button", class: "action", "aria-label": "Undo", onclick: () => this.act(s.undo()) }, "↶"),
      h("button", { type: "button", class: "action", "aria-label": "Redo", onclick: () => this.act(s.redo()) }, "↷"),
    );
  }

  /** Each digit's count still to place on the pad; a digit placed everywhere is greyed out. */
  private updatePad(game: Game) {
    const left = remainingDigits(game.geometry, game.board.values);
    this.pad.querySelectorAll<HTMLButtonElement>("button.digit").forEach((button) => {
      const i = Number(button.dataset.value) - 1;
      const n = left[i];
      const count = button.querySelector(".count");
      if (count) count.textContent = n === undefined ? "" : String(n);
      button.classList.toggle("done", n === 0 && this.session.mode !== "colour");
      // Colour mode: the keys are the palette.
      const swatch = this.session.mode === "colour" ? PALETTE[i] : undefined;
      button.style.background = swatch ?? "";
      button.style.color = swatch && isDarkColour(i + 1) ? "#fff" : "";
      button.disabled = this.session.mode === "colour" && !swatch;
      const symbol = game.geometry.symbols[i];
      button.setAttribute("aria-label", n === undefined ? `Enter ${symbol}` : `Enter ${symbol}, ${n} left`);
    });
  }

  private act(messages: ClientMessage[]) {
    this.actions.send(messages);
    this.actions.changed();
    this.focusBoard();
  }

  private updateModes() {
    const s = this.session;
    const choices: Array<[EntryMode, string]> = [
      ["value", "Digit"],
      ["corner", "Corner"],
      ["centre", "Centre"],
      ["colour", "Colour"],
    ];
    replace(
      this.modes,
      ...choices.map(([mode, label]) =>
        h(
          "button",
          {
            type: "button",
            role: "radio",
            "aria-checked": String(s.mode === mode),
            class: s.mode === mode ? "mode on" : "mode",
            "data-mode": mode,
            onclick: () => {
              s.mode = mode;
              this.actions.changed();
              this.focusBoard();
            },
          },
          label,
        ),
      ),
    );
    this.modes.hidden = !s.canPlay();
    this.pad.hidden = !s.canPlay();
    this.padOptions.hidden = !s.canPlay();
    this.clearMarks.checked = s.clearMarks;
  }

  private updateTools() {
    const s = this.session;
    const room = s.room;
    if (!room) return;
    const me = s.myPlayer();
    const policy = room.settings.mistakes;
    const parts: string[] = [];
    if (me && policy.type === "lives") parts.push(`Lives ${Math.max(0, policy.lives - me.mistakes)}/${policy.lives}`);
    if (me && policy.type === "penalty") parts.push(`Mistakes ${me.mistakes} (+${me.mistakes * policy.seconds} s)`);
    if (me && me.hints > 0) parts.push(`Hints ${me.hints}`);
    if (me?.out) parts.push("Out of lives");
    this.status.textContent = parts.join(" · ");
    const playing = s.canPlay() || (room.paused && !room.spectator);
    const view = this.boardView;
    replace(
      this.tools,
      view?.zoomable
        ? h(
            "button",
            {
              type: "button",
              id: "zoom",
              "aria-pressed": String(view.zoomed),
              title: "Zoom the board in or out (the view follows the selected cell)",
              onclick: () => {
                this.setZoom(view, !view.zoomed);
                this.focusBoard();
              },
            },
            view.zoomed ? "Zoom out" : "Zoom in",
          )
        : null,
      s.canPlay() && room.settings.hints.type === "penalty"
        ? h("button", { type: "button", id: "hint-button", onclick: () => this.actions.send(this.session.hintMessage()) }, `Hint (+${room.settings.hints.seconds} s)`)
        : null,
      s.canFillCandidates()
        ? h(
            "button",
            {
              type: "button",
              id: "fill-candidates",
              title: "Fill every empty cell's centre marks with the digits the cells it sees leave",
              onclick: () => this.act(s.fillCandidates()),
            },
            room.settings.mode === "race" && room.settings.hints.type === "penalty" ? `Candidates (+${room.settings.hints.seconds} s)` : "Candidates",
          )
        : null,
      room.settings.mode === "solo" && playing && room.state === "playing"
        ? h(
            "button",
            { type: "button", id: "pause", onclick: () => this.actions.send([{ type: room.paused ? "resume" : "pause" }]) },
            room.paused ? "Resume" : "Pause",
          )
        : null,
      policy.type !== "none" && !room.spectator
        ? h(
            "label",
            { class: "check" },
            h("input", {
              type: "checkbox",
              id: "error-check",
              checked: s.errorCheck,
              onchange: (e) => {
                s.errorCheck = (e.target as HTMLInputElement).checked;
                this.actions.changed();
              },
            }),
            " Show mistakes",
          )
        : null,
      h(
        "button",
        { type: "button", id: "help-button", "aria-label": "Rules and keyboard shortcuts", "aria-expanded": String(!this.help.hidden), onclick: () => this.toggleHelp() },
        "?",
      ),
      h("button", { type: "button", id: "leave", onclick: () => this.askLeave() }, "Leave"),
    );
  }

  private updatePeople() {
    const s = this.session;
    const room = s.room;
    const game = s.game;
    if (!room) return;
    const total = game ? game.geometry.cells.length : 0;
    const givens = game ? game.geometry.cells.filter((c) => game.geometry.givens[c] !== 0).length : 0;
    const heading = room.settings.mode === "coop" ? "Team" : room.settings.mode === "race" ? "Race" : "Player";
    const places = livePlaces(room.players);
    replace(
      this.side,
      h("h3", {}, heading),
      h(
        "ul",
        { class: "progress-list" },
        ...room.players.map((p) => {
          const share = total > givens ? Math.round(((p.filled - givens) / (total - givens)) * 100) : 0;
          const watching = room.spectator && game?.watching === p.id;
          return h(
            "li",
            { "data-player": p.id },
            room.settings.mode === "race" ? h("span", { class: "place", "data-place": String(places.get(p.id) ?? "") }, places.has(p.id) ? ordinal(places.get(p.id) ?? 0) : "–") : null,
            h("span", { class: "dot", style: `background:${colourIn(room.players, p.id)}` }),
            // A race or solo spectator picks whose board to watch; co-op has one.
            room.spectator && room.settings.mode !== "coop"
              ? h(
                  "button",
                  {
                    type: "button",
                    class: watching ? "small on" : "small",
                    "aria-pressed": String(watching),
                    onclick: () => {
                      if (game) game.watching = p.id;
                      this.actions.changed();
                    },
                  },
                  p.name,
                )
              : h("span", { class: "name", title: p.name }, p.name + (p.id === s.me?.id ? " (you)" : "")),
            room.settings.mode === "coop"
              ? null
              : h("progress", {
                  max: 100,
                  value: Math.max(0, share),
                  "aria-label": `${p.name}'s progress`,
                  // Each bar in its player's colour, beside the dot of the same.
                  style: `accent-color:${colourIn(room.players, p.id)}`,
                }),
            h(
              "span",
              { class: "muted" },
              p.finished_ms !== null ? ` ✓ ${clock(p.finished_ms)}` : p.out ? " out" : p.left ? " left" : room.settings.mode === "coop" ? "" : ` ${Math.max(0, share)}%`,
            ),
          );
        }),
      ),
    );
  }

  /** A hint in two stages, as good teaching apps do: first the technique and where to look, then the whole step. */
  /** The selected cell's cage: its sum and size, and the digit sets it can still use;
   * or the arrow or little killer through it: its sum so far and what is left. */
  private updateCageHelp() {
    const game = this.session.game;
    const cursor = game?.board.cursor;
    const cage = game ? (cageOf(game.geometry.cages, cursor) ?? constraintCageAt(game.geometry, cursor)) : undefined;
    const line = game && !cage ? lineSumAt(game.geometry, game.board.values, cursor) : undefined;
    const sets = game && cage ? cageSets(cage, game.board.values, game.geometry.size) : [];
    const key = cage
      ? `${cage.labelCell}:${sets.map((s) => `${s.digits.join("")}${s.possible ? "" : "x"}`).join(",")}`
      : line
        ? `${line.title}:${line.detail}`
        : "";
    if (this.cageHelp.dataset.shown === key) return;
    this.cageHelp.dataset.shown = key;
    this.cageHelp.hidden = !cage && !line;
    if (line) {
      replace(this.cageHelp, h("h3", {}, line.title), h("p", { class: "line-sum" }, line.detail));
      return;
    }
    if (!game || !cage) return;
    const symbol = (d: number) => game.geometry.symbols[d - 1] ?? String(d);
    const left = sets.filter((s) => s.possible).length;
    replace(
      this.cageHelp,
      h("h3", {}, `Cage ${cage.sum} in ${cage.cells.length}`),
      h(
        "ul",
        { class: "cage-sets", "aria-label": `Digit sets of the cage: ${left} of ${sets.length} still possible` },
        ...sets.map((set) =>
          h(
            "li",
            { class: set.possible ? "set" : "set gone", title: set.possible ? "still possible" : "ruled out by the digits in the cage" },
            set.digits.map(symbol).join(""),
          ),
        ),
      ),
      left === 0 ? h("p", { class: "muted" }, "No digit set fits what the cage holds: check its digits.") : null,
    );
  }

  private updateHint() {
    const game = this.session.game;
    const hint = game?.hint;
    const key = hint ? `${game?.hintStage}:${hint.explanation}` : "";
    if (this.hintBox.dataset.shown === key) return;
    this.hintBox.dataset.shown = key;
    if (!game || !hint) {
      replace(this.hintBox);
      return;
    }
    if (game.hintStage === 1 && hint.clue) {
      const more = h("button", { type: "button", class: "small", id: "hint-more", onclick: () => { game.hintStage = 2; this.actions.changed(); } }, "Show the step");
      replace(this.hintBox, h("span", {}, `Hint: ${hint.clue} `), more);
    } else {
      // The whole step, and a button that does it (paid for with the hint).
      const apply = this.session.canApplyHint()
        ? h("button", { type: "button", class: "small", id: "hint-apply", onclick: () => this.act(this.session.applyHint()) }, hint.value != null ? "Place it" : "Remove them")
        : null;
      replace(this.hintBox, h("span", {}, `Hint: ${hint.explanation} `), apply);
    }
  }

  private updateChat() {
    const chat = this.session.chat;
    if (chat.length === this.shownChat) return;
    this.shownChat = chat.length;
    replace(this.chatLog, ...chat.map((l) => h("li", {}, h("b", {}, l.name + ": "), l.text)));
    this.chatLog.scrollTop = this.chatLog.scrollHeight;
  }

  /** The day's leaderboard under a daily game's results: the top, my row and
   * the rows around it, and how many of today's players I beat. */
  private dailyBoard(date: string): HTMLElement {
    const board = this.session.leaderboard;
    if (!board || board.date !== date) return h("p", { class: "muted", id: "daily-board" }, "Loading today's leaderboard…");
    const rows = [...board.top];
    for (const r of board.around) if (!rows.some((x) => x.rank === r.rank)) rows.push(r);
    rows.sort((a, b) => a.rank - b.rank);
    const place = board.mine
      ? `You are #${board.mine.rank} of ${board.total}` + (board.faster_than_pct ? ` — faster than ${board.faster_than_pct}% of today's players.` : ".")
      : board.flagged
        ? notRankedNote(board.flagged)
        : `${board.total} players on today's board.`;
    return h(
      "section",
      { id: "daily-board" },
      h("h3", {}, `Leaderboard · ${date}`),
      h("p", { id: "daily-place" }, place),
      rows.length === 0 ? null : h(
        "table",
        { class: "ranks" },
        h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", {}, "Player"), h("th", {}, "Time"), h("th", {}, "Penalties"))),
        h(
          "tbody",
          {},
          ...rows.map((r) =>
            h(
              "tr",
              { class: r.me ? "me" : "" },
              h("td", {}, String(r.rank)),
              h("td", {}, r.name),
              h("td", {}, clock(r.time_ms)),
              h("td", {}, r.penalty_ms > 0 ? `+${clock(r.penalty_ms)}` : "—"),
            ),
          ),
        ),
      ),
    );
  }

  /** The puzzle as links other sites open, to share it or play it on there. */
  private shareLinks(links: ShareLink[]): HTMLElement | null {
    if (links.length === 0) return null;
    return h(
      "p",
      { id: "share-links", class: "row" },
      "Share this puzzle:",
      ...links.map((l) => h("a", { href: l.url, target: "_blank", rel: "noopener", class: "share-link", "data-site": l.site }, `Open in ${l.site}`)),
    );
  }

  /** Everyone votes for a rematch; it comes once every player still here wants one. */
  private rematchButton(): HTMLElement {
    const s = this.session;
    const room = s.room;
    const players = room?.players.filter((p) => !p.left) ?? [];
    const voted = players.filter((p) => p.rematch);
    const mine = s.myPlayer()?.rematch ?? false;
    if (room?.settings.mode === "solo") {
      return h("button", { type: "button", class: "primary", id: "rematch", onclick: () => this.actions.send([{ type: "rematch" }]) }, "New puzzle");
    }
    const others = voted.filter((p) => p.id !== s.me?.id).map((p) => p.name);
    return h(
      "span",
      { class: "row", id: "rematch-vote" },
      h(
        "button",
        { type: "button", class: "primary", id: "rematch", disabled: mine, onclick: () => this.actions.send([{ type: "rematch" }]) },
        mine ? `Rematch: ${voted.length} of ${players.length} ready` : "Rematch",
      ),
      others.length > 0 ? h("span", { class: "muted" }, `${others.join(", ")} want${others.length === 1 ? "s" : ""} a rematch`) : null,
    );
  }

  private updateResults() {
    const s = this.session;
    const room = s.room;
    const me = s.myPlayer();
    const results = s.results;
    if (me?.finished_ms != null && !results) {
      this.banner.textContent = `Solved in ${clock(me.finished_ms)}! Waiting for the others…`;
    } else if (me?.out && !results) {
      this.banner.textContent = "Out of lives — you can watch the others finish.";
    } else if (!results && s.fullButUnsolved()) {
      this.banner.textContent = "The grid is full, but not solved: some digit is wrong. Look for a clash, or take a hint.";
    } else {
      this.banner.textContent = "";
    }
    this.results.hidden = !results;
    this.placeResults();
    if (!results || !room) return;
    const mine = results.ranks.find((r) => r.player === s.me?.id);
    const mode = room.settings.mode;
    let headline = "Game over";
    if (mode === "coop") headline = `Solved together in ${clock(results.teamMs ?? 0)}!`;
    else if (mine && mode === "solo") headline = `Solved in ${clock(mine.time_ms)}!`;
    else if (mine && mine.rank === 1) headline = `You won! ${clock(mine.time_ms)}`;
    else if (mine) headline = `Solved! Rank ${mine.rank} · ${clock(mine.time_ms)}`;
    const grade = room.puzzle?.grade;
    const ghosts = room.ghosts ?? [];
    replace(
      this.results,
      h("h2", { id: "results-title" }, headline),
      mine && ghosts.length > 0
        ? h("p", { id: "ghost-rank" }, `Among the ghosts: #${rankAmongGhosts(mine.time_ms, ghosts)} of ${ghosts.length + 1}.`)
        : null,
      grade
        ? h("p", { class: "muted", id: "puzzle-grade" }, gradeSentence(grade))
        : null,
      results.ranks.length > 0
        ? h(
            "table",
            { class: "ranks", id: "ranks" },
            h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", {}, "Player"), h("th", {}, "Time"), h("th", {}, "Mistakes"), h("th", {}, "Hints"))),
            h(
              "tbody",
              {},
              ...results.ranks.map((r) => {
                const p = room.players.find((q) => q.id === r.player);
                return h("tr", {}, h("td", {}, String(r.rank)), h("td", {}, r.name), h("td", {}, clock(r.time_ms)), h("td", {}, String(p?.mistakes ?? 0)), h("td", {}, String(p?.hints ?? 0)));
              }),
            ),
          )
        : null,
      results.contributions.length > 0
        ? h("ul", { class: "contributions" }, ...results.contributions.map((c) => h("li", {}, `${c.name}: ${c.cells} cells`)))
        : null,
      this.shareLinks(room.links ?? []),
      s.ratingNote() ? h("p", { id: "rating-change" }, s.ratingNote()) : null,
      room.settings.daily ? this.dailyBoard(room.settings.daily) : null,
      room.settings.daily && mine
        ? h(
            "button",
            {
              type: "button",
              id: "race-best",
              title: "The same puzzle again, against a ghost of your best game of it",
              onclick: () => this.actions.send([{ type: "create_room", settings: { ...dailySettings(room.settings.variant, room.settings.difficulty, false, true), params: room.settings.params } }]),
            },
            "Race your best",
          )
        : null,
      h(
        "div",
        { class: "row" },
        room.settings.tournament && !room.spectator
          ? h(
              "button",
              { type: "button", class: "primary", id: "next-tournament-race", onclick: () => this.actions.send(this.session.tournamentRace(room.settings.tournament ?? "")) },
              "Next tournament race",
            )
          : null,
        room.settings.tournament
          ? h("button", { type: "button", id: "tournament-standings", onclick: () => this.actions.tournament(room.settings.tournament ?? "") }, "Standings")
          : null,
        room.settings.quick && !room.settings.tournament && !room.spectator
          ? h(
              "button",
              {
                type: "button",
                class: "primary",
                id: "next-quick-race",
                onclick: () => this.actions.send(this.session.quickRace(room.settings.variant, room.settings.params, room.settings.difficulty)),
              },
              "Next quick race",
            )
          : room.settings.daily || room.spectator || room.settings.tournament
            ? null
            : this.rematchButton(),
        results.review
          ? h("button", { type: "button", id: "review-open", title: "Every racer's digits, mistakes and hints, replayed", onclick: () => this.actions.review(results.review ?? "") }, "Review the race")
          : null,
        h("button", { type: "button", id: "analyse", title: "Step through a logical solution", onclick: () => this.actions.analyse() }, "Analyse"),
        h("button", { type: "button", onclick: () => this.actions.leave() }, "Back to the lobby"),
      ),
    );
  }
}
