// The page: asks for a name, keeps one Connection to the server, folds every
// message into the Session, and shows the screen the state calls for (lobby,
// room, game). Keyboard play goes through game/keys.ts.

import "./style.css";
import { keyAction, nextMode } from "./game/keys";
import { profileRequest, Session, type MarkStore, type SavedMarks } from "./game/session";
import { puzzleFromHash } from "./game/puzzle-link";
import { reviewFromHash } from "./game/review";
import { tournamentFromHash } from "./game/tournament";
import { Connection, type LinkStatus } from "./net/connection";
import type { ClientMessage, ServerMessage } from "./protocol";
import { h, replace } from "./ui/dom";
import { HomeScreen } from "./ui/home";
import type { PlayScreen } from "./ui/play";
import { RoomScreen } from "./ui/room";
import { safeColours, useSafeColours } from "./game/colours";
import { draftFromHash } from "./game/setter-link";
import type { SetterDraft } from "./protocol";
import type { Workshop } from "./ui/workshop";
import { Sounds } from "./ui/sound";
import { throttled } from "./game/throttle";

const NAME_KEY = "arena.name";
const TOKEN_KEY = "arena.token";
const ROOM_KEY = "arena.room";
const THEME_KEY = "arena.theme";
const CLEAR_MARKS_KEY = "arena.clearMarks";
const SOUND_KEY = "arena.sound";
const PALETTE_KEY = "arena.palette";

/** localStorage that tolerates being unavailable (private windows, quotas). */
const storage = {
  get(key: string): string | null {
    try {
      return localStorage.getItem(key);
    } catch {
      return null;
    }
  },
  set(key: string, value: string | null) {
    try {
      if (value === null) localStorage.removeItem(key);
      else localStorage.setItem(key, value);
    } catch {
      // Nothing to keep then; the game goes on.
    }
  },
};

const marks: MarkStore = {
  load(key) {
    try {
      const saved = JSON.parse(storage.get(`arena.marks.${key}`) ?? "null") as SavedMarks | null;
      return saved && Array.isArray(saved.corner) && Array.isArray(saved.centre) ? saved : null;
    } catch {
      return null;
    }
  },
  save(key, value) {
    storage.set(`arena.marks.${key}`, JSON.stringify(value));
  },
};

/** Which screen is up; "loading" while the game's module is still on its way. */
type ScreenKind = "name" | "home" | "room" | "play" | "setter" | "analysis" | "review" | "tournament" | "loading";

/** The shortest time between two co-op cursor messages. */
const CURSOR_EVERY_MS = 100;

class App {
  private readonly session = new Session(marks);
  private connection?: Connection;
  private readonly bannerText = h("span", {});
  private readonly retryButton = h(
    "button",
    { type: "button", class: "small", id: "retry-now", hidden: true, onclick: () => this.connection?.open() },
    "Retry now",
  );
  private readonly banner = h(
    "div",
    { class: "banner", id: "connection-banner", role: "alert", hidden: true },
    this.bannerText,
    this.retryButton,
  );
  private readonly toast = h("div", { class: "toast", id: "toast", role: "status", "aria-live": "polite", hidden: true });
  private readonly content = h("div", { class: "content" });
  private readonly sounds = new Sounds();
  private readonly soundButton = h("button", { type: "button", class: "small", id: "sound", onclick: () => this.toggleSound() });
  private readonly paletteButton = h("button", { type: "button", class: "small", id: "palette", onclick: () => this.togglePalette() });
  private kind?: ScreenKind;
  private home?: HomeScreen;
  private roomScreen?: RoomScreen;
  private play?: PlayScreen;
  /** The setter and the analysis, once a player opened one (loaded then). */
  private workshop?: Workshop;
  private workshopLoading?: Promise<Workshop>;
  private toastTimer?: ReturnType<typeof setTimeout>;
  private leftRoom?: string;
  /** Whether this page has reached the server yet (if not, a failure reads as offline). */
  private reached = false;
  /** Why the connection was lost, for the banner. */
  private linkDetail?: string;
  /** Co-op: my cursor for teammates, at most ten times a second (a fast click or a drag
   * would otherwise spend the connection's rate limit, which moves share). */
  private readonly sendCursor = throttled(() => this.send(this.session.cursorMessage()), CURSOR_EVERY_MS);

  /** What a newcomer typed in the page's own welcome form before this script ran. */
  private earlyName?: { typed: string; sent: boolean };

