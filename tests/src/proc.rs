//! What the kernel says about a running process (Linux `/proc`): its CPU time,
//! its resident memory, its children. The soak test and the benchmarks read the
//! real `arena serve` (and its plugin hosts) through these.

/// CPU seconds (user + system) a process has used; 0 when it is gone.
pub fn cpu_seconds(pid: u32) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // The command name (in parentheses) may hold spaces: fields count after it.
    let fields: Vec<&str> = stat
        .rsplit(')')
        .next()
        .unwrap_or("")
        .split_whitespace()
        .collect();
    let ticks = |i: usize| fields.get(i).and_then(|v| v.parse::<f64>().ok());
    (ticks(11).unwrap_or(0.0) + ticks(12).unwrap_or(0.0)) / 100.0
}

/// A `/proc/PID/status` memory field (`VmRSS:`, `VmHWM:`), in KiB; 0 when the
/// process is gone.
fn status_kib(pid: u32, field: &str) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .unwrap_or_default()
        .lines()
        .find_map(|l| l.strip_prefix(field))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

/// Resident memory of a process now, in KiB.
pub fn rss_kib(pid: u32) -> u64 {
    status_kib(pid, "VmRSS:")
}

/// A process's resident anonymous memory (its heaps and stacks, not the
/// pages of its binary and libraries), in KiB.
pub fn anon_kib(pid: u32) -> u64 {
    status_kib(pid, "RssAnon:")
}

/// The most resident memory a process has had, in KiB.
pub fn peak_rss_kib(pid: u32) -> u64 {
    status_kib(pid, "VmHWM:")
}

/// The live children of a process (of any of its threads): `arena serve`'s
/// plugin hosts.
pub fn children(pid: u32) -> Vec<u32> {
    std::fs::read_dir(format!("/proc/{pid}/task"))
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|t| std::fs::read_to_string(t.path().join("children")).ok())
        .flat_map(|c| {
            c.split_whitespace()
                .filter_map(|p| p.parse().ok())
                .collect::<Vec<u32>>()
        })
        .collect()
}
