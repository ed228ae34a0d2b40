// After `vite build`: writes a brotli (.br) and a gzip (.gz) copy beside every
// text file in dist/, which `arena serve` sends to browsers that accept them
// (tower-http's ServeDir, precompressed): compressed once here, not per request.

import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const TEXT = /\.(html|js|css|svg|json|webmanifest|txt)$/;

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

let before = 0;
let after = 0;
for (const file of walk(new URL("../dist", import.meta.url).pathname).filter((f) => TEXT.test(f))) {
  const body = readFileSync(file);
  const br = brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } });
  writeFileSync(`${file}.br`, br);
  writeFileSync(`${file}.gz`, gzipSync(body, { level: 9 }));
  before += body.length;
  after += br.length;
}
console.log(`compressed dist/: ${before} bytes of text, ${after} with brotli`);