  constructor(root: HTMLElement) {
    const early = root.querySelector("#name-form");
    const typed = root.querySelector("input#name");
    if (early instanceof HTMLFormElement && typed instanceof HTMLInputElement) {
      this.earlyName = { typed: typed.value, sent: early.dataset.sent === "1" };
    }
    this.session.clearMarks = storage.get(CLEAR_MARKS_KEY) !== "off";
    this.sounds.enabled = storage.get(SOUND_KEY) === "on";
    this.showSound();
    useSafeColours(storage.get(PALETTE_KEY) === "safe");
    this.showPalette();
    const theme = storage.get(THEME_KEY);
    if (theme) document.documentElement.dataset.theme = theme;
    // One listener for the life of the page (a game screen is made per game).
    window.addEventListener("resize", () => this.play?.fitToScreen());
    replace(
      root,
      h(
        "header",
        { class: "top" },
        h("h1", {}, "Sudoku Arena"),
        h(
          "div",
          { class: "row" },
          this.soundButton,
          this.paletteButton,
          h("button", { type: "button", class: "small", id: "theme", "aria-label": "Switch light or dark mode", onclick: () => this.toggleTheme() }, "◐"),
        ),
      ),
      this.banner,
      this.toast,
      this.content,
    );
    const draft = draftFromHash(location.hash);
    if (draft) {
      // A shared draft opens the setter with it.
      history.replaceState(null, "", location.pathname);
      this.openSetter(draft);
    }
    const review = reviewFromHash(location.hash);
    if (review) this.openReview(review);
    const tournament = tournamentFromHash(location.hash);
    if (tournament) this.openTournament(tournament);
    const shared = puzzleFromHash(location.hash);
    if (shared !== undefined) {
      // A shared puzzle opens the lobby with it filled in (the fragment is not a room).
      this.session.sharedPuzzle = shared;
      history.replaceState(null, "", location.pathname);
    }
    this.session.pendingRoom = (shared === undefined && !review && !tournament && location.hash.slice(1)) || storage.get(ROOM_KEY) || undefined;
    window.addEventListener("hashchange", () => {
      const shared = draftFromHash(location.hash);
      if (shared) {
        // A setter link opened in a page already here: the setter, on that draft.
        history.replaceState(null, "", location.pathname);
        this.openSetter(shared);
        return;
      }
      const puzzle = puzzleFromHash(location.hash);
      if (puzzle !== undefined) {
        this.session.sharedPuzzle = puzzle;
        this.render();
        return;
      }
      const review = reviewFromHash(location.hash);
      if (review) return this.openReview(review);
      const tournament = tournamentFromHash(location.hash);
      if (tournament) return this.openTournament(tournament);
      const code = location.hash.slice(1);
      if (code && code !== this.session.room?.code) this.send(this.session.joinLink(code));
    });
    document.addEventListener("keydown", (e) => this.onKey(e));
    window.addEventListener("offline", () => this.showBanner());
    window.addEventListener("online", () => {
      // Back online: try at once rather than at the next backoff step.
      if (this.connection?.status === "offline") this.connection.open();
      this.showBanner();
    });
    setInterval(() => {
      this.roomScreen?.tick();
      this.play?.tick();
      this.workshop?.tick();
      if (this.kind === "home") this.home?.update();
      this.playCues();
      if (this.connection?.status === "offline" && this.connection.retryAt !== undefined) this.showBanner();
    }, 250);
    setInterval(() => {
      if (this.kind === "home") this.send([this.session.listRooms(), { type: "list_tournaments" }]);
    }, 5000);
    const name = storage.get(NAME_KEY);
    if (name) this.connect(name);
    this.render();
  }

  private connect(name: string) {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    this.connection = new Connection(
      `${scheme}//${location.host}/ws`,
      () => storage.get(NAME_KEY) ?? name,
      { get: () => storage.get(TOKEN_KEY), set: (t) => storage.set(TOKEN_KEY, t) },
      (m) => this.onMessage(m),
      (status, detail) => this.onStatus(status, detail),
    );
    this.connection.open();
  }

  private onStatus(status: LinkStatus, detail?: string) {
    this.linkDetail = detail;
    if (status === "online") this.reached = true;
    // Typing on a board another tab plays would go nowhere: it takes no input.
    this.session.displaced = this.connection?.displaced ?? false;
    this.showBanner();
    this.render();
  }

