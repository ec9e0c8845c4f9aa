//! Items a newest-first list serves twice. A service whose page tokens are positions in the list
//! as it stands (an offset) pushes its items down when new ones arrive on the head while the
//! list is walked: the next page then starts with the last items of the page before it. The
//! pager drops those leading repeats (items with the identity of one it handed out recently) and
//! says so in the log; an item served twice anywhere else in a page is an error naming it, never
//! an item handed out twice.
//!
//! An item's identity is the raw JSON text of its id field and of its sort key field, if the
//! list has one ([`Identity`]), read from the item as the page holds it: lookups borrow the text,
//! and each remembered item keeps one shared copy of it.

use std::borrow::Borrow;
use std::collections::{HashSet, VecDeque};
use std::hash::{BuildHasher, BuildHasherDefault, Hash, Hasher, RandomState};
use std::sync::Arc;

use super::JsonItem;

/// The most recent items remembered: more items arriving on the head during one page than this
/// make the repeats reach past it, and the walk then fails (an item served twice) rather than
/// guess.
pub const REMEMBERED: usize = 10_000;

/// The identities a resume state keeps ([`Seen::recent`]): of the last items handed out, ten
/// pages of the Data API's largest page size. A list that grew by more than that between a walk
/// and its resume can start the resumed walk with items handed out before.
pub const RESUME_IDS: usize = 1_000;

/// What tells the items of a list apart: an id field and, optionally, the sort key field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Identity {
    /// The field naming the item (a block's hash, a vertex's hash, a message's id).
    pub id: &'static str,
    /// A second field, part of the identity when given: the field the list is sorted by (a
    /// block's number), or what tells apart items sharing the id (a log's index, a node).
    pub key: Option<&'static str>,
}

impl Identity {
    /// The identity of `item`, borrowed from its text and hashed once by `state`; `None` when
    /// its id field is absent or null.
    fn of<'a>(self, item: &'a JsonItem, state: &RandomState) -> Option<Parts<'a>> {
        let (id, key) = match self.key {
            Some(key) => {
                let [id, key] = item.fields([self.id, key]);
                (id, key.unwrap_or(""))
            }
            None => (item.fields([self.id])[0], ""),
        };
        let id = id.filter(|id| *id != "null")?;
        Some(Parts { hash: state.hash_one((id, key)), id, key })
    }
}

/// An item's identity as the raw JSON texts of its fields, with its hash (computed once).
#[derive(Debug, Clone, Copy)]
struct Parts<'a> {
    hash: u64,
    id: &'a str,
    key: &'a str,
}

/// One remembered identity: its hash and the id's text, a NUL, the key's text (JSON text holds
/// no raw NUL, so the split is unambiguous). Shared by the order and the set: one copy of the
/// text.
#[derive(Debug, Clone)]
pub struct Stored {
    hash: u64,
    text: Arc<str>,
    /// Where the id's text ends (the NUL) in `text`.
    split: usize,
}

impl Stored {
    fn new(parts: Parts<'_>, buffer: &mut String) -> Self {
        buffer.clear();
        buffer.push_str(parts.id);
        buffer.push('\0');
        buffer.push_str(parts.key);
        Stored { hash: parts.hash, text: Arc::from(buffer.as_str()), split: parts.id.len() }
    }
}

/// Both kinds of identity seen as their parts, so a set of [`Stored`] is searched with a
/// borrowed [`Parts`].
trait AsParts {
    fn parts(&self) -> Parts<'_>;
}

impl AsParts for Parts<'_> {
    fn parts(&self) -> Parts<'_> {
        *self
    }
}

impl AsParts for Stored {
    fn parts(&self) -> Parts<'_> {
        let (id, key) = (&self.text[..self.split], &self.text[self.split + 1..]);
        Parts { hash: self.hash, id, key }
    }
}

impl PartialEq for Parts<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.hash == other.hash && self.id == other.id && self.key == other.key
    }
}

impl Eq for Parts<'_> {}

/// The hash computed once per item ([`Identity::of`]) is the set's hash: no text hashed again.
impl Hash for Parts<'_> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.hash)
    }
}

impl Hash for dyn AsParts + '_ {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.parts().hash(state)
    }
}

impl PartialEq for dyn AsParts + '_ {
    fn eq(&self, other: &Self) -> bool {
        self.parts() == other.parts()
    }
}

