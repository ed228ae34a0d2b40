// MessagePack encoding of the wire messages: plain spec MessagePack with named
// fields, as the server's `rmp_serde::to_vec_named` writes and reads them.

import { decode, encode } from "@msgpack/msgpack";
import type { ClientMessage, ServerMessage } from "../protocol";

/** Encodes a client message as one binary frame. */
export function encodeMessage(message: ClientMessage): Uint8Array<ArrayBuffer> {
  return new Uint8Array(encode(message));
}

/**
 * Decodes a server frame; throws on bytes that are not MessagePack or not an
 * object with a string `type`.
 */
export function decodeMessage(bytes: ArrayBuffer | Uint8Array): ServerMessage {
  const value = decode(bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes));
  if (typeof value !== "object" || value === null || typeof (value as { type?: unknown }).type !== "string") {
    throw new Error("not a server message");
  }
  return value as ServerMessage;
}