  /** The connection banner: what went wrong, a countdown to the next try, "Retry now"
   * (the button stays the same element, so a click is never lost to a redraw). */
  private showBanner() {
    const connection = this.connection;
    const status = connection?.status ?? "connecting";
    this.banner.hidden = status === "online";
    const retryAt = status === "offline" ? connection?.retryAt : undefined;
    this.retryButton.hidden = retryAt === undefined;
    const seconds = retryAt === undefined ? undefined : Math.max(0, Math.ceil((retryAt - Date.now()) / 1000));
    const kept = this.session.unsentCount();
    const waiting = kept > 0 ? ` ${kept} change${kept === 1 ? "" : "s"} will be sent when it is back.` : "";
    if (status !== "online" && (!navigator.onLine || (status === "offline" && !this.reached))) {
      // The page itself came from the offline shell (or the network dropped).
      const countdown = seconds === undefined ? "" : ` (next try in ${seconds} s)`;
      this.bannerText.textContent = `You are offline, or the server cannot be reached: Sudoku Arena connects when it can${countdown}.${waiting}`;
    } else if (status === "connecting") this.bannerText.textContent = "Connecting to the server…";
    else if (status === "offline") {
      const countdown = seconds === undefined ? "" : `; retrying in ${seconds} s`;
      this.bannerText.textContent = `Connection lost: ${this.linkDetail ?? ""}${countdown}.${waiting}`;
    }
  }

  private onMessage(m: ServerMessage) {
    if (m.type === "room" && m.room.code === this.leftRoom) return;
    if (m.type === "error" && !this.session.me) {
      // Refused before `welcome`: say so instead of "Connecting…" forever.
      this.banner.hidden = false;
      this.retryButton.hidden = true;
      this.bannerText.textContent = `The server refused this page: ${m.message}`;
      if (m.code === "invalid") {
        // The saved name is not acceptable: ask for another one.
        storage.set(NAME_KEY, null);
        storage.set(TOKEN_KEY, null);
      }
    }
    this.workshop?.onMessage(m);
    const replies = this.session.handle(m);
    const notice = this.session.takeNotice();
    if (notice) this.showToast(notice);
    else if (m.type === "error") this.showToast(m.message);
    if (m.type === "room") {
      this.leftRoom = undefined;
      storage.set(ROOM_KEY, m.room.code);
      if (location.hash.slice(1) !== m.room.code) history.replaceState(null, "", `#${m.room.code}`);
    }
    if (m.type === "error" && m.code === "no_room" && !this.session.room) {
      storage.set(ROOM_KEY, null);
      history.replaceState(null, "", location.pathname);
    }
    this.send(replies);
    this.render();
    this.playCues();
  }

  /** The game screen's module (the board, its drawing, the pad): not in the
   * first page's script, fetched once the first screen is up, so the first
   * load stays small and a game still opens at once. */
  private playModule?: typeof import("./ui/play");
  private playLoading?: Promise<void>;

  private loadPlay(): Promise<void> {
    this.playLoading ??= import("./ui/play").then(
      (module) => {
        this.playModule = module;
        this.render();
      },
      () => {
        // Offline before it came: the next render asks again.
        this.playLoading = undefined;
      },
    );
    return this.playLoading;
  }

  /** The setter and the analysis, loaded the first time one is opened. */
  private loadWorkshop(): Promise<Workshop> {
    this.workshopLoading ??= import("./ui/workshop").then(({ Workshop }) => {
      this.workshop = new Workshop({ session: this.session, send: (ms) => this.send(ms), changed: () => this.render(), storage, serverNow: () => this.serverNow() });
      return this.workshop;
    });
    return this.workshopLoading;
  }

  /** Opens the setter (on a link's draft, or as it was left). */
  private openSetter(draft?: SetterDraft) {
    void this.loadWorkshop().then((w) => w.openSetter(draft));
  }

  /** Opens a tournament's standings (from the lobby, a race's results, or a shared link). */
  private openTournament(id: string) {
    void this.loadWorkshop().then((w) => w.openTournament(id));
  }

  /** Opens a race's review (from the results, or a shared link). */
  private openReview(id: string) {
    void this.loadWorkshop().then((w) => w.openReview(id));
  }

  /** Asks for the analysis of the room's puzzle (once my game there is over). */
  private analyseRoom() {
    void this.loadWorkshop().then((w) => w.analyseRoom());
  }

  /** Plays (or, with sound off, drops) the session's sound cues. */
  private playCues() {
    for (const cue of this.session.cues.splice(0)) this.sounds.play(cue);
  }

