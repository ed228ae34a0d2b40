//! Puzzles of the day: calendar dates (UTC, the day turns at 00:00) and the seed
//! of each (date, variant, parameters, difficulty), derived so that two servers
//! agree without talking. For classic 9x9 the seed is the daily archive's own:
//! the first 8 hex digits of sha256("YYYY-MM-DD-difficulty").

use protocol::plugin::Params;
use sha2::{Digest, Sha256};
use std::fmt;
use std::str::FromStr;

/// A calendar date (proleptic Gregorian).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Date {
    /// Days since 1970-01-01.
    days: i64,
}

impl Date {
    /// The date `days` after this one.
    pub fn plus(self, days: i64) -> Date {
        Date {
            days: self.days + days,
        }
    }

    /// Today, in UTC.
    pub fn today_utc() -> Date {
        let ms = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0.0, |d| d.as_millis() as f64);
        Date::at_ms(ms)
    }

    /// The UTC date of an instant, ms since the Unix epoch.
    pub fn at_ms(ms: f64) -> Date {
        Date {
            days: (ms / 86_400_000.0).floor() as i64,
        }
    }

    /// Days since 1970-01-01.
    pub fn days_since_epoch(self) -> i64 {
        self.days
    }

    /// Year, month (1-12), day (1-31).
    pub fn ymd(self) -> (i64, u32, u32) {
        // Howard Hinnant's civil_from_days.
        let z = self.days + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z.rem_euclid(146_097);
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
        let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
        let y = yoe + era * 400 + i64::from(m <= 2);
        (y, m, d)
    }

    /// The date of year `y`, month `m`, day `d`, if it exists.
    pub fn from_ymd(y: i64, m: u32, d: u32) -> Option<Date> {
        if !(1..=12).contains(&m) || d == 0 || d > days_in_month(y, m) {
            return None;
        }
        // Howard Hinnant's days_from_civil.
        let y = if m <= 2 { y - 1 } else { y };
        let era = y.div_euclid(400);
        let yoe = y.rem_euclid(400);
        let mp = i64::from(if m > 2 { m - 3 } else { m + 9 });
        let doy = (153 * mp + 2) / 5 + i64::from(d) - 1;
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        Some(Date {
            days: era * 146_097 + doe - 719_468,
        })
    }
}

fn days_in_month(y: i64, m: u32) -> u32 {
    match m {
        2 if (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

impl fmt::Display for Date {
    /// `YYYY-MM-DD`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (y, m, d) = self.ymd();
        write!(f, "{y:04}-{m:02}-{d:02}")
    }
}

impl FromStr for Date {
    type Err = String;
    fn from_str(s: &str) -> Result<Date, String> {
        let bad = || format!("'{s}' is not a date of the form YYYY-MM-DD");
        let parts: Vec<&str> = s.split('-').collect();
        let [y, m, d] = parts[..] else {
            return Err(bad());
        };
        if y.len() != 4 || m.len() != 2 || d.len() != 2 {
            return Err(bad());
        }
        let (y, m, d) = (
            y.parse().map_err(|_| bad())?,
            m.parse().map_err(|_| bad())?,
            d.parse().map_err(|_| bad())?,
        );
        Date::from_ymd(y, m, d).ok_or_else(bad)
    }
}

/// The first 8 hex digits of sha256(`text`).
fn short_hash(text: &str) -> String {
    let digest = Sha256::digest(text.as_bytes());
    digest.iter().take(4).map(|b| format!("{b:02x}")).collect()
}

/// The seed of the puzzle of the day for a variant with resolved `params` at
/// `difficulty`. Classic 9x9 uses the archive's rule, sha256("date-difficulty");
/// every other (variant, parameters) adds itself to the hashed text.
pub fn daily_seed(date: Date, variant: &str, params: &Params, difficulty: &str) -> String {
    let classic9 = variant == "classic"
        && params
            .get("box")
            .is_none_or(|b| *b == protocol::ParamValue::Text("3x3".into()));
    if classic9 {
        return short_hash(&format!("{date}-{difficulty}"));
    }
    let shown: Vec<String> = params.iter().map(|(k, v)| format!("{k}={v}")).collect();
    short_hash(&format!(
        "{date}-{variant}-{}-{difficulty}",
        shown.join(",")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_round_trip_and_step() {
        let d: Date = "2026-02-28".parse().expect("date");
        assert_eq!(d.plus(1).to_string(), "2026-03-01");
        assert_eq!(
            "2024-02-28"
                .parse::<Date>()
                .expect("leap")
                .plus(1)
                .to_string(),
            "2024-02-29"
        );
        assert_eq!(
            "2025-12-31"
                .parse::<Date>()
                .expect("eve")
                .plus(1)
                .to_string(),
            "2026-01-01"
        );
        assert_eq!("1970-01-01".parse::<Date>().expect("epoch").days, 0);
        for bad in [
            "2026-02-30",
            "2026-13-01",
            "26-01-01",
            "2026-1-01",
            "yesterday",
        ] {
            assert!(bad.parse::<Date>().is_err(), "{bad}");
        }
    }

    #[test]
    fn classic_seeds_are_the_archives() {
        // The archive's own rule: sha256("2026-01-15-easy") starts 1f372d29
        // (Python: hashlib.sha256(b"2026-01-15-easy").hexdigest()[:8]).
        let d: Date = "2026-01-15".parse().expect("date");
        let expected = "1f372d29";
        assert_eq!(daily_seed(d, "classic", &Params::new(), "easy"), expected);
        let twin = Params::from([("mode".into(), protocol::ParamValue::Text("twin-nw".into()))]);
        assert_ne!(daily_seed(d, "gattai", &twin, "easy"), expected);
    }
}
