// The client's picture of the server: who I am, the lobby, the room I am in and
// the game on my board. `handle` folds each server message in; the action
// methods change local state and return the messages to send. No DOM, no
// socket: the page wires this to both, and unit tests drive it directly.

import type {
  ClientMessage,
  Contribution,
  Hint,
  Manifest,
  ParamValue,
  PlayerView,
  Rank,
  RatingChange,
  RoomSettings,
  RoomSummary,
  RoomView,
  ServerMessage,
  TournamentSummary,
  TournamentView,
} from "../protocol";
import { Board, type Change, type EntryMode } from "./board";
import { conflicts, peersOf } from "./conflicts";
import { initialsIn } from "./colours";
import { coordOf, geometryOf, type Cell, type Geometry } from "./geometry";
import { Ledger } from "./ledger";
import { livePlaces, ordinal } from "./race";
import { clock } from "./time";
import type { BoardPaint } from "./render";

/** A chat line. */
export interface ChatLine {
  from: string;
  name: string;
  text: string;
  at: number;
}

/** The end of a game. */
export interface Results {
  ranks: Rank[];
  teamMs: number | null;
  contributions: Contribution[];
  /** A rated race: each rated racer's rating before and after (comes just after the ranks). */
  ratings?: RatingChange[];
  /** A race: its review's id, once it is ready (comes just after the ranks). */
  review?: string;
}

/** A board's own notes, kept in the browser: pencil marks and (when set) colours. */
export interface SavedMarks {
  corner: number[];
  centre: number[];
  colour?: number[];
}

/** Where per-room pencil marks are kept between page loads (race and solo marks are never sent). */
export interface MarkStore {
  load(key: string): SavedMarks | null;
  save(key: string, marks: SavedMarks): void;
}

/** The game on screen: the puzzle's geometry and my board (or the team's). */
export class Game {
  readonly geometry: Geometry;
  readonly board: Board;
  /** Digits the server said are wrong (penalty and lives rooms). */
  readonly wrong = new Set<Cell>();
  /** The last hint, while it applies. */
  hint?: Hint;
  /** How much of the hint shows: 1 = the technique and where to look, 2 = the whole step. */
  hintStage: 1 | 2 = 1;
  /** Co-op: teammates' cursors by player id. */
  readonly cursors = new Map<string, Cell>();
  /** Spectators: every player's board, by id. */
  readonly boards = new Map<string, number[]>();
  /** Spectators: whose board is shown. */
  watching?: string;
  /** Co-op: the last applied sequence number. */
  seq = 0;
  /** Co-op: who put each value (player id, "" for none), as the server has it. */
  authors: string[] = [];
  /** The key of the marks in the MarkStore. */
  readonly marksKey: string;
  /** The server's state of my board and my unanswered changes. */
  readonly ledger: Ledger;

  constructor(readonly room: RoomView) {
    if (!room.puzzle) throw new Error("the room has no puzzle yet");
    this.geometry = geometryOf(room.puzzle);
    this.board = new Board(this.geometry, room.board ? flatten(room.board, this.geometry) : undefined);
    this.marksKey = marksKeyOf(room);
    this.ledger = new Ledger(this.board.values, this.board.corner);
  }

  /** Shows `cell` as the server has it (its value; in co-op its shared corner marks too). */
  showServer(cell: Cell, coop: boolean) {
    this.board.apply(cell, coop ? { value: this.ledger.values[cell], corner: this.ledger.corner[cell] } : { value: this.ledger.values[cell] });
  }

  /** An answer about `cell`: once no change of mine is on its way there, it shows what the server has. */
  settle(cell: Cell, coop: boolean) {
    if (this.ledger.settle(cell)) this.showServer(cell, coop);
  }
}

/** Where a room's current puzzle keeps its marks: the room code and the givens. */
export function marksKeyOf(room: RoomView): string {
  return `${room.code}:${room.puzzle?.grid.flat().join("") ?? ""}`;
}

/** Flattens a rows x cols grid into one entry per layout cell (`blank` where the grid has none). */
export function flatten<T = number>(grid: T[][], g: Pick<Geometry, "rows" | "cols">, blank: T = 0 as T): T[] {
  const out = new Array<T>(g.rows * g.cols).fill(blank);
  grid.forEach((row, r) => row.forEach((v, c) => r < g.rows && c < g.cols && (out[r * g.cols + c] = v)));
  return out;
}