  /** Sound on or off (off by default), remembered in this browser. */
  private toggleSound() {
    this.sounds.enabled = !this.sounds.enabled;
    storage.set(SOUND_KEY, this.sounds.enabled ? "on" : null);
    this.showSound();
  }

  /** Player colours from the colour-blind-safe set, or the wheel (remembered here). */
  private togglePalette() {
    useSafeColours(!safeColours());
    storage.set(PALETTE_KEY, safeColours() ? "safe" : null);
    this.showPalette();
    this.render();
  }

  private showPalette() {
    this.paletteButton.textContent = safeColours() ? "Colours: colour-blind safe" : "Colours: standard";
    this.paletteButton.setAttribute("aria-pressed", String(safeColours()));
    this.paletteButton.title = "Player colours told apart with any common colour-vision deficiency";
  }

  private showSound() {
    // Words, not an emoji: a system without an emoji font drew a box.
    this.soundButton.textContent = this.sounds.enabled ? "Sound on" : "Sound off";
    this.soundButton.setAttribute("aria-pressed", String(this.sounds.enabled));
    this.soundButton.setAttribute("aria-label", this.sounds.enabled ? "Sound on (click to mute)" : "Sound off (click to turn on)");
  }

  /** Sends what it can; a board change made offline waits for the reconnect, anything else is dropped (the snapshot brings the state back). */
  private send(messages: ClientMessage[]) {
    for (const m of messages) {
      // Asking for a room again: its snapshot is wanted, even if it is the one just left.
      if (m.type === "join_room" || m.type === "create_room") this.leftRoom = undefined;
      if (!this.connection?.send(m)) this.session.keepUnsent(m);
    }
    if (this.session.unsentCount() > 0) this.showBanner();
  }

  private leave() {
    this.leftRoom = this.session.room?.code;
    this.session.leave();
    storage.set(ROOM_KEY, null);
    history.replaceState(null, "", location.pathname);
    // Back in the lobby: the streak and stats may have changed.
    this.send([{ type: "leave_room" }, profileRequest()]);
    this.render();
  }

  private rename(name: string) {
    if (name.length < 1 || name.length > 24) {
      this.showToast("A name is 1 to 24 characters.");
      return;
    }
    const changed = storage.get(NAME_KEY) !== name;
    storage.set(NAME_KEY, name);
    if (!this.connection) {
      this.connect(name);
    } else if (changed) {
      // A token resumes the old identity and name: start a new one.
      storage.set(TOKEN_KEY, null);
      location.reload();
    }
    this.render();
  }

  private showToast(text: string) {
    this.toast.textContent = text;
    this.toast.hidden = false;
    clearTimeout(this.toastTimer);
    this.toastTimer = setTimeout(() => (this.toast.hidden = true), 4000);
  }

  private toggleTheme() {
    const dark = document.documentElement.dataset.theme
      ? document.documentElement.dataset.theme === "dark"
      : matchMedia("(prefers-color-scheme: dark)").matches;
    const theme = dark ? "light" : "dark";
    document.documentElement.dataset.theme = theme;
    storage.set(THEME_KEY, theme);
  }

