// The client's picture of the server: who I am, the lobby, the room I am in and
// the game on my board. `handle` folds each server message in; the action
// methods change local state and return the messages to send. No DOM, no
// socket: the page wires this to both, and unit tests drive it directly.

import type {
  ClientMessage,
  Contribution,
  Hint,
  Manifest,
  PlayerView,
  Rank,
  RoomSummary,
  RoomView,
  ServerMessage,
} from "../protocol";
import { Board, type Change, type EntryMode } from "./board";
import { conflicts, peersOf } from "./conflicts";
import { coordOf, geometryOf, type Cell, type Geometry } from "./geometry";
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
}

/** Where per-room pencil marks are kept between page loads (race and solo marks are never sent). */
export interface MarkStore {
  load(key: string): { corner: number[]; centre: number[] } | null;
  save(key: string, marks: { corner: number[]; centre: number[] }): void;
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
  /** The key of the marks in the MarkStore. */
  readonly marksKey: string;

  constructor(readonly room: RoomView) {
    if (!room.puzzle) throw new Error("the room has no puzzle yet");
    this.geometry = geometryOf(room.puzzle);
    this.board = new Board(this.geometry, room.board ? flatten(room.board, this.geometry) : undefined);
    this.marksKey = marksKeyOf(room);
  }
}

/** Where a room's current puzzle keeps its marks: the room code and the givens. */
export function marksKeyOf(room: RoomView): string {
  return `${room.code}:${room.puzzle?.grid.flat().join("") ?? ""}`;
}

/** Flattens a rows x cols grid into one entry per layout cell. */
export function flatten(grid: number[][], g: Pick<Geometry, "rows" | "cols">): number[] {
  const out = new Array<number>(g.rows * g.cols).fill(0);
  grid.forEach((row, r) => row.forEach((v, c) => r < g.rows && c < g.cols && (out[r * g.cols + c] = v)));
  return out;
}

/** Everything the client knows, updated by server messages and the player's actions. */
export class Session {
  me?: { id: string; name: string };
  variants: Manifest[] = [];
  rooms: RoomSummary[] = [];
  room?: RoomView;
  game?: Game;
  results?: Results;
  /** The last daily leaderboard the server sent for the game in play. */
  leaderboard?: Extract<ServerMessage, { type: "leaderboard" }>;
  /** The last leaderboard asked for from the lobby. */
  browsedBoard?: Extract<ServerMessage, { type: "leaderboard" }>;
  /** My streak and stats. */
  profile?: Extract<ServerMessage, { type: "profile" }>;
  /** The sync code I asked for, to enter on another device. */
  syncCode?: { code: string; minutes: number };
  chat: ChatLine[] = [];
  /** The last error the server sent, for a toast. */
  error?: { code: string; message: string };
  /** Entry mode of the input-mode switch. */
  mode: EntryMode = "value";
  /** Whether digits the server marked wrong are shown (penalty and lives rooms only). */
  errorCheck = true;
  /** A room code to join once welcomed (from the link or a previous visit). */
  pendingRoom?: string;

  constructor(private readonly marks?: MarkStore) {}

