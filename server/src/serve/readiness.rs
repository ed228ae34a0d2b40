//! `/readyz`: whether this node can serve games, and how each variant fares.
//! `/healthz` stays the process's liveness ("ok" while it answers at all); this
//! one is for a load balancer or an operator: `200` while at least one variant
//! generates, `503` when none does, and a JSON body either way naming every
//! variant's state (`healthy`, `backing-off`, `quarantined`) and, for plugins in
//! host processes, how many hosts were started, crashed and killed.

use super::plugin_health::{PluginHealth, State};
use crate::plugins::{HostStats, PluginHost};
use serde::Serialize;
use std::collections::BTreeMap;

/// One variant in the readiness report.
#[derive(Debug, Serialize)]
pub struct VariantReport {
    /// How its background generation fares.
    pub state: State,
    /// Its host processes (absent for plugins loaded in process).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hosts: Option<HostStats>,
}

/// The readiness report.
#[derive(Debug, Serialize)]
pub struct Report {
    /// Whether at least one variant is healthy.
    pub ready: bool,
    /// Every loaded variant.
    pub variants: BTreeMap<String, VariantReport>,
}

/// The report for `plugins` as `health` sees them.
pub fn report(plugins: &PluginHost, health: &PluginHealth) -> Report {
    let variants: BTreeMap<String, VariantReport> = plugins
        .manifests()
        .map(|m| {
            let report = VariantReport {
                state: health.state(&m.id),
                hosts: plugins.host_stats(&m.id),
            };
            (m.id.clone(), report)
        })
        .collect();
    Report {
        ready: variants.values().any(|v| v.state == State::Healthy),
        variants,
    }
}
