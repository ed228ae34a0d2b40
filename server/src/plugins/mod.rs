//! The plugin host: loads variant plugins (`cdylib`s speaking `plugin-abi`) and
//! calls them safely.
//!
//! - [`library`]: opening a library, checking its header, never closing it (the
//!   only place that touches `libloading`).
//! - [`error`]: [`PluginError`], for the log and for players.
//! - [`pool`]: each plugin's persistent worker threads and their queue.
//! - [`host`]: [`PluginHost`]: discovery, the registry by id, and typed calls with a
//!   deadline, a response size cap and untrusted-answer decoding, run in this
//!   process or in host processes.
//! - [`process`]: host processes seen from the server: started, called over
//!   [`pipe`] frames, killed past a deadline, replaced when they die.
//! - [`host_main`]: the other side: what runs inside a host process
//!   (`arena plugin-host`).
//! - [`pipe`]: the frames between the two.
//! - [`validate`]: checks on what a plugin generated before anyone sees it.

pub mod error;
pub mod host;
pub mod host_main;
pub mod library;
pub mod pipe;
pub mod pool;
pub mod process;
pub mod validate;

pub use host::{
    default_plugin_dirs, HostStats, Isolation, LoadOptions, PluginError, PluginHost, Refused,
    TestPlugins,
};
pub use process::HostCommand;