  private onKey(e: KeyboardEvent) {
    const typing = e.target as HTMLElement | null;
    const inField = typing && (typing.tagName === "INPUT" || typing.tagName === "TEXTAREA" || typing.tagName === "SELECT");
    if ((this.kind === "setter" || this.kind === "analysis" || this.kind === "review" || this.kind === "tournament") && !inField && this.workshop?.key(e)) {
      e.preventDefault();
      return;
    }
    if (this.kind !== "play") return;
    const target = e.target as HTMLElement | null;
    if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.tagName === "SELECT")) return;
    if (target && target.tagName === "BUTTON" && (e.key === " " || e.key === "Enter")) return;
    const game = this.session.game;
    if (!game) return;
    const action = keyAction(e, game.geometry, this.session.mode);
    if (!action) return;
    e.preventDefault();
    const s = this.session;
    switch (action.type) {
      case "move":
        if (s.room?.spectator) return;
        game.board.move(action.dr, action.dc, action.extend);
        this.sendCursor();
        break;
      case "enter":
        this.send(s.enter(action.value, action.mode));
        break;
      case "erase":
        this.send(s.erase());
        break;
      case "undo":
        this.send(s.undo());
        break;
      case "redo":
        this.send(s.redo());
        break;
      case "cycle_mode":
        s.mode = nextMode(s.mode);
        break;
      case "clear_selection":
        // Escape first closes the shortcut help, if it is open.
        if (!this.play?.closeHelp()) game.board.clearSelection();
        break;
      case "select_all":
        if (!s.room?.spectator) game.board.selectAll();
        break;
      case "help":
        this.play?.toggleHelp();
        break;
    }
    this.render();
  }

  private screenKind(): ScreenKind {
    const room = this.session.room;
    if (!storage.get(NAME_KEY)) return "name";
    const workshop = this.workshop?.screen(room);
    if (workshop) return workshop;
    if (!room) return "home";
    if (room.state === "waiting" || room.state === "countdown") return "room";
    return "play";
  }

  private render() {
    const kind = this.screenKind();
    if (kind === "play" && !this.playModule) {
      // Only if it has not come yet (it is fetched right after the first screen).
      if (this.kind !== "loading") replace(this.content, h("p", { class: "muted", id: "loading-game" }, "Loading the game…"));
      this.kind = "loading";
      void this.loadPlay();
      return;
    }
    if (kind !== this.kind) {
      this.kind = kind;
      this.home = this.roomScreen = this.play = undefined;
      this.workshop?.left();
      if (kind === "setter" || kind === "analysis" || kind === "review" || kind === "tournament") replace(this.content, this.workshop?.element(kind) ?? null);
      if (kind === "name") replace(this.content, this.nameScreen());
      if (kind === "home") {
        this.home = new HomeScreen(this.session, {
          send: (m) => this.send([m]),
          rename: (n) => this.rename(n),
          openSetter: () => this.openSetter(),
          createTournament: (m) => void this.loadWorkshop().then((w) => w.createTournament(m)),
          openTournament: (id) => this.openTournament(id),
          serverNow: () => this.serverNow(),
        });
        replace(this.content, this.home.el);
      }
      if (kind === "room") {
        this.roomScreen = new RoomScreen(this.session, (m) => this.send([m]), () => this.serverNow());
        replace(this.content, this.roomScreen.el);
      }
      if (kind === "play" && this.playModule) {
        this.play = new this.playModule.PlayScreen(this.session, {
          send: (ms) => this.send(ms),
          changed: () => this.render(),
          leave: () => this.leave(),
          serverNow: () => this.serverNow(),
          cursorMoved: () => this.sendCursor(),
          analyse: () => this.analyseRoom(),
          review: (id) => this.openReview(id),
          tournament: (id) => this.openTournament(id),
          setClearMarks: (on) => {
            this.session.clearMarks = on;
            storage.set(CLEAR_MARKS_KEY, on ? null : "off");
            this.render();
          },
        });
        replace(this.content, this.play.el);
      }
      // A new screen starts at its top (the lobby may have been scrolled down
      // to its form: the game's title, clock and buttons would be off-screen).
      window.scrollTo(0, 0);
      // The game's module, once the first screen is drawn.
      if (!this.playLoading) setTimeout(() => void this.loadPlay(), 0);
    }
    this.home?.update();
    this.workshop?.update();
    this.roomScreen?.update();
    this.play?.update();
    if (kind === "play" && (document.activeElement === document.body || document.activeElement === null)) {
      this.play?.focusBoard();
    }
  }

  private serverNow(): number {
    return this.connection?.serverNow() ?? Date.now();
  }

  /** The welcome screen, from index.html's template (the page shows the same
   * before this script arrives); a name typed there early is kept, and sent if
   * Play was pressed. */
  private nameScreen(): HTMLElement {
    const template = document.getElementById("welcome");
    const screen = template instanceof HTMLTemplateElement ? template.content.firstElementChild?.cloneNode(true) : null;
    if (!(screen instanceof HTMLElement)) throw new Error("index.html has no welcome template");
    const form = screen.querySelector("form");
    const input = screen.querySelector("input");
    if (!form || !input) throw new Error("the welcome template has no name form");
    form.removeAttribute("onsubmit");
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      this.rename(input.value.trim());
    });
    const early = this.earlyName;
    this.earlyName = undefined;
    if (early) {
      input.value = early.typed;
      if (early.sent && early.typed.trim()) queueMicrotask(() => this.rename(early.typed.trim()));
    }
    return screen;
  }
}

const root = document.getElementById("app");
if (root) new App(root);

// The offline shell (public/sw.js): the page opens without the network and says so.
if ("serviceWorker" in navigator && window.isSecureContext) {
  navigator.serviceWorker.register("/sw.js").catch(() => undefined);
}