/** The cells a `move` or `pencil` changes; none for any other message. */
function changedCells(m: ClientMessage, cols: number): Cell[] {
  if (m.type === "move") return [m.row * cols + m.col];
  if (m.type === "pencil") return m.cells.map((c) => c.row * cols + c.col);
  return [];
}

/** A sound for an event: a countdown second, an opponent's finish, my own finish. */
export type Cue = "tick" | "go" | "finish" | "win";

/** Refusals this close together are announced as one. */
const REFUSALS_TOLD_TOGETHER_MS = 4000;

/** How a cell is named to players: r1c1 is the top-left cell. */
export function cellName([row, col]: readonly number[]): string {
  return `r${row + 1}c${col + 1}`;
}

/** Whether a message changes the board (and so waits for the connection instead of being dropped). */
export function isBoardChange(m: ClientMessage): boolean {
  return m.type === "move" || m.type === "pencil";
}

/** The filter and page of the lobby's public rooms (`list_rooms` without its tag). */
export type RoomQuery = Omit<Extract<ClientMessage, { type: "list_rooms" }>, "type">;

/** Everything the client knows, updated by server messages and the player's actions. */
export class Session {
  me?: { id: string; name: string };
  variants: Manifest[] = [];
  rooms: RoomSummary[] = [];
  /** Public rooms matching the lobby's filter in all (the list shows one page). */
  roomsTotal = 0;
  /** Where the page shown starts among them. */
  roomsOffset = 0;
  /** What the lobby lists: a page, one variant's rooms or all, free seats only or all. */
  roomQuery: RoomQuery = { offset: 0, variant: null, joinable: false };
  room?: RoomView;
  game?: Game;
  results?: Results;
  /** The last daily leaderboard the server sent for the game in play. */
  leaderboard?: Extract<ServerMessage, { type: "leaderboard" }>;
  /** The last leaderboard asked for from the lobby. */
  browsedBoard?: Extract<ServerMessage, { type: "leaderboard" }>;
  /** The last race ratings board asked for from the lobby (instead of a leaderboard). */
  browsedRatings?: Extract<ServerMessage, { type: "ratings" }>;
  /** My streak and stats. */
  profile?: Extract<ServerMessage, { type: "profile" }>;
  /** The arena tournaments the lobby lists. */
  tournaments: TournamentSummary[] = [];
  /** The tournament I watch (its standings come at every change). */
  tournament?: TournamentView;
  /** The sync code I asked for, to enter on another device. */
  syncCode?: { code: string; minutes: number };
  chat: ChatLine[] = [];
  /** The last error the server sent, for a toast. */
  error?: { code: string; message: string };
  /** A `create_room` sent and not yet answered: the puzzle is being made. */
  creatingRoom = false;
  /** Why the last room asked for could not be made (shown beside the form). */
  createFailed?: string;
  /** Entry mode of the input-mode switch. */
  mode: EntryMode = "value";
  /** Whether digits the server marked wrong are shown (penalty and lives rooms only). */
  errorCheck = true;
  /** Whether placing a digit removes it from the pencil marks of the cells that see it. */
  clearMarks = true;
  /** A room code to join once welcomed (from the link or a previous visit). */
  pendingRoom?: string;
  /** What a `redirect` said to ask on the node it sends us to (a quick race there), once welcomed. */
  pendingAsk?: ClientMessage;
  /** Another tab or window took this game over: this page plays no more. */
  displaced = false;
  /** Where players open this server (`--site-url`), if the server says. */
  siteUrl?: string;
  /** The pending room was refused as a seat and is being joined to watch. */
  pendingWatch = false;
  /** A puzzle someone shared as a link, for the lobby's puzzle box. */
  sharedPuzzle?: string;
  /** Something the player should be told (a change put back, moves sent after a reconnect). */
  notice?: string;
  /** Sounds the page should play (if the player turned sound on), oldest first. */
  cues: Cue[] = [];
  /** Board changes made while the connection was down, sent in order once the room's snapshot is back. */
  private unsent: ClientMessage[] = [];
  /** The cells put back lately, named, and when the last was. */
  private refusals?: { cells: string[]; at: number };

  constructor(private readonly marks?: MarkStore) {}

