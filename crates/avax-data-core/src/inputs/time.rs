//! A time as whole Unix seconds (UTC), from any of the forms a user gives: an integer of Unix
//! seconds, text (the digits of Unix seconds, an ISO date `YYYY-MM-DD` meaning 00:00 UTC, or an
//! RFC 3339 time with its offset), a calendar date, a datetime with its UTC offset, or a
//! `numpy.datetime64` (its integer and unit). A time without an offset is refused, never
//! guessed; fractions of a second are floored. Allowed: 1970-01-01T00:00:00Z to
//! 9999-12-31T23:59:59Z ([`MAX_TIME`]).

use chrono::{DateTime, NaiveDate, NaiveDateTime};

use crate::error::{Error, Result};

/// The last second a time may name: 9999-12-31T23:59:59Z.
pub const MAX_TIME: i64 = 253_402_300_799;

/// What a time may be, for error messages.
pub const TIME_ALLOWED: &str = "a time from 1970-01-01 to 9999-12-31 UTC: Unix seconds (an int >= 0, or its digits), \
an ISO date 'YYYY-MM-DD' (00:00 UTC), an RFC 3339 time with its offset ('2024-01-01T12:00:00Z', \
'2024-01-01T14:00:00+02:00'), a date, an aware datetime or a numpy.datetime64";

const NAIVE_DATETIME: &str =
    "an aware datetime: this one has no tzinfo; add one, e.g. .replace(tzinfo=datetime.timezone.utc)";
const NAIVE_TEXT: &str = "an RFC 3339 time with its offset: this one has none; add Z (UTC) or one like +02:00";
const NOT_A_TIME: &str = "a time (NaT, not-a-time, is none)";

/// A time as given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TimeInput {
    /// An integer (a Python `int`, not a `bool`): Unix seconds.
    UnixSeconds(i128),
    /// Text: Unix seconds' digits, `YYYY-MM-DD` or an RFC 3339 time with its offset.
    Text(String),
    /// A calendar date: its 00:00 UTC.
    Date {
        /// The year.
        year: i32,
        /// The month, 1 to 12.
        month: u32,
        /// The day of the month, from 1.
        day: u32,
    },
    /// A date and wall-clock time with its offset from UTC (`None`: naive, refused).
    DateTime {
        /// The year.
        year: i32,
        /// The month, 1 to 12.
        month: u32,
        /// The day of the month, from 1.
        day: u32,
        /// The hour, 0 to 23.
        hour: u32,
        /// The minute.
        minute: u32,
        /// The second.
        second: u32,
        /// The microsecond.
        microsecond: u32,
        /// The offset from UTC in microseconds (east positive), `None` for a naive time.
        offset_micros: Option<i64>,
    },
    /// A `numpy.datetime64`: its integer (`i64::MIN` is NaT) and unit as numpy writes it
    /// (`ns`, `s`, `D`, `M`, `Y`, ..., with an optional multiple such as `10ms`; empty: generic).
    Datetime64 {
        /// The count of units since 1970-01-01T00:00:00.
        value: i64,
        /// The unit.
        unit: String,
    },
    /// A value of another type, by its type name: always refused.
    Other(String),
}

impl std::fmt::Display for TimeInput {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TimeInput::UnixSeconds(n) => write!(f, "{n}"),
            TimeInput::Text(t) => write!(f, "{t:?}"),
            TimeInput::Date { year, month, day } => write!(f, "{year:04}-{month:02}-{day:02}"),
            TimeInput::DateTime { year, month, day, hour, minute, second, microsecond, offset_micros } => {
                write!(f, "{year:04}-{month:02}-{day:02}T{hour:02}:{minute:02}:{second:02}.{microsecond:06}")?;
                match offset_micros {
                    Some(off) => write!(f, " (UTC{off:+} us)"),
                    None => write!(f, " (naive)"),
                }
            }
            TimeInput::Datetime64 { value, unit } => write!(f, "datetime64({value}, {unit:?})"),
            TimeInput::Other(ty) => write!(f, "<{ty}>"),
        }
    }
}

/// The time as whole Unix seconds, or an error naming `param` and what is allowed.
///
/// ```
/// use avax_data_core::inputs::{unix_seconds, TimeInput};
/// let at = |t: &str| unix_seconds("start", &TimeInput::Text(t.into()));
/// assert_eq!(at("2024-01-01").unwrap(), 1_704_067_200);
/// assert_eq!(at("2024-01-01T02:00:00+02:00").unwrap(), 1_704_067_200);
/// assert_eq!(at("1704067200").unwrap(), 1_704_067_200);
/// assert!(at("2024-01-01T00:00:00").unwrap_err().to_string().contains("add Z (UTC)"));
/// ```
pub fn unix_seconds(param: &str, input: &TimeInput) -> Result<i64> {
    unix_seconds_shown(param, input, &input.to_string())
}

