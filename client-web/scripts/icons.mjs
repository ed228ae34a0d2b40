// Writes the home-screen icons (public/icon-192.png, public/icon-512.png): a
// blue rounded square with a white 3x3 grid, the favicon's look, as PNG (what
// install prompts need), without an image library. Run by hand after a change:
// `node scripts/icons.mjs`; the PNGs are committed.
import { writeFileSync } from "node:fs";
import { deflateSync } from "node:zlib";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const out = join(dirname(fileURLToPath(import.meta.url)), "..", "public");
const BLUE = [0x2f, 0x5b, 0xea];
const WHITE = [0xff, 0xff, 0xff];

/** CRC-32 of a PNG chunk's type and data. */
function crc32(bytes) {
  let c = ~0;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
}

function chunk(type, data) {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, "ascii");
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** The icon at `size` pixels: RGBA rows, each after its filter byte. */
function pixels(size) {
  const radius = size * 0.12;
  const inset = size * 0.14;
  const cell = (size - 2 * inset) / 3;
  const line = Math.max(2, size * 0.03);
  const rows = [];
  for (let y = 0; y < size; y++) {
    const row = [0];
    for (let x = 0; x < size; x++) {
      // Outside the rounded corners: transparent.
      const cx = Math.min(Math.max(x + 0.5, radius), size - radius);
      const cy = Math.min(Math.max(y + 0.5, radius), size - radius);
      const inside = (x + 0.5 - cx) ** 2 + (y + 0.5 - cy) ** 2 <= radius ** 2;
      if (!inside) {
        row.push(0, 0, 0, 0);
        continue;
      }
      const gx = x + 0.5 - inset;
      const gy = y + 0.5 - inset;
      const within = gx >= 0 && gy >= 0 && gx <= 3 * cell && gy <= 3 * cell;
      const onLine = (v) => [0, 1, 2, 3].some((k) => Math.abs(v - k * cell) <= line / 2);
      const white = within && (onLine(gx) || onLine(gy));
      row.push(...(white ? WHITE : BLUE), 255);
    }
    rows.push(Buffer.from(row));
  }
  return Buffer.concat(rows);
}

function png(size) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 6, 0, 0, 0], 8); // 8-bit RGBA
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(pixels(size), { level: 9 })),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

for (const size of [192, 512]) writeFileSync(join(out, `icon-${size}.png`), png(size));