  /** Asks for a new room: the form shows progress until the room or an error comes. */
  createRoom(settings: RoomSettings): ClientMessage[] {
    return this.askForRoom({ type: "create_room", settings });
  }

  /** Races in tournament `id`: its open race, or a new one (answered like a new room). */
  tournamentRace(id: string): ClientMessage[] {
    return this.askForRoom({ type: "tournament_race", id });
  }

  /** Joins the open quick race of a kind, or opens one (answered like a new room). */
  quickRace(variant: string, params: Record<string, ParamValue>, difficulty: string): ClientMessage[] {
    return this.askForRoom({ type: "quick_race", variant, params, difficulty });
  }

  /** A request answered by a new room: until it comes (or fails), another waits. */
  private askForRoom(m: ClientMessage): ClientMessage[] {
    this.creatingRoom = true;
    this.createFailed = undefined;
    return [m];
  }

  /**
   * The address links to this server start with: the server's `--site-url`,
   * else the page's own (`here`, the origin and path the browser shows).
   */
  siteBase(here: string): string {
    if (!this.siteUrl) return here;
    return this.siteUrl.endsWith("/") ? this.siteUrl : `${this.siteUrl}/`;
  }

  /** Joins the room a link names: as a player, or to watch if its game is under way. */
  joinLink(code: string): ClientMessage[] {
    this.pendingRoom = code;
    this.pendingWatch = false;
    return [{ type: "join_room", code, spectator: false }];
  }

  /** The `list_rooms` request for the lobby's current filter and page. */
  listRooms(): ClientMessage {
    return { type: "list_rooms", ...this.roomQuery };
  }

