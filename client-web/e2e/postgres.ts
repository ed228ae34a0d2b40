// A private PostgreSQL server for a browser test of several nodes: initdb in a
// temporary directory, pg_ctl on a free loopback port, stopped and removed by
// `stop`. Debian's server binaries (.ci/run installs `postgresql`); as root (CI),
// the server runs as the `postgres` user, as PostgreSQL requires.

import { execFileSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A running private PostgreSQL server. */
export interface Postgres {
  /** Creates database `name`; returns its URL. */
  database(name: string): string;
  /** Stops the server and removes its files. */
  stop(): void;
}

/** The directory of PostgreSQL's server binaries ($ARENA_PG_BIN, else the newest under /usr/lib/postgresql). */
function binDir(): string {
  if (process.env.ARENA_PG_BIN) return process.env.ARENA_PG_BIN;
  const root = "/usr/lib/postgresql";
  const versions = existsSync(root) ? readdirSync(root).filter((v) => existsSync(join(root, v, "bin", "initdb"))) : [];
  versions.sort((a, b) => Number(a) - Number(b));
  const newest = versions.at(-1);
  if (!newest) throw new Error("PostgreSQL's server binaries are missing: install Debian's `postgresql` package (.ci/run does)");
  return join(root, newest, "bin");
}

/** A loopback port nobody listens on now. */
export function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const probe = createServer();
    probe.once("error", fail);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => (typeof address === "object" && address ? ok(address.port) : fail(new Error("no port"))));
    });
  });
}

/** Creates and starts a server (fsync off: the tests kill nodes, never PostgreSQL). */
export async function startPostgres(): Promise<Postgres> {
  const bin = binDir();
  const dir = mkdtempSync(join(tmpdir(), "arena-pg-"));
  const asPostgres = process.getuid?.() === 0;
  if (asPostgres) {
    const uid = execFileSync("id", ["-u", "postgres"]).toString().trim();
    const gid = execFileSync("id", ["-g", "postgres"]).toString().trim();
    chownSync(dir, Number(uid), Number(gid));
  }
  const run = (program: string, args: string[]) => {
    const path = join(bin, program);
    const [command, argv] = asPostgres ? ["runuser", ["-u", "postgres", "--", path, ...args]] : [path, args];
    execFileSync(command, argv, { cwd: dir, stdio: "pipe" });
  };
  const port = await freePort();
  const data = join(dir, "data");
  run("initdb", ["-D", data, "-A", "trust", "-U", "postgres", "--no-sync"]);
  run("pg_ctl", ["-D", data, "-o", `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`, "-l", join(dir, "log"), "-w", "start"]);
  return {
    database(name) {
      run("createdb", ["-h", "127.0.0.1", "-p", String(port), "-U", "postgres", name]);
      return `postgres://postgres@127.0.0.1:${port}/${name}`;
    },
    stop() {
      try {
        run("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