impl Eq for dyn AsParts + '_ {}

impl Hash for Stored {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.hash)
    }
}

impl PartialEq for Stored {
    fn eq(&self, other: &Self) -> bool {
        self.parts() == other.parts()
    }
}

/// A hasher passing on the one `u64` it is given: the identities' hashes are computed once, by
/// the keyed [`RandomState`] of their [`Seen`].
#[derive(Debug, Default, Clone, Copy)]
pub struct PassOn(u64);

impl Hasher for PassOn {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        // Not used by the identities (they write one u64); kept correct for any other caller.
        for &byte in bytes {
            self.0 = (self.0 ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
        }
    }

    fn write_u64(&mut self, value: u64) {
        self.0 = value;
    }
}

type Set<T> = HashSet<T, BuildHasherDefault<PassOn>>;

impl Eq for Stored {}

impl<'a> Borrow<dyn AsParts + 'a> for Stored {
    fn borrow(&self) -> &(dyn AsParts + 'a) {
        self
    }
}

/// The items a walk handed out most recently (at most [`REMEMBERED`]).
#[derive(Debug, Default, Clone)]
pub struct Seen {
    order: VecDeque<Stored>,
    set: Set<Stored>,
    /// Hashes the identities (keyed at random: a hostile service cannot aim at collisions).
    state: RandomState,
    /// A resumed walk looking for the last item its earlier walk handed out ([`Seen::seek`]):
    /// every item up to it is passed, however far the list's growth pushed it down.
    seek: Option<Stored>,
}

/// What one [`Seen::remember`] changed: the identities it added and those it pushed out.
#[derive(Debug, Default, Clone)]
pub struct Remembered {
    added: Vec<Stored>,
    evicted: Vec<Stored>,
}

/// How the items of a page stand against what was handed out.
#[derive(Debug)]
pub struct Screened {
    /// How many items, from where the page is read on, were handed out already (a shifted page).
    pub leading: usize,
    /// The identity of each item of the page (`None` before where it is read on, and for an item
    /// without an id), to remember once handed out.
    pub ids: Vec<Option<Stored>>,
    /// Where in the page the item a seek looked for stands (it and everything before it are
    /// counted in `leading`): the seek ends with this page ([`Seen::end_seek`]).
    pub found: Option<usize>,
    /// A seek was on and the item it looks for is not in this page (the page is leading whole).
    pub seeking: bool,
}

impl Screened {
    /// Nothing leading, nothing to remember: the screen of a walk without an identity.
    pub fn none() -> Screened {
        Screened { leading: 0, ids: Vec::new(), found: None, seeking: false }
    }
}

/// An item served twice: its position in the page and its id field's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Twice {
    /// The item's place in the page.
    pub item: usize,
    /// The raw JSON text of its id field.
    pub id: String,
}

impl Seen {
    /// Screens `items` from `from` by `identity`: the leading items already handed out are
    /// repeats; an item handed out before, or given twice in the page, after an item that was
    /// not, is [`Twice`]. An item without an id is never a repeat.
    ///
    /// While a seek is on ([`Seen::seek`]), every item up to the one sought, that one included,
    /// is leading (a page without it is leading whole), and the rest is screened as above.
    pub fn screen(&self, identity: Identity, items: &[JsonItem], from: usize) -> Result<Screened, Twice> {
        let from = from.min(items.len());
        let Some(sought) = &self.seek else { return self.screen_from(identity, items, from) };
        let target = sought.parts();
        let at = items[from..].iter().position(|item| identity.of(item, &self.state).is_some_and(|p| p == target));
        let Some(at) = at.map(|at| from + at) else {
            return Ok(Screened {
                leading: items.len() - from,
                ids: vec![None; items.len()],
                found: None,
                seeking: true,
            });
        };
        let rest = self.screen_from(identity, items, at + 1)?;
        Ok(Screened { leading: at + 1 - from + rest.leading, ids: rest.ids, found: Some(at), seeking: false })
    }