  /** Folds one server message into the state. */
  handle(m: ServerMessage): ClientMessage[] {
    switch (m.type) {
      case "welcome": {
        this.me = { id: m.player_id, name: m.name };
        this.siteUrl = m.site_url ?? undefined;
        // A room asked for on an old connection will never be answered (but
        // one a redirect said to ask for here is asked for again).
        this.creatingRoom = this.pendingAsk !== undefined;
        // A new connection: requests sent on the old one will never be answered.
        this.game?.ledger.orphan();
        const out: ClientMessage[] = [{ type: "list_variants" }, this.listRooms(), profileRequest(), { type: "list_tournaments" }];
        // Standings watched on the old connection come again on this one.
        if (this.tournament) out.push({ type: "watch_tournament", id: this.tournament.id });
        const code = this.pendingRoom ?? this.room?.code;
        if (this.pendingAsk) out.push(this.pendingAsk);
        else if (code) out.push({ type: "join_room", code, spectator: this.room?.spectator ?? false });
        this.pendingAsk = undefined;
        return out;
      }
      case "redirect":
        // The room lives on another node: the connection moves there and joins
        // it after `welcome` (or asks there what the redirect says: a quick race).
        if (m.ask) this.pendingAsk = m.ask;
        else this.pendingRoom = m.code;
        return [];
      case "variants":
        this.variants = m.variants;
        return [];
      case "rooms":
        this.rooms = m.rooms;
        this.roomsTotal = Math.max(m.total, m.rooms.length);
        this.roomsOffset = m.offset;
        return [];
      case "room":
        this.creatingRoom = false;
        this.createFailed = undefined;
        return this.onRoom(m.room);
      case "error":
        this.error = { code: m.code, message: m.message };
        if (this.creatingRoom) {
          this.creatingRoom = false;
          this.createFailed = m.message;
        }
        if (m.cells.length > 0) this.putBack(m.cells, m.message);
        if (m.code === "no_room" && this.pendingRoom) {
          this.pendingRoom = undefined;
          this.leave();
        }
        if (m.code === "closed" && this.pendingRoom && !this.pendingWatch) {
          // The link's game has started (or is full), or this page was watching
          // it before a reload: watch it rather than bounce to the lobby.
          this.pendingWatch = true;
          return [{ type: "join_room", code: this.pendingRoom, spectator: true }];
        }
        return [];
      case "move_accepted": {
        const game = this.game;
        if (!game) return [];
        const cell = m.row * game.geometry.cols + m.col;
        if (m.correct === false) game.wrong.add(cell);
        else game.wrong.delete(cell);
        game.ledger.values[cell] = m.value;
        game.settle(cell, false);
        return [];
      }
      case "progress":
        this.onProgress(m.player);
        return [];
      case "cell_changed": {
        const game = this.game;
        const board = game?.boards.get(m.player);
        if (game && board) board[m.row * game.geometry.cols + m.col] = m.value;
        return [];
      }
      case "coop_event": {
        const game = this.game;
        if (!game) return [];
        game.seq = Math.max(game.seq, m.seq);
        const mine = m.player === this.me?.id;
        const cols = game.geometry.cols;
        // The server's order is the truth; a cell with a change of mine on its
        // way keeps showing mine (it comes later, or is refused and put back).
        const confirm = (cell: Cell) => {
          if (mine) game.settle(cell, true);
          else if (!game.ledger.pending(cell)) game.showServer(cell, true);
        };
        if (m.change.type === "value") {
          const cell = m.change.row * cols + m.change.col;
          game.ledger.values[cell] = m.change.value;
          game.authors[cell] = m.change.value === 0 ? "" : m.player;
          confirm(cell);
        } else {
          for (const { row, col, marks } of m.change.cells) {
            const cell = row * cols + col;
            game.ledger.corner[cell] = marks;
            confirm(cell);
          }
        }
        return [];
      }
      case "cursor": {
        const game = this.game;
        if (game && m.player !== this.me?.id) game.cursors.set(m.player, m.row * game.geometry.cols + m.col);
        return [];
      }
      case "hint":
        if (this.game) {
          this.game.hint = m.hint;
          this.game.hintStage = 1;
        }
        return [];
      case "chat":
        this.chat.push({ from: m.from, name: m.name, text: m.text, at: m.at });
        if (this.chat.length > 200) this.chat.splice(0, this.chat.length - 200);
        return [];
      case "finished": {
        this.results = { ranks: m.ranks, teamMs: m.team_ms, contributions: m.contributions };
        // A daily game: ask for the day's board, which now holds this game.
        const settings = this.room?.settings;
        if (!settings?.daily) return [];
        return [{ type: "leaderboard", board: "daily", variant: settings.variant, params: settings.params, difficulty: settings.difficulty, date: settings.daily }];
      }
      case "rated":
        if (this.results) this.results.ratings = m.changes;
        return [];
      case "tournaments":
        this.tournaments = m.tournaments;
        return [];
      case "tournament":
        this.tournament = m.tournament;
        return [];
      case "review_ready":
        if (this.results) this.results.review = m.id;
        return [];
      case "leaderboard":
        if (m.board === "daily" && this.room?.settings.daily) this.leaderboard = m;
        else {
          this.browsedBoard = m;
          this.browsedRatings = undefined;
        }
        return [];
      case "ratings":
        this.browsedRatings = m;
        this.browsedBoard = undefined;
        return [];
      case "profile":
        this.profile = m;
        return [];
      case "sync_code":
        this.syncCode = { code: m.code, minutes: Math.round(m.expires_in_ms / 60000) };
        return [];
      case "candidates_filled":
        this.fillCandidatesNow();
        return [];
      case "pong":
        return [];
      default:
        // A newer server's message: ignored, not fatal.
        console.warn("ignoring an unknown server message", (m as { type?: unknown }).type);
        return [];
    }
  }

  /**
   * A refused change: its cells go back to what the server has, and the player
   * is told which (refusals within a few seconds of each other are told together).
   */
  private putBack(cells: number[][], why: string, now = Date.now()) {
    const game = this.game;
    if (!game) return;
    const coop = this.room?.settings.mode === "coop";
    for (const [row, col] of cells) game.settle(row * game.geometry.cols + col, coop);
    const recent = this.refusals && now - this.refusals.at < REFUSALS_TOLD_TOGETHER_MS ? this.refusals.cells : [];
    const all = [...new Set([...recent, ...cells.map(cellName)])];
    this.refusals = { cells: all, at: now };
    const names = all.slice(0, 3).join(", ") + (all.length > 3 ? ` and ${all.length - 3} more` : "");
    this.notice = `Not saved, put back (${names}): ${why}`;
  }

  /** Keeps a board change the connection could not send, for after the reconnect (not in flight meanwhile). */
  keepUnsent(m: ClientMessage) {
    const game = this.game;
    if (!isBoardChange(m) || !game) return;
    this.unsent.push(m);
    for (const c of changedCells(m, game.geometry.cols)) game.ledger.settle(c);
  }

