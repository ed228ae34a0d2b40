//! A private PostgreSQL server for one test: `initdb` in a temporary directory,
//! started with `pg_ctl` on a free loopback port, stopped and removed on drop.
//! The binaries are Debian's (`.ci/run` installs the `postgresql` package), found
//! under `/usr/lib/postgresql/*/bin` or in `$ARENA_PG_BIN`. Run as root (as CI
//! does), the server runs as the `postgres` user, as PostgreSQL requires.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU32, Ordering};

/// A running private PostgreSQL server.
pub struct PgServer {
    bin: PathBuf,
    dir: PathBuf,
    port: u16,
    as_postgres: bool,
}

/// Where the PostgreSQL server binaries are.
fn bin_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("ARENA_PG_BIN") {
        return PathBuf::from(dir);
    }
    let mut found: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .map(|dirs| {
            dirs.filter_map(|d| d.ok())
                .map(|d| d.path().join("bin"))
                .filter(|b| b.join("initdb").exists())
                .collect()
        })
        .unwrap_or_default();
    found.sort();
    found.pop().unwrap_or_else(|| {
        panic!(
            "PostgreSQL's server binaries are missing: install Debian's `postgresql` package \
             (.ci/run does) or set ARENA_PG_BIN to the directory holding initdb and pg_ctl"
        )
    })
}

fn running_as_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
        .unwrap_or(false)
}

/// A loopback port nobody listens on now.
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

impl PgServer {
    /// Creates and starts a server (fsync off: the tests kill `arena`, never
    /// PostgreSQL, and a commit is still a commit to every other connection).
    pub fn start() -> PgServer {
        PgServer::start_with_fsync(false)
    }

    /// Creates and starts a server; with `fsync`, every commit reaches the disk
    /// (as in production; benchmarks use it).
    pub fn start_with_fsync(fsync: bool) -> PgServer {
        static N: AtomicU32 = AtomicU32::new(0);
        let bin = bin_dir();
        let dir = std::env::temp_dir().join(format!(
            "arena-pg-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("create the server's directory");
        let as_postgres = running_as_root();
        if as_postgres {
            let ok = Command::new("chown")
                .args(["-R", "postgres:postgres"])
                .arg(&dir)
                .status()
                .is_ok_and(|s| s.success());
            assert!(ok, "cannot hand {} to the postgres user", dir.display());
        }
        let server = PgServer {
            bin,
            dir,
            port: free_port(),
            as_postgres,
        };
        let data = server.dir.join("data");
        server.run(
            "initdb",
            &[
                "-D",
                &data.display().to_string(),
                "-A",
                "trust",
                "-U",
                "postgres",
                "--no-sync",
            ],
        );
        let options = format!(
            "-p {} -k {} -c listen_addresses=127.0.0.1 -c fsync={} -c max_connections=200",
            server.port,
            server.dir.display(),
            if fsync { "on" } else { "off" }
        );
        server.run(
            "pg_ctl",
            &[
                "-D",
                &data.display().to_string(),
                "-o",
                &options,
                "-l",
                &server.dir.join("log").display().to_string(),
                "-w",
                "start",
            ],
        );
        server
    }

    /// A command for one of the server's programs (as `postgres` when root).
    fn command(&self, program: &str) -> Command {
        let path = self.bin.join(program);
        if self.as_postgres {
            let mut c = Command::new("runuser");
            c.args(["-u", "postgres", "--"]).arg(path);
            c
        } else {
            Command::new(path)
        }
    }

    /// Runs one of the server's programs; panics with its output if it fails.
    fn run(&self, program: &str, args: &[&str]) {
        let out = self
            .command(program)
            .args(args)
            .current_dir(&self.dir)
            .output()
            .unwrap_or_else(|e| panic!("cannot run {program}: {e}"));
        assert!(
            out.status.success(),
            "{program} failed: {}{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr),
            std::fs::read_to_string(self.dir.join("log")).unwrap_or_default()
        );
    }

    /// Creates database `name` and returns its URL.
    pub fn database(&self, name: &str) -> String {
        let port = self.port.to_string();
        self.run(
            "createdb",
            &["-h", "127.0.0.1", "-p", &port, "-U", "postgres", name],
        );
        self.url(name)
    }

    /// The URL of database `name` on this server.
    pub fn url(&self, name: &str) -> String {
        format!("postgres://postgres@127.0.0.1:{}/{name}", self.port)
    }

    /// The server's directory (its log is `log` in it).
    pub fn dir(&self) -> &Path {
        &self.dir
    }
}

impl Drop for PgServer {
    fn drop(&mut self) {
        let data = self.dir.join("data").display().to_string();
        let _ = self
            .command("pg_ctl")
            .args(["-D", &data, "-m", "immediate", "-w", "stop"])
            .output();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
