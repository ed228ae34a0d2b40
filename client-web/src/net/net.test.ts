import { encode } from "@msgpack/msgpack";
import { expect, test } from "vitest";
import { backoffMs } from "./connection";
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