  /** Changes waiting for the connection. */
  unsentCount(): number {
    return this.unsent.length;
  }

  /** The notice to show, once. */
  takeNotice(): string | undefined {
    const notice = this.notice;
    this.notice = undefined;
    return notice;
  }

  /** My rating change in the race just finished, as a sentence (undefined when unrated). */
  ratingNote(): string | undefined {
    const mine = this.results?.ratings?.find((c) => c.player === this.me?.id);
    if (!mine) return undefined;
    const moved = mine.after - mine.before;
    const sign = moved > 0 ? "+" : moved < 0 ? "−" : "±";
    return `Rating ${mine.before} → ${mine.after} (${sign}${Math.abs(moved)})${mine.provisional ? ", provisional" : ""}.`;
  }

  /** Forgets the room (the page goes back to the lobby). */
  leave() {
    this.unsent = [];
    this.room = undefined;
    this.game = undefined;
    this.results = undefined;
    this.leaderboard = undefined;
    this.chat = [];
  }

  /** A snapshot; returns the changes made offline, now sent (in order) on top of it. */
  private onRoom(room: RoomView): ClientMessage[] {
    const sameRoom = this.room?.code === room.code;
    if (!sameRoom) {
      this.chat = [];
      this.results = undefined;
      this.unsent = [];
    }
    this.pendingRoom = undefined;
    this.pendingWatch = false;
    this.room = room;
    // A new game (a solo "New puzzle" starts straight away) has no results yet.
    const newPuzzle = !!room.puzzle && !!this.game && this.game.marksKey !== marksKeyOf(room);
    if (room.state === "waiting" || room.state === "countdown" || newPuzzle) this.results = undefined;
    if (!room.puzzle) {
      // Not started, or paused (a paused board is hidden): keep local marks.
      if (room.state !== "playing") this.game = undefined;
      return [];
    }
    let game = this.game;
    // The game on screen again (a resume, a reconnect), or a new one.
    const isSnapshot = !!game && game.marksKey === marksKeyOf(room);
    if (!game || !isSnapshot) {
      game = new Game(room);
      const geometry = game.geometry;
      game.board.clearMarksIn = (cell) => (this.clearMarks ? peersOf(geometry, cell) : []);
      const saved = this.marks?.load(game.marksKey);
      if (saved && saved.corner.length === game.board.corner.length) {
        game.board.corner = saved.corner;
        game.board.centre = saved.centre;
        if (saved.colour?.length === game.board.colour.length) game.board.colour = saved.colour;
      }
      this.game = game;
    }
    const values = room.board ? flatten(room.board, game.geometry) : undefined;
    if (values && isSnapshot) {
      // A snapshot (resume, reconnect): the server's board is the truth. A change
      // that was on its way when the connection dropped and is not in it was lost.
      const lost = game.geometry.cells.filter((c) => game?.ledger.lost(c) && game.board.values[c] !== values[c]).length;
      if (lost > 0) this.notice = `${lost} change${lost === 1 ? " was" : "s were"} not saved before the connection dropped; the board shows what the server has.`;
      // A cell with a request of this connection on its way keeps showing it.
      for (const c of game.geometry.cells) if (!game.ledger.pending(c)) game.board.apply(c, { value: values[c] });
    }
    const marks = room.pencil && room.settings.mode === "coop" ? flatten(room.pencil, game.geometry) : undefined;
    if (marks) for (const c of game.geometry.cells) if (!game.ledger.pending(c)) game.board.apply(c, { corner: marks[c] });
    if (room.authors) game.authors = flatten(room.authors, game.geometry, "");
    game.ledger.reset(values ?? game.board.values, marks ?? game.board.corner);
    game.seq = room.seq;
    if (room.spectator) {
      game.boards.clear();
      for (const b of room.boards) game.boards.set(b.player, flatten(b.board, game.geometry));
      // A racer's board may be hidden (until they finish), not the racer.
      if (!game.watching || !room.players.some((p) => p.id === game.watching)) {
        game.watching = room.boards[0]?.player ?? room.players[0]?.id;
      }
    }
    return this.replayUnsent();
  }

