//! The plugin host: loads variant plugins (`cdylib`s speaking `plugin-abi`) and
//! calls them safely.
//!
//! - [`library`]: opening a library, checking its header, never closing it (the
//!   only place that touches `libloading`).
//! - [`pool`]: the persistent worker threads plugin calls run on, and their queue.
//! - [`host`]: [`PluginHost`]: discovery, the registry by id, and typed calls with a
//!   deadline, a response size cap and untrusted-answer decoding.
//! - [`validate`]: checks on what a plugin generated before anyone sees it.

pub mod host;
pub mod library;
pub mod pool;
pub mod validate;

pub use host::{default_plugin_dirs, PluginError, PluginHost, Refused, TestPlugins};