/// [`unix_seconds`] with the value shown in an error as `shown` (e.g. a Python `repr`).
pub fn unix_seconds_shown(param: &str, input: &TimeInput, shown: &str) -> Result<i64> {
    let refuse = |allowed: &str| Error::invalid(param, shown, allowed);
    let seconds = match input {
        TimeInput::UnixSeconds(n) => Some(*n),
        TimeInput::Text(text) => text_seconds(text).map_err(refuse)?,
        TimeInput::Date { year, month, day } => date_seconds(*year, *month, *day),
        TimeInput::DateTime { offset_micros: None, .. } => return Err(refuse(NAIVE_DATETIME)),
        TimeInput::DateTime { year, month, day, hour, minute, second, microsecond, offset_micros: Some(off) } => {
            NaiveDate::from_ymd_opt(*year, *month, *day)
                .and_then(|d| d.and_hms_micro_opt(*hour, *minute, *second, *microsecond))
                .map(|t| (i128::from(t.and_utc().timestamp_micros()) - i128::from(*off)).div_euclid(1_000_000))
        }
        TimeInput::Datetime64 { value, .. } if *value == i64::MIN => return Err(refuse(NOT_A_TIME)),
        TimeInput::Datetime64 { value, unit } => datetime64_seconds(*value, unit),
        TimeInput::Other(_) => None,
    };
    seconds.filter(|s| (0..=i128::from(MAX_TIME)).contains(s)).map(|s| s as i64).ok_or_else(|| refuse(TIME_ALLOWED))
}

/// Text as seconds: `Ok(None)` when it is no time at all, `Err` with a hint for a time without
/// its offset.
fn text_seconds(text: &str) -> std::result::Result<Option<i128>, &'static str> {
    let t = text.trim();
    let digits = t.strip_prefix('-').unwrap_or(t);
    if !digits.is_empty() && digits.len() <= 30 && digits.bytes().all(|b| b.is_ascii_digit()) {
        return Ok(t.parse::<i128>().ok());
    }
    if t.len() == 10 {
        if let Ok(date) = NaiveDate::parse_from_str(t, "%Y-%m-%d") {
            return Ok(Some(i128::from(date.and_hms_opt(0, 0, 0).map_or(-1, |d| d.and_utc().timestamp()))));
        }
    }
    if let Ok(at) = DateTime::parse_from_rfc3339(t) {
        return Ok(Some(i128::from(at.timestamp())));
    }
    let naive = ["%Y-%m-%dT%H:%M:%S%.f", "%Y-%m-%d %H:%M:%S%.f", "%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"]
        .iter()
        .any(|f| NaiveDateTime::parse_from_str(t, f).is_ok());
    if naive {
        return Err(NAIVE_TEXT);
    }
    Ok(None)
}

fn date_seconds(year: i32, month: u32, day: u32) -> Option<i128> {
    NaiveDate::from_ymd_opt(year, month, day)
        .and_then(|d| d.and_hms_opt(0, 0, 0))
        .map(|t| i128::from(t.and_utc().timestamp()))
}

/// A `datetime64` count of `unit` as seconds (floored); `None` for an unknown unit.
fn datetime64_seconds(value: i64, unit: &str) -> Option<i128> {
    let split = unit.find(|c: char| !c.is_ascii_digit()).unwrap_or(unit.len());
    let (multiple, name) = unit.split_at(split);
    let multiple: i128 = if multiple.is_empty() { 1 } else { multiple.parse().ok()? };
    let count = i128::from(value).checked_mul(multiple)?;
    let month_start = |months: i128| {
        let year = i32::try_from(1970 + months.div_euclid(12)).ok()?;
        date_seconds(year, months.rem_euclid(12) as u32 + 1, 1)
    };
    let (num, den): (i128, i128) = match name {
        "Y" => return month_start(count.checked_mul(12)?),
        "M" => return month_start(count),
        "W" => (604_800, 1),
        "D" => (86_400, 1),
        "h" => (3_600, 1),
        "m" => (60, 1),
        "s" => (1, 1),
        "ms" => (1, 1_000),
        "us" | "μs" => (1, 1_000_000),
        "ns" => (1, 1_000_000_000),
        "ps" => (1, 1_000_000_000_000),
        "fs" => (1, 1_000_000_000_000_000),
        "as" => (1, 1_000_000_000_000_000_000),
        _ => return None,
    };
    Some(count.checked_mul(num)?.div_euclid(den))
}

#[cfg(test)]
mod tests {
    use super::*;

    const JAN1: i64 = 1_704_067_200; // 2024-01-01T00:00:00Z

    fn text(t: &str) -> Result<i64> {
        unix_seconds("start", &TimeInput::Text(t.into()))
    }

    fn dt(offset_micros: Option<i64>) -> TimeInput {
        TimeInput::DateTime {
            year: 2024,
            month: 1,
            day: 1,
            hour: 2,
            minute: 0,
            second: 0,
            microsecond: 999_999,
            offset_micros,
        }
    }

    fn d64(value: i64, unit: &str) -> Result<i64> {
        unix_seconds("end", &TimeInput::Datetime64 { value, unit: unit.into() })
    }