  /** The changes made offline, drawn again on the fresh board and sent; the server's verdicts follow. */
  private replayUnsent(): ClientMessage[] {
    const game = this.game;
    if (!game || this.unsent.length === 0 || !this.canPlay()) return [];
    const out = this.unsent.splice(0);
    const cols = game.geometry.cols;
    for (const m of out) {
      if (m.type === "move") game.board.apply(m.row * cols + m.col, { value: m.value });
      else if (m.type === "pencil") for (const { row, col, marks } of m.cells) game.board.apply(row * cols + col, { corner: marks });
      game.ledger.sent(changedCells(m, cols));
    }
    this.notice = `Sent ${out.length} change${out.length === 1 ? "" : "s"} made while offline.`;
    return out;
  }

  private onProgress(player: PlayerView) {
    const room = this.room;
    if (!room) return;
    const i = room.players.findIndex((p) => p.id === player.id);
    const justFinished = i >= 0 && room.players[i].finished_ms === null && player.finished_ms !== null;
    if (i >= 0) room.players[i] = player;
    else room.players.push(player);
    if (justFinished && room.settings.mode === "race") {
      // Announced (and, with sound on, heard) as it happens.
      const place = livePlaces(room.players).get(player.id) ?? 0;
      const mine = player.id === this.me?.id;
      this.notice = `${mine ? "You" : player.name} finished ${ordinal(place)} in ${clock(player.finished_ms ?? 0)}!`;
      this.cues.push(mine ? "win" : "finish");
    }
  }

  /** My own entry in the room's player list. */
  myPlayer(): PlayerView | undefined {
    return this.room?.players.find((p) => p.id === this.me?.id);
  }

  /**
   * What my time carries so far, ms: each hint (co-op: the team's hints) and,
   * under the penalty policy, each wrong digit, as the server will add them.
   */
  livePenaltyMs(): number {
    const room = this.room;
    const mine = this.myPlayer();
    if (!room || !mine) return 0;
    const hintSeconds = room.settings.hints.type === "penalty" ? room.settings.hints.seconds : 0;
    const hints = room.settings.mode === "coop" ? room.players.reduce((n, p) => n + p.hints, 0) : mine.hints;
    const policy = room.settings.mistakes;
    const mistakeSeconds = policy.type === "penalty" ? policy.seconds : 0;
    return (hints * hintSeconds + mine.mistakes * mistakeSeconds) * 1000;
  }

  /** What leaving now would cost, if anything: a running solo game ends, a race is forfeited. */
  leaveWarning(): string | undefined {
    const room = this.room;
    const mine = this.myPlayer();
    if (!room || room.spectator || room.state !== "playing" || !mine || mine.finished_ms !== null || mine.out) return undefined;
    if (room.settings.mode === "solo") return "Leaving ends this game: it cannot be resumed and will not count.";
    if (room.settings.mode === "race") return "Leaving forfeits the race: the others race on without you.";
    return undefined;
  }

  /** My board is full but not solved (no feedback policy tells me what is wrong). */
  fullButUnsolved(): boolean {
    const game = this.game;
    const mine = this.myPlayer();
    if (!game || !mine || mine.finished_ms !== null || this.room?.spectator) return false;
    return game.geometry.cells.every((c) => game.board.values[c] !== 0);
  }

  /** Whether my board takes input now. */
  canPlay(): boolean {
    const room = this.room;
    const mine = this.myPlayer();
    return (
      !this.displaced &&
      !!room &&
      !!this.game &&
      room.state === "playing" &&
      !room.spectator &&
      !room.paused &&
      !!mine &&
      mine.finished_ms === null &&
      !mine.out
    );
  }

  /** Enters a value or mark in the selection; returns what to send. */
  enter(value: number, mode: EntryMode = this.mode): ClientMessage[] {
    if (!this.canPlay() || !this.game) return [];
    return this.send(this.game.board.enter(value, mode));
  }

  /**
   * Fills every empty cell's centre marks with the values its peers leave. In a
   * race it costs a hint: the server is asked, and the marks come with its yes
   * (`candidates_filled`); elsewhere at once, and nothing is sent.
   */
  fillCandidates(): ClientMessage[] {
    if (!this.canPlay()) return [];
    if (this.room?.settings.mode === "race") return [{ type: "fill_candidates" }];
    this.fillCandidatesNow();
    return [];
  }

