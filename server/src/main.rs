//! The `arena` command: see `arena --help`.

use std::process::ExitCode;

fn main() -> ExitCode {
    server::cli::main()
}
