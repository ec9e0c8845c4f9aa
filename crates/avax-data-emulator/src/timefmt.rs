//! Timestamps written as a Go node writes a `time.Time` in JSON (`RFC3339Nano`): fraction with
//! trailing zeros trimmed and no fraction at all when zero; `Z` for UTC, else `+hh:mm` / `-hh:mm`.

use std::fmt::Write as _;

const NS_PER_SEC: i64 = 1_000_000_000;

/// (year, month, day) of a day count since 1970-01-01 (proleptic Gregorian).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// Appends `unix_ns` (UTC nanoseconds) as Go's RFC3339Nano in a zone `offset_minutes` east of UTC.
pub fn push_rfc3339_nano(out: &mut String, unix_ns: i64, offset_minutes: i32) {
    let local = unix_ns.saturating_add(i64::from(offset_minutes) * 60 * NS_PER_SEC);
    let secs = local.div_euclid(NS_PER_SEC);
    let nanos = local.rem_euclid(NS_PER_SEC);
    let (year, month, day) = civil_from_days(secs.div_euclid(86_400));
    let sod = secs.rem_euclid(86_400);
    let _ = write!(out, "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}", sod / 3600, sod / 60 % 60, sod % 60);
    if nanos != 0 {
        let mut digits = format!("{nanos:09}");
        while digits.ends_with('0') {
            digits.pop();
        }
        out.push('.');
        out.push_str(&digits);
    }
    if offset_minutes == 0 {
        out.push('Z');
    } else {
        let sign = if offset_minutes < 0 { '-' } else { '+' };
        let abs = offset_minutes.unsigned_abs();
        let _ = write!(out, "{sign}{:02}:{:02}", abs / 60, abs % 60);
    }
}

/// Formats `unix_ns` (UTC nanoseconds) as Go's RFC3339Nano in a zone `offset_minutes` east of
/// UTC, e.g. `2021-04-02T15:34:00.262979-07:00`.
pub fn rfc3339_nano(unix_ns: i64, offset_minutes: i32) -> String {
    let mut s = String::with_capacity(36);
    push_rfc3339_nano(&mut s, unix_ns, offset_minutes);
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::{DateTime, FixedOffset};

    #[test]
    fn matches_the_real_node_examples() {
        // 2021-04-02T15:34:00.262979-07:00 == 1_617_402_840_262_979_000 ns
        assert_eq!(rfc3339_nano(1_617_402_840_262_979_000, -7 * 60), "2021-04-02T15:34:00.262979-07:00");
        assert_eq!(rfc3339_nano(1_635_986_575_016_434_140, 0), "2021-11-04T00:42:55.01643414Z");
        assert_eq!(rfc3339_nano(1_600_646_400_000_000_000, 0), "2020-09-21T00:00:00Z");
        assert_eq!(rfc3339_nano(1_600_646_400_000_000_001, 330), "2020-09-21T05:30:00.000000001+05:30");
    }

    #[test]
    fn agrees_with_chrono_over_many_instants() {
        let mut ns: i64 = 0;
        for k in 0..20_000i64 {
            ns = ns.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407 + k);
            let t = ns.rem_euclid(4_000_000_000 * NS_PER_SEC);
            for offset in [0, -420, 60, 345, -720, 840] {
                let text = rfc3339_nano(t, offset);
                let parsed = DateTime::parse_from_rfc3339(&text).unwrap();
                assert_eq!(parsed.timestamp_nanos_opt().unwrap(), t, "{text}");
                let zone = FixedOffset::east_opt(offset * 60).unwrap();
                assert_eq!(parsed.offset(), &zone, "{text}");
                let date = DateTime::from_timestamp_nanos(t).with_timezone(&zone);
                assert_eq!(&text[..19], date.format("%Y-%m-%dT%H:%M:%S").to_string(), "{text}");
            }
        }
    }
}
