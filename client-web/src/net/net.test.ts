import { encode } from "@msgpack/msgpack";
import { afterEach, expect, test, vi } from "vitest";
import { backoffMs, CLOSE_OPENED_ELSEWHERE, Connection } from "./connection";
import { decodeMessage, encodeMessage } from "./codec";

test("client messages are plain MessagePack maps with named fields", () => {
  const bytes = encodeMessage({ type: "move", row: 3, col: 7, value: 5 });
  // fixmap of 4 entries, first key "type".
  expect(bytes[0]).toBe(0x84);
  expect(new TextDecoder().decode(bytes.slice(2, 6))).toBe("type");
});

test("server frames decode; garbage is refused", () => {
  const frame = encode({ type: "pong", client_time: 1, server_time: 2 });
  expect(decodeMessage(frame)).toEqual({ type: "pong", client_time: 1, server_time: 2 });
  expect(() => decodeMessage(new Uint8Array([0xc1]))).toThrow();
  expect(() => decodeMessage(encode([1, 2]))).toThrow(/not a server message/);
});

test("reconnect backoff doubles from 250 ms to a cap of 8 s, with jitter", () => {
  const mid = () => 0.5;
  expect([0, 1, 2, 3, 5, 10].map((a) => backoffMs(a, mid))).toEqual([250, 500, 1000, 2000, 8000, 8000]);
  expect(backoffMs(0, () => 0)).toBe(188);
  expect(backoffMs(0, () => 1)).toBe(313);
});

/** A socket that only records itself; tests call its `onclose`. */
interface FakeSocket {
  url: string;
  onclose?: (e: { code: number; reason: string }) => void;
  onmessage?: (e: { data: ArrayBuffer }) => void;
}

/** Replaces WebSocket (and the timers) for one test; returns the sockets opened. */
function fakeSockets(): FakeSocket[] {
  vi.useFakeTimers();
  const sockets: FakeSocket[] = [];
  vi.stubGlobal(
    "WebSocket",
    class {
      static OPEN = 1;
      binaryType = "";
      readyState = 0;
      onclose?: (e: { code: number; reason: string }) => void;
      constructor(readonly url: string) {
        sockets.push(this);
      }
      send() {}
      close() {}
    },
  );
  return sockets;
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

test("a connection whose seat another tab took over does not reconnect; a dropped one does", () => {
  const sockets = fakeSockets();
  const statuses: (string | undefined)[] = [];
  const link = new Connection("ws://x/ws", () => "Ada", { get: () => null, set: () => {} }, () => {}, (_, detail) => statuses.push(detail));
  link.open();
  sockets[0].onclose?.({ code: CLOSE_OPENED_ELSEWHERE, reason: "opened elsewhere" });
  vi.advanceTimersByTime(60_000);
  expect(sockets.length).toBe(1);
  expect(statuses.at(-1)).toContain("another tab");
  link.open();
  sockets[1].onclose?.({ code: 1006, reason: "" });
  vi.advanceTimersByTime(60_000);
  expect(sockets.length).toBe(3);
});

test("a dropped connection says when it retries, and retrying now opens at once", () => {
  const sockets = fakeSockets();
  const link = new Connection("ws://x/ws", () => "Ada", { get: () => null, set: () => {} }, () => {}, () => {});
  link.open();
  const before = Date.now();
  sockets[0].onclose?.({ code: 1006, reason: "" });
  expect(link.status).toBe("offline");
  expect(link.retryAt).toBeGreaterThanOrEqual(before);
  link.open();
  expect(sockets.length).toBe(2);
  expect(link.retryAt).toBeUndefined();
});

test("a redirect moves the connection to the room's node; a drop there goes back to the first address", () => {
  const sockets = fakeSockets();
  const seen: string[] = [];
  const link = new Connection("ws://lb/ws", () => "Ada", { get: () => null, set: () => {} }, (m) => seen.push(m.type), () => {});
  link.open();
  const frame = encode({ type: "redirect", code: "abc", url: "ws://node-2/ws" });
  sockets[0].onmessage?.({ data: frame.buffer.slice(frame.byteOffset, frame.byteOffset + frame.byteLength) as ArrayBuffer });
  expect(seen).toEqual(["redirect"]);
  expect(sockets.map((s) => s.url)).toEqual(["ws://lb/ws", "ws://node-2/ws"]);
  sockets[0].onclose?.({ code: 1000, reason: "" });
  vi.advanceTimersByTime(60_000);
  expect(sockets.length).toBe(2);
  sockets[1].onclose?.({ code: 1006, reason: "" });
  vi.advanceTimersByTime(60_000);
  expect(sockets.map((s) => s.url)).toEqual(["ws://lb/ws", "ws://node-2/ws", "ws://lb/ws"]);
});

test("a redirect to something that is not a WebSocket URL is ignored", () => {
  const sockets = fakeSockets();
  const link = new Connection("ws://lb/ws", () => "Ada", { get: () => null, set: () => {} }, () => {}, () => {});
  link.open();
  const frame = encode({ type: "redirect", code: "abc", url: "not a url" });
  sockets[0].onmessage?.({ data: frame.buffer.slice(frame.byteOffset, frame.byteOffset + frame.byteLength) as ArrayBuffer });
  expect(sockets.map((s) => s.url)).toEqual(["ws://lb/ws"]);
});
