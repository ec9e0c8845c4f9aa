//! The pager against a newest-first list whose head grows while it is walked with offset page
//! tokens (each page then starts with the last items of the page before): every consumer (items,
//! pages, collect, a resumed cursor) hands out each item once, in order; an item served again
//! after new ones is an error naming it.

use std::sync::{Arc, Mutex};

use serde_json::json;

use super::scripted_source::{drain_items, drain_pages, Answers, Scripted};
use super::*;
use crate::paging::{Identity, JsonItem, Page};

const BLOCKS: Identity = Identity { id: "blockHash", key: Some("blockNumber") };

/// Blocks `0..total` newest first, of which the oldest `shown` are out; each page served brings
/// `grow` more onto the head. A token is an offset in the list as it stands.
struct Growing {
    total: u64,
    shown: Mutex<u64>,
    grow: u64,
    page_size: u64,
    /// Item `(page, at)`: the page numbered `page` (from 0) serves block `at` again at its end.
    again: Option<(usize, u64)>,
    served: Mutex<usize>,
}

fn block(n: u64) -> JsonItem {
    JsonItem::from(json!({"blockHash": format!("0x{n:04x}"), "blockNumber": n.to_string(), "chainId": "43114"}))
}

impl Growing {
    fn page(&self, token: Option<String>, at_most: Option<u64>) -> Result<Page<JsonItem>> {
        let mut shown = self.shown.lock().unwrap();
        let mut served = self.served.lock().unwrap();
        let offset: u64 = token.map_or(0, |t| t[1..].parse().unwrap());
        let size = at_most.map_or(self.page_size, |a| a.min(self.page_size));
        let top = *shown; // the newest block out is top - 1
        let end = (offset + size).min(top);
        let mut items: Vec<JsonItem> = (offset..end).map(|o| block(top - 1 - o)).collect();
        if let Some((page, n)) = self.again.filter(|(page, _)| *page == *served) {
            let _ = page;
            items.push(block(n));
        }
        *served += 1;
        *shown = (*shown + self.grow).min(self.total);
        Ok(Page { items, next_page_token: (end < top).then(|| format!("o{end}")) })
    }
}

impl Answers for Growing {
    fn answer(&self, token: Option<String>, at_most: Option<u64>) -> Result<Page<JsonItem>> {
        self.page(token, at_most)
    }

    fn name(&self) -> String {
        "/v1/chains/43114/blocks".into()
    }
}

fn growing(shown: u64, grow: u64, again: Option<(usize, u64)>) -> Arc<Growing> {
    Arc::new(Growing { total: 1_000, shown: Mutex::new(shown), grow, page_size: 10, again, served: Mutex::new(0) })
}

fn pager(list: &Arc<Growing>, identity: Option<Identity>, limit: Option<u64>) -> Pager {
    Pager::new(Arc::new(Scripted(list.clone())), limit, 2).identified_by(identity)
}

fn numbers(items: &[JsonItem]) -> Vec<u64> {
    items.iter().map(|i| i.field("blockNumber").unwrap().get().trim_matches('"').parse().unwrap()).collect()
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap()
}

/// The blocks below the head found at the start, newest first: what a walk of a list that did
/// not grow hands out.
fn still(shown: u64) -> Vec<u64> {
    (0..shown).rev().collect()
}

#[test]
fn every_consumer_hands_out_each_item_of_a_growing_list_once_in_order() {
    let rt = runtime();
    // items one at a time
    let p = pager(&growing(95, 3, None), Some(BLOCKS), None);
    let items = rt.block_on(drain_items(&mut p.cursor()));
    assert_eq!(numbers(&items), still(95));
    let at = p.position();
    assert_eq!((at.items_read, at.exhausted), (95, true), "the repeats are passed, not counted");
    // pages
    let p = pager(&growing(95, 3, None), Some(BLOCKS), None);
    let pages = rt.block_on(drain_pages(&mut p.cursor()));
    assert_eq!(pages.iter().map(Vec::len).collect::<Vec<_>>()[..3], [10, 7, 7], "3 repeats dropped per page");
    assert_eq!(numbers(&pages.concat()), still(95));
    // collect, all at once; a whole page of repeats (grow = page size) is passed too
    for grow in [3, 10] {
        let p = pager(&growing(95, grow, None), Some(BLOCKS), None);
        let got = rt.block_on(p.collect(None, Ok)).unwrap();
        assert_eq!(numbers(&got.concat()), still(95), "grow {grow}");
        assert_eq!(p.position().items_read, 95);
    }
    // a head growing by more than a page per request pushes items never seen (newer than the
    // head the walk started from) before the repeats: an error, never a row out of order or twice
    let p = pager(&growing(95, 12, None), Some(BLOCKS), None);
    let err = rt.block_on(p.collect(None, Ok)).unwrap_err().to_string();
    assert!(err.contains("serves blockHash \"0x005e\" twice (again at item 2 of a page"), "{err}");
    // a walk that stops at a limit hands out that many, and drain goes the same way
    let p = pager(&growing(95, 4, None), Some(BLOCKS), Some(33));
    let mut drained = Vec::new();
    let n = rt.block_on(p.drain(|items| {
        drained.extend(items);
        Ok(())
    }));
    assert_eq!((n.unwrap(), numbers(&drained)), (33, still(95)[..33].to_vec()));
}

