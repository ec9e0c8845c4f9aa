//! Items a newest-first list serves twice. A service whose page tokens are positions in the list
//! as it stands (an offset) pushes its items down when new ones arrive on the head while the
//! list is walked: the next page then starts with the last items of the page before it. Those
//! repeats (the same key and the same id as an item already handed to the dataset) are dropped,
//! and said in the log; an item served twice anywhere else in a page is an error, never a row
//! written twice.

use std::collections::{HashSet, VecDeque};

use arrow_array::cast::AsArray;
use arrow_array::{Array, RecordBatch};

/// The most recent items remembered: more items arriving on the head during one page than this
/// make the repeats reach past it, and the walk then fails (not newest first) rather than guess.
pub const REMEMBERED: usize = 10_000;

/// The items handed to the dataset most recently: `(sort key, id)`.
#[derive(Debug, Default)]
pub struct Seen {
    order: VecDeque<(i128, String)>,
    set: HashSet<(i128, String)>,
}

/// How the rows of a batch stand against what was seen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Repeats {
    /// The first `n` rows were all seen already (a shifted page); the rest are new.
    Leading(usize),
    /// Row `row` (id `id`) was seen already, after new rows: the service serves duplicates.
    Inside {
        /// The row of the batch.
        row: usize,
        /// Its id.
        id: String,
    },
}

impl Seen {
    /// How the rows of a batch (their keys and ids) stand: the leading rows already seen, or a
    /// row seen already after rows that were not. A row without an id is never a repeat.
    pub fn check(&self, keys: &[i128], ids: &[Option<String>]) -> Repeats {
        let seen = |row: usize| ids[row].as_ref().is_some_and(|id| self.set.contains(&(keys[row], id.clone())));
        let leading = (0..keys.len()).take_while(|&row| seen(row)).count();
        let mut fresh = HashSet::new();
        for (row, (key, id)) in keys.iter().zip(ids).enumerate().skip(leading) {
            let Some(id) = id else { continue };
            if seen(row) || !fresh.insert((*key, id.as_str())) {
                return Repeats::Inside { row, id: id.clone() };
            }
        }
        Repeats::Leading(leading)
    }

    /// Remembers the rows handed to the dataset (forgetting the oldest beyond [`REMEMBERED`]).
    pub fn remember(&mut self, keys: &[i128], ids: &[Option<String>]) {
        for (key, id) in keys.iter().zip(ids) {
            let Some(id) = id else { continue };
            if self.set.insert((*key, id.clone())) {
                self.order.push_back((*key, id.clone()));
            }
        }
        while self.order.len() > REMEMBERED {
            if let Some(old) = self.order.pop_front() {
                self.set.remove(&old);
            }
        }
    }
}

/// The ids of a batch's rows from its string column `name` (`None` for a null, or every row
/// when the batch has no such column).
pub fn ids(batch: &RecordBatch, name: &str) -> Vec<Option<String>> {
    let Some(column) = batch.column_by_name(name) else { return vec![None; batch.num_rows()] };
    if let Some(strings) = column.as_string_view_opt() {
        return strings.iter().map(|v| v.map(str::to_string)).collect();
    }
    if let Some(strings) = column.as_string_opt::<i32>() {
        return strings.iter().map(|v| v.map(str::to_string)).collect();
    }
    vec![None; column.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(names: &[&str]) -> Vec<Option<String>> {
        names.iter().map(|n| Some(n.to_string())).collect()
    }

    #[test]
    fn a_shifted_page_repeats_a_prefix_and_a_duplicate_inside_a_page_is_found() {
        let mut seen = Seen::default();
        seen.remember(&[9, 8, 7], &ids(&["i", "h", "g"]));
        // two items came on the head: the next page starts with the last two of the one before
        assert_eq!(seen.check(&[8, 7, 6, 5], &ids(&["h", "g", "f", "e"])), Repeats::Leading(2));
        assert_eq!(seen.check(&[6, 5], &ids(&["f", "e"])), Repeats::Leading(0));
        // the same key with another id is not a repeat (another block numbered 7: the cutter's
        // order check refuses it); a seen item after new ones is
        assert_eq!(seen.check(&[7, 6], &ids(&["x", "f"])), Repeats::Leading(0));
        assert_eq!(seen.check(&[6, 7], &ids(&["f", "g"])), Repeats::Inside { row: 1, id: "g".into() });
        assert_eq!(seen.check(&[6, 6], &ids(&["f", "f"])), Repeats::Inside { row: 1, id: "f".into() });
        // no id: never a repeat
        assert_eq!(seen.check(&[8], &[None]), Repeats::Leading(0));
    }

    #[test]
    fn only_the_most_recent_items_are_remembered() {
        let mut seen = Seen::default();
        let keys: Vec<i128> = (0..REMEMBERED as i128 + 5).rev().collect();
        let names: Vec<Option<String>> = keys.iter().map(|k| Some(k.to_string())).collect();
        seen.remember(&keys, &names);
        assert_eq!(seen.order.len(), REMEMBERED);
        assert_eq!(seen.check(&[0], &[Some("0".into())]), Repeats::Leading(1));
        let first = keys[0];
        assert_eq!(seen.check(&[first], &[Some(first.to_string())]), Repeats::Leading(0), "forgotten");
    }
}