    /// [`Seen::screen`] without a seek.
    fn screen_from(&self, identity: Identity, items: &[JsonItem], from: usize) -> Result<Screened, Twice> {
        let parts: Vec<Option<Parts<'_>>> = items[from..].iter().map(|item| identity.of(item, &self.state)).collect();
        let handed = |p: &Option<Parts<'_>>| p.as_ref().is_some_and(|p| self.set.contains(p as &dyn AsParts));
        let leading = parts.iter().take_while(|p| handed(p)).count();
        let mut fresh = Set::with_capacity_and_hasher(parts.len() - leading, Default::default());
        for (at, p) in parts.iter().enumerate().skip(leading) {
            let Some(p) = p else { continue };
            if self.set.contains(p as &dyn AsParts) || !fresh.insert(*p) {
                return Err(Twice { item: from + at, id: p.id.to_string() });
            }
        }
        let mut ids = vec![None; from + leading];
        let mut buffer = String::new();
        ids.extend(parts.into_iter().skip(leading).map(|p| p.map(|p| Stored::new(p, &mut buffer))));
        Ok(Screened { leading, ids, found: None, seeking: false })
    }

    /// Starts a seek of the last identity remembered (the last item an earlier walk handed out,
    /// restored by [`Seen::restore`]): the pages screened from now on pass every item up to it,
    /// so a walk resumed where that item stood continues right after it however many items
    /// arrived on the list's head in between. Nothing to seek: no seek.
    pub fn seek_last(&mut self) {
        self.seek = self.order.back().cloned();
    }

    /// Whether a seek is on.
    pub fn seeking(&self) -> bool {
        self.seek.is_some()
    }

    /// The item sought, as the raw JSON text of its id field (for messages).
    pub fn sought(&self) -> Option<String> {
        self.seek.as_ref().map(|s| s.parts().id.to_string())
    }

    /// The item sought was found (a page screened said where): the seek is over.
    pub fn end_seek(&mut self) {
        self.seek = None;
    }

    /// Remembers the items handed out (forgetting the oldest beyond [`REMEMBERED`]); what
    /// changed, for [`Seen::forget`].
    pub fn remember(&mut self, ids: &[Option<Stored>]) -> Remembered {
        let mut changed = Remembered::default();
        for id in ids.iter().flatten() {
            if self.set.insert(id.clone()) {
                self.order.push_back(id.clone());
                changed.added.push(id.clone());
            }
        }
        while self.order.len() > REMEMBERED {
            if let Some(old) = self.order.pop_front() {
                self.set.remove(&old);
                changed.evicted.push(old);
            }
        }
        changed
    }

    /// Undoes the last [`Seen::remember`] (`changed` is what it returned): items handed out
    /// that never reached their caller are forgotten, and those it pushed out come back.
    pub fn forget(&mut self, changed: Remembered) {
        for id in changed.added.iter().rev() {
            if self.set.remove(id) {
                match self.order.back() {
                    Some(last) if last == id => {
                        self.order.pop_back();
                    }
                    _ => self.order.retain(|kept| kept != id),
                }
            }
        }
        for old in changed.evicted.into_iter().rev() {
            if self.set.insert(old.clone()) {
                self.order.push_front(old);
            }
        }
    }

    /// The identities of the last `n` items remembered, oldest first, each as the raw JSON texts
    /// of its id and key fields (the key's text is empty for an identity without one): what a
    /// resumed walk needs to drop the repeats of its first page ([`Seen::restore`]).
    pub fn recent(&self, n: usize) -> Vec<[String; 2]> {
        let skip = self.order.len().saturating_sub(n);
        self.order.iter().skip(skip).map(|s| s.parts()).map(|p| [p.id.to_string(), p.key.to_string()]).collect()
    }

    /// Remembers the identities [`Seen::recent`] gave (of a walk this one resumes), as if they
    /// were handed out by this walk, oldest first.
    pub fn restore(&mut self, ids: &[[String; 2]]) {
        let mut buffer = String::new();
        let stored: Vec<Option<Stored>> = ids
            .iter()
            .map(|[id, key]| {
                let parts = Parts { hash: self.state.hash_one((id.as_str(), key.as_str())), id, key };
                Some(Stored::new(parts, &mut buffer))
            })
            .collect();
        self.remember(&stored);
    }

    /// How many items are remembered.
    pub fn len(&self) -> usize {
        self.order.len()
    }

