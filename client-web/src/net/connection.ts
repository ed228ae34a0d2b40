// The WebSocket to the server: connects, says hello (with the saved token, so a
// reload or a dropped connection resumes the same identity), reconnects with
// exponential backoff, and keeps an estimate of the server clock's offset. On a
// server of several nodes, a `redirect` sends it to the node that holds the room;
// a drop there brings it back to the first address, which knows where rooms live.

import type { ClientMessage, ServerMessage } from "../protocol";
import { decodeMessage, encodeMessage } from "./codec";

/** The connection's state, shown as a banner when not `online`. */
export type LinkStatus = "connecting" | "online" | "offline";

/** Where the connection keeps the session token between page loads. */
export interface TokenStore {
  get(): string | null;
  set(token: string): void;
}

/** The close code of a connection whose seat another tab or device took over. */
export const CLOSE_OPENED_ELSEWHERE = 4000;

/** The delay before reconnect attempt `attempt` (0-based): 0.25 s doubling to 8 s, with jitter. */
export function backoffMs(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(8000, 250 * 2 ** attempt);
  return Math.round(base * (0.75 + random() * 0.5));
}

/** One logical connection that survives socket drops. */
export class Connection {
  status: LinkStatus = "connecting";
  /** Server clock minus local clock, ms (from `pong`). */
  clockOffset = 0;
  /** When the next reconnect attempt is due (ms since the epoch), while offline. */
  retryAt?: number;
  private socket?: WebSocket;
  /** Another tab or window took the game over (close 4000): no more tries. */
  displaced = false;
  /** The node a `redirect` sent us to, until that connection drops. */
  private redirected?: string;
  private attempt = 0;
  private timer?: ReturnType<typeof setTimeout>;
  private pingTimer?: ReturnType<typeof setInterval>;

  constructor(
    private readonly url: string,
    private name: () => string,
    private readonly tokens: TokenStore,
    private readonly onMessage: (m: ServerMessage) => void,
    private readonly onStatus: (s: LinkStatus, detail?: string) => void,
  ) {}

  /** Opens the socket (again); also "retry now" while waiting to reconnect. */
  open() {
    clearTimeout(this.timer);
    this.retryAt = undefined;
    this.setStatus("connecting");
    const socket = new WebSocket(this.redirected ?? this.url);
    socket.binaryType = "arraybuffer";
    this.socket = socket;
    socket.onopen = () => {
      this.sendNow({ type: "hello", version: 1, name: this.name(), token: this.tokens.get() });
    };
    socket.onmessage = (event) => {
      if (!(event.data instanceof ArrayBuffer)) return;
      let message: ServerMessage;
      try {
        message = decodeMessage(event.data);
      } catch (e) {
        console.warn("undecodable frame", e);
        return;
      }
      if (message.type === "welcome") {
        this.attempt = 0;
        this.tokens.set(message.token);
        this.clockOffset = message.server_time - Date.now();
        this.setStatus("online");
        this.ping();
        clearInterval(this.pingTimer);
        this.pingTimer = setInterval(() => this.ping(), 15000);
      } else if (message.type === "pong") {
        const now = Date.now();
        this.clockOffset = message.server_time - (message.client_time + now) / 2;
      }
      this.onMessage(message);
      if (message.type === "redirect") this.follow(message.url);
    };
    socket.onclose = (event) => {
      if (this.socket !== socket) return;
      clearInterval(this.pingTimer);
      // The next attempt goes to the first address again, which knows where rooms live now.
      this.redirected = undefined;
      if (event.code === CLOSE_OPENED_ELSEWHERE) {
        // Reconnecting would take the seat back and close the other tab, which
        // would do the same: the newest tab plays; this one waits for a reload.
        this.displaced = true;
        this.setStatus("offline", "this game is open in another tab or window; reload this page to play here");
        return;
      }
      const delay = backoffMs(this.attempt++);
      const why = event.reason || (event.code === 1006 ? "connection lost" : `closed (${event.code})`);
      this.retryAt = Date.now() + delay;
      this.setStatus("offline", why);
      this.timer = setTimeout(() => this.open(), delay);
    };
  }

  /** Moves to another node at once (the room lives there); the session rejoins after `welcome`. */
  private follow(url: string) {
    // Only a WebSocket URL is followed; anything else is a misconfigured node (the first address retries).
    if (!/^wss?:\/\/\S+$/.test(url)) {
      console.warn("ignored a redirect to", url);
      return;
    }
    const old = this.socket;
    this.socket = undefined;
    clearInterval(this.pingTimer);
    old?.close();
    this.redirected = url;
    this.open();
  }

  /** Sends a message; false when offline (the caller keeps its state and waits for the snapshot). */
  send(message: ClientMessage): boolean {
    if (this.status !== "online") return false;
    return this.sendNow(message);
  }

  /** The server clock now, ms since the epoch. */
  serverNow(): number {
    return Date.now() + this.clockOffset;
  }

  private sendNow(message: ClientMessage): boolean {
    if (this.socket?.readyState !== WebSocket.OPEN) return false;
    this.socket.send(encodeMessage(message));
    return true;
  }

  private ping() {
    this.sendNow({ type: "ping", client_time: Date.now() });
  }

  private setStatus(status: LinkStatus, detail?: string) {
    this.status = status;
    this.onStatus(status, detail);
  }
}