    #[test]
    fn every_form_of_one_instant_is_the_same_second() {
        assert_eq!(unix_seconds("start", &TimeInput::UnixSeconds(JAN1.into())).unwrap(), JAN1);
        for t in [
            "1704067200",
            " 1704067200 ",
            "2024-01-01",
            "2024-01-01T00:00:00Z",
            "2024-01-01t00:00:00z",
            "2024-01-01T00:00:00.999Z",
            "2024-01-01T02:00:00+02:00",
            "2023-12-31T19:00:00-05:00",
        ] {
            assert_eq!(text(t).unwrap(), JAN1, "{t}");
        }
        let date = TimeInput::Date { year: 2024, month: 1, day: 1 };
        assert_eq!(unix_seconds("start", &date).unwrap(), JAN1);
        assert_eq!(unix_seconds("start", &dt(Some(2 * 3_600 * 1_000_000))).unwrap(), JAN1);
        assert_eq!(unix_seconds("start", &dt(Some(0))).unwrap(), JAN1 + 7_200);
        for (value, unit) in [
            (JAN1, "s"),
            (JAN1 * 1_000_000_000 + 999, "ns"),
            (JAN1 * 1_000 + 999, "ms"),
            (JAN1 * 1_000_000, "us"),
            (JAN1 / 10, "10s"),
            (JAN1 / 86_400, "D"),
            (JAN1 / 3_600, "h"),
            (JAN1 / 60, "m"),
            (54 * 12, "M"),
            (54, "Y"),
        ] {
            assert_eq!(d64(value, unit).unwrap(), JAN1, "{value} {unit}");
        }
        // 1970-01-01 was a Thursday: weeks count from it.
        assert_eq!(d64(1, "W").unwrap(), 604_800);
    }

    #[test]
    fn the_range_is_1970_to_9999() {
        assert_eq!(text("0").unwrap(), 0);
        assert_eq!(text("1970-01-01T00:00:00Z").unwrap(), 0);
        assert_eq!(text("9999-12-31T23:59:59Z").unwrap(), MAX_TIME);
        assert_eq!(unix_seconds("t", &TimeInput::UnixSeconds(MAX_TIME.into())).unwrap(), MAX_TIME);
        let allowed = |shown: &str| format!("invalid start={shown}: {TIME_ALLOWED}");
        assert_eq!(text("-1").unwrap_err().to_string(), allowed("\"-1\""));
        assert_eq!(text("1969-12-31T23:59:59Z").unwrap_err().to_string(), allowed("\"1969-12-31T23:59:59Z\""));
        let past = TimeInput::UnixSeconds(i128::from(MAX_TIME) + 1);
        assert_eq!(unix_seconds("start", &past).unwrap_err().to_string(), allowed("253402300800"));
        assert!(text(&"9".repeat(40)).is_err());
        assert!(d64(i64::MAX, "Y").is_err() && d64(i64::MAX, "W").is_err() && d64(-1, "s").is_err());
        let before = TimeInput::Date { year: 1969, month: 12, day: 31 };
        assert_eq!(unix_seconds("start", &before).unwrap_err().to_string(), allowed("1969-12-31"));
    }

    #[test]
    fn a_time_without_its_offset_is_refused_with_a_hint() {
        let e = unix_seconds("start", &dt(None)).unwrap_err().to_string();
        assert_eq!(e, format!("invalid start=2024-01-01T02:00:00.999999 (naive): {NAIVE_DATETIME}"));
        for t in ["2024-01-01T12:00:00", "2024-01-01 12:00:00.5", "2024-01-01T12:00"] {
            assert_eq!(text(t).unwrap_err().to_string(), format!("invalid start={t:?}: {NAIVE_TEXT}"));
        }
    }

    #[test]
    fn nat_unknown_units_bad_text_and_other_types_are_refused() {
        assert_eq!(
            d64(i64::MIN, "ns").unwrap_err().to_string(),
            format!("invalid end=datetime64({}, \"ns\"): {NOT_A_TIME}", i64::MIN)
        );
        assert_eq!(
            d64(i64::MIN, "").unwrap_err().to_string(),
            format!("invalid end=datetime64({}, \"\"): {NOT_A_TIME}", i64::MIN)
        );
        for unit in ["", "x", "10", "sec"] {
            assert!(d64(5, unit).unwrap_err().to_string().ends_with(TIME_ALLOWED), "{unit}");
        }
        for t in ["", "  ", "yesterday", "2024-13-01", "2024-02-30", "2024-01-01T25:00:00Z", "1.5", "0x10", "+-5"] {
            assert_eq!(text(t).unwrap_err().to_string(), format!("invalid start={t:?}: {TIME_ALLOWED}"), "{t}");
        }
        let other = unix_seconds_shown("start", &TimeInput::Other("float".into()), "1.5").unwrap_err();
        assert_eq!(other.to_string(), format!("invalid start=1.5: {TIME_ALLOWED}"));
    }
}