    /// Whether nothing is remembered.
    pub fn is_empty(&self) -> bool {
        self.order.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const BLOCKS: Identity = Identity { id: "blockHash", key: Some("blockNumber") };

    fn blocks(rows: &[(u64, &str)]) -> Vec<JsonItem> {
        rows.iter().map(|(n, h)| JsonItem::from(json!({"blockNumber": n.to_string(), "blockHash": h}))).collect()
    }

    fn hand_out(seen: &mut Seen, items: &[JsonItem]) -> usize {
        let screened = seen.screen(BLOCKS, items, 0).unwrap();
        seen.remember(&screened.ids);
        screened.leading
    }

    #[test]
    fn a_shifted_page_repeats_a_prefix_and_a_duplicate_inside_a_page_is_found() {
        let mut seen = Seen::default();
        assert_eq!(hand_out(&mut seen, &blocks(&[(9, "i"), (8, "h"), (7, "g")])), 0);
        // two items came on the head: the next page starts with the last two of the one before
        let shifted = blocks(&[(8, "h"), (7, "g"), (6, "f"), (5, "e")]);
        let screened = seen.screen(BLOCKS, &shifted, 0).unwrap();
        assert_eq!(screened.leading, 2);
        assert_eq!(screened.ids.iter().map(Option::is_some).collect::<Vec<_>>(), [false, false, true, true]);
        // read on from item 1: one leading repeat left
        assert_eq!(seen.screen(BLOCKS, &shifted, 1).unwrap().leading, 1);
        assert_eq!(seen.screen(BLOCKS, &blocks(&[(6, "f"), (5, "e")]), 0).unwrap().leading, 0);
        // the same key with another id is not a repeat, nor the same id with another key
        assert_eq!(seen.screen(BLOCKS, &blocks(&[(7, "x"), (6, "f")]), 0).unwrap().leading, 0);
        assert_eq!(seen.screen(BLOCKS, &blocks(&[(70, "g")]), 0).unwrap().leading, 0);
        // a handed-out item after new ones, or one item twice in a page, is named
        let after_new = seen.screen(BLOCKS, &blocks(&[(6, "f"), (7, "g")]), 0).unwrap_err();
        assert_eq!(after_new, Twice { item: 1, id: "\"g\"".into() });
        let in_page = seen.screen(BLOCKS, &blocks(&[(6, "f"), (5, "e"), (6, "f")]), 0).unwrap_err();
        assert_eq!(in_page, Twice { item: 2, id: "\"f\"".into() });
        // no id (or a null one): never a repeat; the key alone is no identity
        let anonymous = [
            JsonItem::from(json!({"blockNumber": "8"})),
            JsonItem::from(json!({"blockNumber": "8"})),
            JsonItem::from(json!({"blockNumber": "8", "blockHash": null})),
            JsonItem::from(json!({"blockNumber": "8", "blockHash": null})),
        ];
        assert_eq!(seen.screen(BLOCKS, &anonymous, 0).unwrap().leading, 0);
    }

    #[test]
    fn only_the_most_recent_items_are_remembered_and_each_once() {
        let mut seen = Seen::default();
        let rows: Vec<(u64, String)> = (0..REMEMBERED as u64 + 5).rev().map(|n| (n, format!("0x{n}"))).collect();
        let items = blocks(&rows.iter().map(|(n, h)| (*n, h.as_str())).collect::<Vec<_>>());
        assert_eq!(hand_out(&mut seen, &items), 0);
        assert_eq!((seen.len(), seen.set.len()), (REMEMBERED, REMEMBERED));
        let last = items.len() - 1;
        assert_eq!(seen.screen(BLOCKS, &items[last..], 0).unwrap().leading, 1, "the newest handed out");
        assert_eq!(seen.screen(BLOCKS, &items[..1], 0).unwrap().leading, 0, "forgotten");
        // remembering again adds nothing
        let again = seen.screen(BLOCKS, &items[last..], 0).unwrap();
        let parts = BLOCKS.of(&items[last], &seen.state).unwrap();
        seen.remember(&[Some(Stored::new(parts, &mut String::new()))]);
        assert_eq!(seen.len(), REMEMBERED);
        assert!(again.ids.iter().all(Option::is_none));
    }

    #[test]
    fn forgetting_the_last_remember_restores_exactly_what_was_remembered_before() {
        let mut seen = Seen::default();
        let rows: Vec<(u64, String)> = (0..REMEMBERED as u64).rev().map(|n| (n + 10, format!("0x{n}"))).collect();
        let items = blocks(&rows.iter().map(|(n, h)| (*n, h.as_str())).collect::<Vec<_>>());
        hand_out(&mut seen, &items);
        let before = seen.recent(REMEMBERED);
        // a page of three that pushes the three oldest out, then never reaches its caller
        let page = blocks(&[(3, "c"), (2, "b"), (1, "a")]);
        let screened = seen.screen(BLOCKS, &page, 0).unwrap();
        let changed = seen.remember(&screened.ids);
        assert_eq!(seen.screen(BLOCKS, &page, 0).unwrap().leading, 3);
        assert_eq!(seen.screen(BLOCKS, &items[..1], 0).unwrap().leading, 0, "the oldest pushed out");
        seen.forget(changed);
        assert_eq!(seen.recent(REMEMBERED), before, "the same identities, in the same order");
        assert_eq!(seen.set.len(), REMEMBERED);
        assert_eq!(seen.screen(BLOCKS, &page, 0).unwrap().leading, 0, "the page is new again");
        assert_eq!(seen.screen(BLOCKS, &items[..1], 0).unwrap().leading, 1, "the oldest is back");
    }

    #[test]
    fn the_recent_identities_restored_in_another_walk_make_the_same_repeats() {
        let mut before = Seen::default();
        let handed = blocks(&[(9, "i"), (8, "h"), (7, "g")]);
        assert_eq!(hand_out(&mut before, &handed), 0);
        let kept = before.recent(2);
        assert_eq!(kept, [["\"h\"".to_string(), "\"8\"".to_string()], ["\"g\"".into(), "\"7\"".into()]]);
        let mut resumed = Seen::default();
        resumed.restore(&kept);
        assert_eq!(resumed.len(), 2);
        let shifted = blocks(&[(8, "h"), (7, "g"), (6, "f")]);
        assert_eq!(resumed.screen(BLOCKS, &shifted, 0).unwrap().leading, 2);
        // an item handed out before what was kept is not known as handed out
        assert_eq!(resumed.screen(BLOCKS, &handed[..1], 0).unwrap().leading, 0);
        // an identity without a key keeps an empty key text
        let messages = Identity { id: "messageId", key: None };
        let mut seen = Seen::default();
        let ids = seen.screen(messages, &[JsonItem::from(json!({"messageId": "m1"}))], 0).unwrap().ids;
        seen.remember(&ids);
        assert_eq!(seen.recent(RESUME_IDS), [["\"m1\"".to_string(), String::new()]]);
    }

    #[test]
    fn a_field_given_twice_is_the_last_for_the_screen_as_for_the_columns() {
        use crate::arrow::{to_batch, Resource};
        use arrow_array::{cast::AsArray, Array};
        let twice = r#"{"blockHash":"a","blockNumber":"9","blockHash":"b"}"#;
        let item = JsonItem::from_raw(serde_json::from_str::<&serde_json::value::RawValue>(twice).unwrap());
        let mut seen = Seen::default();
        assert_eq!(hand_out(&mut seen, std::slice::from_ref(&item)), 0);
        // the item handed out is block "b" (as its row says), not "a"
        assert_eq!(seen.screen(BLOCKS, &blocks(&[(9, "b")]), 0).unwrap().leading, 1);
        assert_eq!(seen.screen(BLOCKS, &blocks(&[(9, "a")]), 0).unwrap().leading, 0);
        let batch = to_batch(Resource::Block, std::slice::from_ref(&item)).unwrap();
        let column = batch.column_by_name("blockHash").unwrap();
        assert_eq!(column.as_string_view().value(0), "b");
        assert_eq!(column.len(), 1);
    }

    #[test]
    fn an_identity_without_a_key_is_the_id_alone() {
        let messages = Identity { id: "messageId", key: None };
        let mut seen = Seen::default();
        let page = [JsonItem::from(json!({"messageId": "m1", "status": "a"}))];
        let ids = seen.screen(messages, &page, 0).unwrap().ids;
        seen.remember(&ids);
        let later = [JsonItem::from(json!({"status": "b", "messageId": "m1"}))];
        assert_eq!(seen.screen(messages, &later, 0).unwrap().leading, 1);
    }
}