#[test]
fn a_resumed_consumer_does_not_hand_out_again_what_the_one_before_it_did() {
    let rt = runtime();
    let p = pager(&growing(95, 3, None), Some(BLOCKS), None);
    let got = rt.block_on(async {
        let mut out = Vec::new();
        // items, then pages, then the rest collected: three consumers, one after the other
        let mut first = p.cursor();
        for _ in 0..13 {
            out.push(first.next_item().await.unwrap().unwrap());
        }
        drop(first);
        let mut second = p.cursor();
        out.extend(second.next_page().await.unwrap().unwrap());
        out.extend(second.next_page().await.unwrap().unwrap());
        drop(second);
        out.extend(p.collect(None, Ok).await.unwrap().concat());
        out
    });
    assert_eq!(numbers(&got), still(95));
}

#[test]
fn an_item_served_again_after_new_ones_is_an_error_naming_it() {
    let rt = runtime();
    // the second page (no growth) ends with block 93, handed out on the first page
    let p = pager(&growing(95, 0, Some((1, 93))), Some(BLOCKS), None);
    let err = rt.block_on(p.collect(None, Ok)).unwrap_err();
    match &err {
        Error::Decode { message, url, .. } => {
            assert_eq!(
                message,
                "the list serves blockHash \"0x005d\" twice (again at item 10 of a page, after items not seen before)"
            );
            assert_eq!(url, "/v1/chains/43114/blocks");
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(p.position().items_read, 0, "collect is all or nothing");
    // item by item: the first page is handed out, the second fails whole
    let p = pager(&growing(95, 0, Some((1, 93))), Some(BLOCKS), None);
    let (got, err) = rt.block_on(async {
        let mut cursor = p.cursor();
        let mut got = Vec::new();
        loop {
            match cursor.next_item().await {
                Ok(Some(item)) => got.push(item),
                Ok(None) => panic!("the walk ended without the error"),
                Err(e) => return (got, e),
            }
        }
    });
    assert_eq!(numbers(&got), still(95)[..10].to_vec());
    assert!(err.to_string().contains("serves blockHash \"0x005d\" twice"), "{err}");
}

#[test]
fn a_walk_without_an_identity_is_left_as_served() {
    let rt = runtime();
    let p = pager(&growing(30, 3, None), None, None);
    let got = numbers(&rt.block_on(p.collect(None, Ok)).unwrap().concat());
    // offset tokens on a growing list: each page after the first repeats the 3 newest before it
    assert_eq!(&got[..13], &[29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 22, 21, 20]);
}

#[test]
fn a_walk_resumed_in_a_new_pager_from_a_saved_state_drops_the_repeats_exactly() {
    let rt = runtime();
    // the list grows by 3 after each page served, and by 7 more while the walk is stopped
    for stop in [13, 20, 27] {
        let list = growing(95, 3, None);
        let first = pager(&list, Some(BLOCKS), None);
        // fetched when asked for: the list grows by exactly the pages this walk needed
        let mut got = rt.block_on(async {
            let mut cursor = first.cursor_in_step();
            let mut out = Vec::new();
            for _ in 0..stop {
                out.push(cursor.next_item().await.unwrap().unwrap());
            }
            out
        });
        let (at, handed) = (first.position(), first.handed_out());
        assert_eq!(handed.len(), stop, "every item handed out is kept (fewer than RESUME_IDS)");
        let token = at.next_page_token().map(str::to_string);
        *list.shown.lock().unwrap() += 7;
        // the state as a checkpoint keeps it: a new pager, as in another process
        let resumed = pager(&list, Some(BLOCKS), None);
        resumed.resume_at(token.clone(), at.offset, at.items_read, &handed).unwrap();
        got.extend(rt.block_on(resumed.collect(None, Ok)).unwrap().concat());
        assert_eq!(numbers(&got), still(95), "stopped after {stop}");
        assert_eq!(resumed.position().items_read, 95);
        // without the identities (an older checkpoint) the resumed walk repeats what the list
        // pushed down: the caveat of such a state
        let list = growing(95, 3, None);
        let first = pager(&list, Some(BLOCKS), None);
        let head = rt.block_on(async {
            let mut cursor = first.cursor_in_step();
            let mut out = Vec::new();
            for _ in 0..stop {
                out.push(cursor.next_item().await.unwrap().unwrap());
            }
            out
        });
        let at = first.position();
        *list.shown.lock().unwrap() += 7;
        let resumed = pager(&list, Some(BLOCKS), None);
        resumed.resume_at(at.next_page_token().map(str::to_string), at.offset, at.items_read, &[]).unwrap();
        let rest = rt.block_on(resumed.collect(None, Ok)).unwrap().concat();
        let mut all = numbers(&[head, rest].concat());
        assert!(all.len() > 95, "stopped after {stop}: what the list pushed down comes again");
        all.sort_unstable_by(|a, b| b.cmp(a));
        all.dedup();
        assert_eq!(all, still(95));
    }
    // a state whose offset passes more items than were read is refused before any request
    let p = pager(&growing(95, 3, None), Some(BLOCKS), None);
    let err = p.resume_at(Some("o10".into()), 11, 10, &[]).unwrap_err().to_string();
    assert!(err.contains("page_offset") && err.contains("11"), "{err}");
}

/// A newest-first list of 20,000 blocks with `shown` out, growing only when a test says so,
/// served in pages of 100 (the Data API's largest).
fn still_list(shown: u64) -> Arc<Growing> {
    Arc::new(Growing {
        total: 20_000,
        shown: Mutex::new(shown),
        grow: 0,
        page_size: 100,
        again: None,
        served: Mutex::new(0),
    })
}

/// The first `n` items of `pager`, fetched when asked for, and its resume state as a checkpoint
/// keeps it (JSON text).
fn first_items(rt: &tokio::runtime::Runtime, pager: &Pager, n: usize) -> (Vec<JsonItem>, String) {
    let got = rt.block_on(async {
        let mut cursor = pager.cursor_in_step();
        let mut out = Vec::new();
        for _ in 0..n {
            out.push(cursor.next_item().await.unwrap().unwrap());
        }
        out
    });
    let state = crate::checkpoint::PagePosition::of_pager(pager);
    (got, serde_json::to_string(&state).unwrap())
}

#[test]
fn a_walk_resumed_from_its_state_is_exact_however_much_the_list_grew_meanwhile() {
    let rt = runtime();
    // stopped mid-page and at a page's end; the list grew by nothing, by less than the
    // identities kept (1,000), by more (5,000), by more than the walk had read (12,000)
    for stop in [1_537, 1_500, 40] {
        for grown in [0, 999, 5_000, 12_000] {
            let list = still_list(7_000);
            let first = pager(&list, Some(BLOCKS), None);
            let (mut got, state) = first_items(&rt, &first, stop);
            assert!(state.contains("\"boundary\""), "{state}");
            *list.shown.lock().unwrap() += grown;
            let resumed = pager(&list, Some(BLOCKS), None);
            crate::checkpoint::PagePosition::from_json(&state).unwrap().resume(&resumed).unwrap();
            got.extend(rt.block_on(resumed.collect(None, Ok)).unwrap().concat());
            assert_eq!(numbers(&got), still(7_000), "stopped after {stop}, grown by {grown}");
            assert_eq!(resumed.position().items_read, 7_000);
            // and a second resume of the resumed walk (now at its end) hands out nothing more
            let again = crate::checkpoint::PagePosition::of_pager(&resumed);
            *list.shown.lock().unwrap() += 300;
            let third = pager(&list, Some(BLOCKS), None);
            again.resume(&third).unwrap();
            assert!(rt.block_on(third.collect(None, Ok)).unwrap().concat().is_empty(), "{stop}/{grown}");
        }
    }
}

#[test]
fn a_resume_served_a_list_behind_the_one_its_state_came_from_is_an_error_naming_the_item() {
    // A replica that lags (its list lacks the newest items) serves the resumed walk: the item
    // the earlier walk stopped after is never reached. An error naming it, nothing handed out,
    // and the same state resumes exactly once the list is whole again.
    let rt = runtime();
    let list = still_list(7_000);
    let first = pager(&list, Some(BLOCKS), None);
    let (mut got, state) = first_items(&rt, &first, 2_345);
    *list.shown.lock().unwrap() -= 600;
    let resumed = pager(&list, Some(BLOCKS), None);
    let position = crate::checkpoint::PagePosition::from_json(&state).unwrap();
    position.resume(&resumed).unwrap();
    let err = rt.block_on(resumed.collect(None, Ok)).unwrap_err();
    assert!(matches!(err, Error::Decode { .. }), "{err:?}");
    let text = err.to_string();
    assert!(text.contains("did not find the item its earlier walk stopped after (blockHash \"0x"), "{text}");
    assert!(text.contains("a replica behind"), "{text}");
    assert_eq!(resumed.position().items_read, 2_345, "nothing handed out");
    *list.shown.lock().unwrap() += 600 + 40;
    let later = pager(&list, Some(BLOCKS), None);
    position.resume(&later).unwrap();
    got.extend(rt.block_on(later.collect(None, Ok)).unwrap().concat());
    assert_eq!(numbers(&got), still(7_000));
    // a boundary without identities, or of a list without one, is refused before any request
    let p = pager(&still_list(10), None, None);
    let err = p.resume_after(None, 3, 4, &[["\"0x1\"".into(), "\"1\"".into()]]).unwrap_err().to_string();
    assert!(err.contains("boundary"), "{err}");
    let p = pager(&still_list(10), Some(BLOCKS), None);
    assert!(p.resume_after(None, 3, 4, &[]).unwrap_err().to_string().contains("boundary"));
}
