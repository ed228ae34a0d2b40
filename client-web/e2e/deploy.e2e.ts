// The public-host recipe of docs/deploy.md, run as written: Caddy with the
// documented docs/deploy/Caddyfile (a local name and ports in place of
// sudoku.example.org and 8080, its own local certificate) in front of arena
// serve with the documented flags. A player opens the https address, gets the
// compressed files through the proxy, plays over wss, and an invite link starts
// with the public address.

import { expect, test } from "vitest";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { freePort } from "./postgres";
import { clientDir, createRoom, emptyCells, enterName, leaveGame, openPlayer, screenshotScreen, solve, startServer, useArena, waitForLabel, waitForMessage, WAIT } from "./harness";

const arena = useArena();
const CADDY = process.env.CADDY ?? "/usr/bin/caddy";

/** Starts Caddy on the documented Caddyfile, for `site` in front of `upstream`. */
async function startCaddy(site: string, upstream: string, httpPort: number): Promise<{ child: ChildProcess; dir: string }> {
  const documented = readFileSync(resolve(clientDir, "../docs/deploy/Caddyfile"), "utf8");
  expect(documented).toContain("sudoku.example.org {");
  expect(documented).toContain("reverse_proxy 127.0.0.1:8080");
  const dir = mkdtempSync(join(tmpdir(), "arena-caddy-"));
  // Only what a test needs around it: no admin port, no change to the
  // machine's trust store, state in a temporary directory, free ports.
  const global = `{\n\tadmin off\n\tskip_install_trust\n\thttp_port ${httpPort}\n\tstorage file_system ${dir}\n}\n`;
  const config = global + documented.replaceAll("sudoku.example.org", site).replaceAll("127.0.0.1:8080", upstream);
  writeFileSync(join(dir, "Caddyfile"), config);
  const child = spawn(CADDY, ["run", "--adapter", "caddyfile", "--config", join(dir, "Caddyfile")], {
    env: { ...process.env, HOME: dir, XDG_DATA_HOME: dir, XDG_CONFIG_HOME: dir },
    stdio: ["ignore", "ignore", "pipe"],
  });
  await new Promise<void>((ok, fail) => {
    let seen = "";
    const timer = setTimeout(() => fail(new Error(`caddy did not start:\n${seen}`)), WAIT);
    child.on("error", (e) => fail(new Error(`cannot run ${CADDY} (.ci/run installs Debian's caddy): ${e.message}`)));
    child.stderr?.on("data", (chunk: Buffer) => {
      seen += chunk.toString();
      if (seen.includes("serving initial configuration")) {
        clearTimeout(timer);
        ok();
      }
    });
    child.on("exit", (code) => fail(new Error(`caddy exited (${code}):\n${seen}`)));
  });
  return { child, dir };
}

test("behind the documented Caddy config: https, compressed files, a game over wss, invite links on the public address", async () => {
  const [https, http] = [await freePort(), await freePort()];
  const site = `https://localhost:${https}`;
  const server = await startServer({ extra: ["--site-url", `${site}/`, "--allow-origin", site, "--trusted-proxy", "127.0.0.1"] });
  const caddy = await startCaddy(`localhost:${https}`, new URL(server.url).host, http);
  try {
    const ada = await openPlayer(arena.browser, `${site}/`, { width: 1280, height: 800 }, { ignoreHTTPSErrors: true });
    const encodings = new Map<string, string>();
    ada.page.on("response", (r) => encodings.set(new URL(r.url()).pathname, r.headers()["content-encoding"] ?? ""));
    await ada.page.reload();
    await enterName(ada, "Ada");
    // Over HTTPS Chromium takes brotli: arena's own copies come through the proxy.
    const scripts = [...encodings].filter(([path]) => path.endsWith(".js"));
    expect(scripts.length).toBeGreaterThan(0);
    for (const [path, encoding] of scripts) expect(encoding, path).toBe("br");

    // A solo game over wss: a digit goes to the server and back.
    await createRoom(ada, { mode: "solo" });
    await ada.page.waitForSelector("svg.board", { timeout: WAIT });
    const room = await waitForMessage(ada, (m) => m.type === "room" && m.room.puzzle !== null);
    const puzzle = room.type === "room" && room.room.puzzle;
    if (!puzzle) throw new Error("no puzzle");
    const [r, c] = emptyCells(puzzle)[0];
    const digit = solve(server, puzzle)[r][c];
    await ada.page.click(`#cell-${r}-${c}`);
    await ada.page.keyboard.press(String(digit));
    await waitForMessage(ada, (m) => m.type === "move_accepted" && m.row === r && m.col === c);
    await waitForLabel(ada, [r, c], `: ${digit}`);
    await screenshotScreen(ada.page, "deploy-caddy-game");

    // A race's invite link starts with the public address, not arena's own.
    await leaveGame(ada);
    const code = await createRoom(ada, { mode: "race" });
    expect(await ada.page.inputValue("#room-link")).toBe(`${site}/#${code}`);
  } finally {
    caddy.child.kill("SIGTERM");
    rmSync(caddy.dir, { recursive: true, force: true });
    await server.stop();
  }
});