  /** Whether filling candidates is offered: a race charges it as a hint, so it needs hints on. */
  canFillCandidates(): boolean {
    const room = this.room;
    return this.canPlay() && !!room && (room.settings.mode !== "race" || room.settings.hints.type === "penalty");
  }

  private fillCandidatesNow() {
    const game = this.game;
    if (!game) return;
    const g = game.geometry;
    const values = game.board.values;
    const all = (1 << g.size) - 1;
    const changes = game.board.fillCentre((cell) => {
      let mask = all;
      for (const p of peersOf(g, cell)) if (values[p] > 0) mask &= ~(1 << (values[p] - 1));
      return mask;
    });
    this.send(changes);
  }

  /**
   * Applies the hint on screen: its digit placed and its eliminations taken out
   * of my marks, as one undoable step sent like any other (the hint was
   * charged when it was asked for; applying it costs nothing more). The hint
   * is then done with.
   */
  applyHint(): ClientMessage[] {
    const game = this.game;
    const hint = game?.hint;
    if (!this.canPlay() || !game || !hint) return [];
    const at = ([r, c]: [number, number]) => r * game.geometry.cols + c;
    const eliminations = hint.eliminations.map(([r, c, v]) => [r * game.geometry.cols + c, v] as [Cell, number]);
    const changes = game.board.applyStep(at(hint.cell), hint.value ?? null, eliminations);
    game.hint = undefined;
    return this.send(changes);
  }

  /** Whether the hint on screen has something to apply: a digit, or candidates to remove. */
  canApplyHint(): boolean {
    const hint = this.game?.hint;
    return this.canPlay() && !!hint && (hint.value != null || hint.eliminations.length > 0);
  }

  /** Clears the selection; returns what to send. */
  erase(): ClientMessage[] {
    if (!this.canPlay() || !this.game) return [];
    return this.send(this.game.board.erase(this.mode));
  }

  /** Undo; returns what to send. */
  undo(): ClientMessage[] {
    if (!this.canPlay() || !this.game) return [];
    return this.send(this.game.board.undo());
  }

  /** Redo; returns what to send. */
  redo(): ClientMessage[] {
    if (!this.canPlay() || !this.game) return [];
    return this.send(this.game.board.redo());
  }

  /**
   * The messages for local changes: a move per changed value; in co-op, one
   * `pencil` for every corner mark changed (a whole selection is one change).
   */
  private send(changes: Change[]): ClientMessage[] {
    const game = this.game;
    if (!game) return [];
    const coop = this.room?.settings.mode === "coop";
    const out: ClientMessage[] = [];
    const marked: Cell[] = [];
    for (const { cell, before, after } of changes) {
      const [row, col] = coordOf(game.geometry, cell);
      if (before.value !== after.value) {
        out.push({ type: "move", row, col, value: after.value });
        game.ledger.sent([cell]);
        game.wrong.delete(cell);
        if (game.hint && game.hint.cell[0] === row && game.hint.cell[1] === col) game.hint = undefined;
      }
      if (coop && before.corner !== after.corner) marked.push(cell);
    }
    if (marked.length > 0) {
      const cells = marked.map((cell) => {
        const [row, col] = coordOf(game.geometry, cell);
        return { row, col, marks: game.board.corner[cell] };
      });
      out.push({ type: "pencil", cells });
      game.ledger.sent(marked);
    }
    // Only a mark or colour change is worth a write to storage (values live on the server).
    const noted = (ch: Change) => ch.before.centre !== ch.after.centre || ch.before.corner !== ch.after.corner || ch.before.colour !== ch.after.colour;
    if (changes.some(noted)) {
      this.marks?.save(game.marksKey, { corner: game.board.corner, centre: game.board.centre, colour: game.board.colour });
    }
    return out;
  }

  /**
   * A hint request. In race and solo it carries my centre marks (the candidates I
   * have written), so the hint reasons from them and points out one that leaves
   * out a cell's value; co-op hints use the team's marks, which the server has.
   */
  hintMessage(): ClientMessage[] {
    const game = this.game;
    if (!game || this.room?.settings.mode === "coop" || !game.board.centre.some((m) => m !== 0)) return [{ type: "hint" }];
    const g = game.geometry;
    const marks = Array.from({ length: g.rows }, (_, r) => Array.from({ length: g.cols }, (_, c) => game.board.centre[r * g.cols + c] ?? 0));
    return [{ type: "hint", marks }];
  }

