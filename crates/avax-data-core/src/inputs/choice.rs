//! A value from a fixed set of words (an enum of the documents, a network, a metric): refused
//! with the whole set, and the word the user most likely meant when one is close (the same
//! word in another case, or one or two letters off), e.g. `txcount` → `txCount`.

use crate::error::{Error, Result};

/// The word of `allowed` that `value` most likely means, if any: the same word in another case,
/// else the single nearest one within two edits (and fewer than a third of its letters).
///
/// ```
/// use avax_data_core::inputs::near;
/// assert_eq!(near("txcount", &["activeAddresses", "txCount"]), Some("txCount"));
/// assert_eq!(near("actve", &["active", "pending"]), Some("active"));
/// assert_eq!(near("devnet", &["mainnet", "fuji", "testnet"]), None);
/// ```
pub fn near<'a>(value: &str, allowed: &[&'a str]) -> Option<&'a str> {
    if value.len() > 128 {
        return None;
    }
    if let Some(same) = allowed.iter().find(|a| a.eq_ignore_ascii_case(value)) {
        return Some(same);
    }
    let lower = value.to_ascii_lowercase();
    let mut best: Option<(usize, &'a str)> = None;
    let mut tie = false;
    for word in allowed {
        let d = edits(&lower, &word.to_ascii_lowercase());
        if d > 2 || d * 3 >= word.len() {
            continue;
        }
        match best {
            Some((b, _)) if d > b => {}
            Some((b, _)) if d == b => tie = true,
            _ => {
                best = Some((d, word));
                tie = false;
            }
        }
    }
    best.filter(|_| !tie).map(|(_, w)| w)
}

/// Levenshtein distance of two short ASCII words.
fn edits(a: &str, b: &str) -> usize {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let here = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != cb)).min(row[j] + 1).min(here + 1);
            prev = here;
        }
    }
    row[b.len()]
}

/// What a word from `allowed` may be, for a refusal of `value`: `one of a, b, c`, with
/// ` (did you mean 'b'?)` when [`near`] finds one.
pub fn one_of_allowed(value: &str, allowed: &[&str]) -> String {
    let all = format!("one of {}", allowed.join(", "));
    match near(value, allowed) {
        Some(word) => format!("{all} (did you mean '{word}'?)"),
        None => all,
    }
}

/// `value` when it is one of `allowed` (exactly: the services are case-sensitive), else an
/// error naming `param`, the value, the allowed words and the one most likely meant.
///
/// ```
/// use avax_data_core::inputs::one_of;
/// assert_eq!(one_of("metric", "txCount", &["txCount", "gasUsed"]).unwrap(), "txCount");
/// assert_eq!(
///     one_of("metric", "txcount", &["txCount", "gasUsed"]).unwrap_err().to_string(),
///     "invalid metric=\"txcount\": one of txCount, gasUsed (did you mean 'txCount'?)"
/// );
/// ```
pub fn one_of(param: &str, value: &str, allowed: &[&str]) -> Result<String> {
    if allowed.contains(&value) {
        Ok(value.to_string())
    } else {
        Err(Error::invalid_text(param, value, one_of_allowed(value, allowed)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_nearest_word_is_suggested_only_when_it_is_clearly_meant() {
        let intervals = ["hour", "day", "week", "month"];
        assert_eq!(near("Day", &intervals), Some("day"));
        assert_eq!(near("hours", &intervals), Some("hour"));
        assert_eq!(near("mnth", &intervals), Some("month"));
        assert_eq!(near("year", &intervals), None);
        assert_eq!(near("", &intervals), None);
        // Two words equally near: no guess.
        assert_eq!(near("abcd3", &["abcd1", "abcd2"]), None);
        assert_eq!(near("abcd3", &["abcd1", "xyzw2"]), Some("abcd1"));
        assert_eq!(near(&"x".repeat(1 << 16), &intervals), None);
        assert_eq!(edits("kitten", "sitting"), 3);
    }

    #[test]
    fn a_refusal_names_the_parameter_the_value_the_words_and_the_guess() {
        let e = one_of("interval", "Week", &["hour", "day", "week"]).unwrap_err().to_string();
        assert_eq!(e, "invalid interval=\"Week\": one of hour, day, week (did you mean 'week'?)");
        let e = one_of("interval", "fortnight", &["hour", "day", "week"]).unwrap_err().to_string();
        assert_eq!(e, "invalid interval=\"fortnight\": one of hour, day, week");
    }
}
