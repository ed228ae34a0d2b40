//! The client's address. Directly connected clients are their TCP peer; behind
//! a trusted reverse proxy (`arena serve --trusted-proxy IP`), the proxy's
//! `X-Forwarded-For` says who the client is. Per-address limits use this address.

use axum::http::HeaderMap;
use std::net::IpAddr;

/// The address limits apply to: the TCP `peer`, or, when the peer is a trusted
/// proxy, the rightmost `X-Forwarded-For` entry that is not itself a trusted
/// proxy (entries left of it were written by the client and prove nothing).
/// An unreadable header from a trusted proxy falls back to the peer.
pub fn client_ip(peer: IpAddr, headers: &HeaderMap, trusted: &[IpAddr]) -> IpAddr {
    if !trusted.contains(&peer) {
        return peer;
    }
    let hops: Vec<&str> = headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .collect();
    for hop in hops.into_iter().rev() {
        match hop.trim().parse::<IpAddr>() {
            Ok(ip) if trusted.contains(&ip) => continue,
            Ok(ip) => return ip,
            Err(_) => break,
        }
    }
    peer
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn forwarded(value: &str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(
            "x-forwarded-for",
            HeaderValue::from_str(value).expect("ascii"),
        );
        h
    }

    #[test]
    fn only_trusted_proxies_are_believed() {
        let proxy: IpAddr = "10.0.0.1".parse().expect("ip");
        let client: IpAddr = "203.0.113.7".parse().expect("ip");
        let h = forwarded("198.51.100.1, 203.0.113.7, 10.0.0.1");
        assert_eq!(client_ip(proxy, &h, &[proxy]), client);
        assert_eq!(
            client_ip(proxy, &h, &[]),
            proxy,
            "untrusted peer: header ignored"
        );
        assert_eq!(client_ip(client, &h, &[proxy]), client);
        assert_eq!(client_ip(proxy, &HeaderMap::new(), &[proxy]), proxy);
        assert_eq!(client_ip(proxy, &forwarded("garbage"), &[proxy]), proxy);
        assert_eq!(
            client_ip(proxy, &forwarded("junk, 203.0.113.7"), &[proxy]),
            client
        );
    }
}