  /** Co-op: each filled cell's author (me for a change still on its way). */
  private authored(): Array<[Cell, string]> {
    const game = this.game;
    if (!game) return [];
    const out: Array<[Cell, string]> = [];
    for (const c of game.geometry.cells) {
      if (game.geometry.givens[c] !== 0 || game.board.values[c] === 0) continue;
      const author = game.ledger.pending(c) ? this.me?.id : game.authors[c];
      if (author) out.push([c, author]);
    }
    return out;
  }

  /** Co-op: the colour of each filled cell's author. */
  private authorColours(colourOf: (player: string) => string): Map<Cell, string> {
    return new Map(this.authored().map(([c, author]) => [c, colourOf(author)]));
  }

  /** Co-op: the initials of each filled cell's author (colour is never the only sign). */
  private authorMarks(): Map<Cell, string> {
    const initials = initialsIn(this.room?.players ?? []);
    return new Map(this.authored().map(([c, author]) => [c, initials.get(author) ?? "?"]));
  }

  /** Co-op: my cursor, for teammates. */
  cursorMessage(): ClientMessage[] {
    const game = this.game;
    const cursor = game?.board.cursor;
    if (!game || cursor === undefined || this.room?.settings.mode !== "coop" || !this.canPlay()) return [];
    const [row, col] = coordOf(game.geometry, cursor);
    return [{ type: "cursor", row, col }];
  }

  /**
   * Spectators of a race see a racer's digits only once that racer is done (the
   * server's rule, so a racer cannot watch an opponent from a second identity):
   * the note that says so while the watched racer's board is hidden.
   */
  hiddenBoardNote(): string | undefined {
    const room = this.room;
    const watching = this.game?.watching;
    if (!room?.spectator || room.settings.mode !== "race" || !watching || this.game?.boards.has(watching)) return undefined;
    const name = room.players.find((p) => p.id === watching)?.name ?? "this player";
    return `Racers' digits stay hidden until they finish — ${name}'s board appears when they are done. Progress shows live.`;
  }

  /** What the board should show now. */
  paint(colourOf: (player: string) => string): BoardPaint | undefined {
    const game = this.game;
    if (!game) return undefined;
    const g = game.geometry;
    const board = game.board;
    const spectating = this.room?.spectator ?? false;
    // Co-op has one board, the team's, which spectators follow live too.
    const shared = this.room?.settings.mode === "coop";
    const watched = spectating && !shared;
    const values = watched ? (game.boards.get(game.watching ?? "") ?? g.givens) : board.values;
    const cursor = spectating ? undefined : board.cursor;
    const hint = game.hint;
    const at = ([row, col]: readonly number[]) => row * g.cols + col;
    // Stage 1 shows where to look; stage 2 also the cells the step changes.
    const hintCell = hint && game.hintStage === 2 ? at(hint.cell) : undefined;
    const hintArea = new Set(hint ? hint.cells.map(at) : []);
    if (hint && game.hintStage === 2) for (const e of hint.eliminations) hintArea.add(at(e));
    const names = new Map(this.room?.players.map((p) => [p.id, p.name]));
    return {
      values,
      corner: watched ? values.map(() => 0) : board.corner,
      colour: spectating ? values.map(() => 0) : board.colour,
      centre: spectating ? values.map(() => 0) : board.centre,
      selection: new Set(spectating ? [] : board.selection),
      cursor,
      peers: cursor === undefined ? new Set() : peersOf(g, cursor),
      highlight: cursor === undefined ? 0 : values[cursor],
      conflicts: conflicts(g, values),
      wrong: this.errorCheck && !spectating ? game.wrong : new Set(),
      hint: hintCell,
      hintArea,
      authors: this.room?.settings.mode === "coop" ? this.authorColours(colourOf) : undefined,
      authorMarks: this.room?.settings.mode === "coop" ? this.authorMarks() : undefined,
      cursors: [...game.cursors.entries()].map(([player, cell]) => ({
        cell,
        colour: colourOf(player),
        name: names.get(player) ?? "teammate",
      })),
      editable: this.canPlay(),
    };
  }
}

/** Asks for my streak and stats, my local dates being this device's. */
export function profileRequest(now = new Date()): ClientMessage {
  return { type: "profile", utc_offset_min: -now.getTimezoneOffset() };
}