  /** Folds one server message into the state. */
  handle(m: ServerMessage): ClientMessage[] {
    switch (m.type) {
      case "welcome": {
        this.me = { id: m.player_id, name: m.name };
        const out: ClientMessage[] = [{ type: "list_variants" }, { type: "list_rooms" }, profileRequest()];
        const code = this.pendingRoom ?? this.room?.code;
        if (code) out.push({ type: "join_room", code, spectator: this.room?.spectator ?? false });
        return out;
      }
      case "variants":
        this.variants = m.variants;
        return [];
      case "rooms":
        this.rooms = m.rooms;
        return [];
      case "room":
        this.onRoom(m.room);
        return [];
      case "error":
        this.error = { code: m.code, message: m.message };
        if (m.code === "no_room" && this.pendingRoom) {
          this.pendingRoom = undefined;
          this.leave();
        }
        return [];
      case "move_accepted": {
        const game = this.game;
        if (!game) return [];
        const cell = m.row * game.geometry.cols + m.col;
        if (m.correct === false) game.wrong.add(cell);
        else game.wrong.delete(cell);
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
        const cell = m.row * game.geometry.cols + m.col;
        game.seq = Math.max(game.seq, m.seq);
        if (m.change.type === "value") game.board.apply(cell, { value: m.change.value });
        else if (m.change.type === "pencil") game.board.apply(cell, { corner: m.change.marks });
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
      case "leaderboard":
        if (m.board === "daily" && this.room?.settings.daily) this.leaderboard = m;
        else this.browsedBoard = m;
        return [];
      case "profile":
        this.profile = m;
        return [];
      case "sync_code":
        this.syncCode = { code: m.code, minutes: Math.round(m.expires_in_ms / 60000) };
        return [];
      case "pong":
        return [];
    }
  }

  /** Forgets the room (the page goes back to the lobby). */
  leave() {
    this.room = undefined;
    this.game = undefined;
    this.results = undefined;
    this.leaderboard = undefined;
    this.chat = [];
  }

  private onRoom(room: RoomView) {
    const sameRoom = this.room?.code === room.code;
    if (!sameRoom) {
      this.chat = [];
      this.results = undefined;
    }
    this.pendingRoom = undefined;
    this.room = room;
    if (room.state === "waiting" || room.state === "countdown") this.results = undefined;
    if (!room.puzzle) {
      // Not started, or paused (a paused board is hidden): keep local marks.
      if (room.state !== "playing") this.game = undefined;
      return;
    }
    let game = this.game;
    if (!game || game.marksKey !== marksKeyOf(room)) {
      game = new Game(room);
      const saved = this.marks?.load(game.marksKey);
      if (saved && saved.corner.length === game.board.corner.length) {
        game.board.corner = saved.corner;
        game.board.centre = saved.centre;
      }
      this.game = game;
    } else if (room.board) {
      // A snapshot (resume, reconnect): the server's board is the truth.
      const values = flatten(room.board, game.geometry);
      for (const c of game.geometry.cells) game.board.apply(c, { value: values[c] });
    }
    if (room.pencil && room.settings.mode === "coop") {
      const marks = flatten(room.pencil, game.geometry);
      for (const c of game.geometry.cells) game.board.apply(c, { corner: marks[c] });
    }
    game.seq = room.seq;
    if (room.spectator) {
      game.boards.clear();
      for (const b of room.boards) game.boards.set(b.player, flatten(b.board, game.geometry));
      // A racer's board may be hidden (until they finish), not the racer.
      if (!game.watching || !room.players.some((p) => p.id === game.watching)) {
        game.watching = room.boards[0]?.player ?? room.players[0]?.id;
      }
    }
  }

  private onProgress(player: PlayerView) {
    const room = this.room;
    if (!room) return;
    const i = room.players.findIndex((p) => p.id === player.id);
    if (i >= 0) room.players[i] = player;
    else room.players.push(player);
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

  /** Clears the selection; returns what to send. */
  erase(): ClientMessage[] {
    if (!this.canPlay() || !this.game) return [];
    return this.send(this.game.board.erase());
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

  /** The messages for local changes: values always; corner marks only in co-op. */
  private send(changes: Change[]): ClientMessage[] {
    const game = this.game;
    if (!game) return [];
    const coop = this.room?.settings.mode === "coop";
    const out: ClientMessage[] = [];
    for (const { cell, before, after } of changes) {
      const [row, col] = coordOf(game.geometry, cell);
      if (before.value !== after.value) {
        out.push({ type: "move", row, col, value: after.value });
        game.wrong.delete(cell);
        if (game.hint && game.hint.cell[0] === row && game.hint.cell[1] === col) game.hint = undefined;
      }
      if (coop && before.corner !== after.corner) out.push({ type: "pencil", row, col, marks: after.corner });
    }
    // Only a mark change is worth a write to storage (values live on the server).
    if (changes.some((ch) => ch.before.centre !== ch.after.centre || ch.before.corner !== ch.after.corner)) {
      this.marks?.save(game.marksKey, { corner: game.board.corner, centre: game.board.centre });
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
    const values = spectating ? (game.boards.get(game.watching ?? "") ?? g.givens) : board.values;
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
      corner: spectating ? values.map(() => 0) : board.corner,
      centre: spectating ? values.map(() => 0) : board.centre,
      selection: new Set(spectating ? [] : board.selection),
      cursor,
      peers: cursor === undefined ? new Set() : peersOf(g, cursor),
      highlight: cursor === undefined ? 0 : values[cursor],
      conflicts: conflicts(g, values),
      wrong: this.errorCheck && !spectating ? game.wrong : new Set(),
      hint: hintCell,
      hintArea,
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
