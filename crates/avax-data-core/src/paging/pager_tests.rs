//! The pager state machine against a scripted cursor-paged service: resume mid-page, limit cuts,
//! empty and short pages, failures at any request, superseded consumers, and a property test of
//! random schedules in which what the caller received always equals the fault-free walk.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use proptest::prelude::*;
use serde_json::{json, Value};

use super::scripted_source::{Answers, Scripted};
use super::*;
use crate::paging::{JsonItem, Page};

/// What the scripted service does to one request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Act {
    Serve,
    Fail,
    /// Fewer items than asked (a valid shorter page with the right next token).
    Short,
    /// No items, but a next token.
    Empty,
    /// The true page, but its next token is the one the request carried (a server that loops;
    /// served normally on the first page, which has no token).
    Loop,
}

/// A cursor-paged service of the items `0..total`: token `o{n}` starts at item n.
struct Script {
    total: u64,
    page_size: u64,
    acts: Mutex<Vec<Act>>,
    requests: AtomicU64,
    asked: Mutex<Vec<(Option<String>, u64)>>,
}

impl Script {
    fn new(total: u64, page_size: u64, acts: Vec<Act>) -> Arc<Self> {
        Arc::new(Script {
            total,
            page_size,
            acts: Mutex::new(acts),
            requests: AtomicU64::new(0),
            asked: Mutex::default(),
        })
    }

    fn answer(&self, token: Option<String>, at_most: Option<u64>) -> Result<Page<Value>> {
        self.requests.fetch_add(1, Ordering::SeqCst);
        let act = {
            let mut acts = self.acts.lock().unwrap();
            if acts.is_empty() {
                Act::Serve
            } else {
                acts.remove(0)
            }
        };
        let start: u64 = token.as_deref().map_or(0, |t| t[1..].parse().unwrap());
        let size = at_most.map_or(self.page_size, |a| a.min(self.page_size));
        self.asked.lock().unwrap().push((token.clone(), size));
        let count = match act {
            Act::Fail => return Err(Error::Internal(format!("scripted failure at {token:?}"))),
            Act::Serve => size,
            Act::Short => size.div_ceil(2).min(size.saturating_sub(1)).max(1),
            Act::Empty => 0,
            Act::Loop => size,
        };
        let end = (start + count).min(self.total);
        let items = (start..end).map(|i| json!(i)).collect();
        let mut next = (end < self.total).then(|| format!("o{end}"));
        if act == Act::Loop && token.is_some() && next.is_some() {
            next = token;
        }
        Ok(Page { items, next_page_token: next })
    }
}

impl Answers for Script {
    fn answer(&self, token: Option<String>, at_most: Option<u64>) -> Result<Page<JsonItem>> {
        let page = Script::answer(self, token, at_most)?;
        Ok(Page { items: page.items.into_iter().map(JsonItem::from).collect(), next_page_token: page.next_page_token })
    }

    fn name(&self) -> String {
        "/script".into()
    }
}

fn pager(script: &Arc<Script>, limit: Option<u64>) -> Pager {
    Pager::new(Arc::new(Scripted(script.clone())), limit, 2)
}

fn numbers(items: &[JsonItem]) -> Vec<u64> {
    items.iter().map(|v| v.to_exact().unwrap().as_u64().unwrap()).collect()
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap()
}

#[test]
fn items_resume_mid_page_exactly_in_a_new_cursor() {
    let rt = runtime();
    let script = Script::new(25, 10, vec![]);
    let p = pager(&script, None);
    let got = rt.block_on(async {
        let mut first = p.cursor();
        let mut got = Vec::new();
        for _ in 0..13 {
            got.push(first.next_item().await.unwrap().unwrap());
        }
        let position = p.position();
        assert_eq!((position.next_page_token(), position.offset, position.items_read), (Some("o10"), 3, 13));
        drop(first);
        let mut second = p.cursor();
        while let Some(item) = second.next_item().await.unwrap() {
            got.push(item);
        }
        got
    });
    assert_eq!(numbers(&got), (0..25).collect::<Vec<_>>());
    let position = p.position();
    assert!(position.exhausted);
    assert_eq!((position.next_page_token(), position.items_read), (None, 25));
}

#[test]
fn a_limit_costs_no_request_it_does_not_need_and_the_last_asks_for_what_is_left() {
    let rt = runtime();
    let script = Script::new(1000, 10, vec![]);
    let p = pager(&script, Some(25));
    let frame = rt.block_on(p.collect(None, |items| Ok(numbers(&items)))).unwrap();
    assert_eq!(frame.concat(), (0..25).collect::<Vec<_>>());
    assert_eq!(*script.asked.lock().unwrap(), vec![(None, 10), (Some("o10".into()), 10), (Some("o20".into()), 5)]);
    // The limit is spent: nothing more is fetched by any consumer.
    let more = rt.block_on(async { p.cursor().next_item().await }).unwrap();
    assert_eq!(more, None);
    assert_eq!(script.requests.load(Ordering::SeqCst), 3);
    // limit=5 with pages of 10: one request of 5.
    let script = Script::new(1000, 10, vec![]);
    let p = pager(&script, Some(5));
    let got = rt.block_on(async {
        let mut c = p.cursor();
        let mut got = Vec::new();
        while let Some(item) = c.next_item().await.unwrap() {
            got.push(item);
        }
        got
    });
    assert_eq!(numbers(&got), vec![0, 1, 2, 3, 4]);
    assert_eq!(*script.asked.lock().unwrap(), vec![(None, 5)]);
    assert_eq!(p.position().next_page_token(), Some("o5"));
}

#[test]
fn collect_is_all_or_nothing_and_resumes_where_it_began() {
    let rt = runtime();
    // pages: 0..10 served, 10..20 fails
    let script = Script::new(30, 10, vec![Act::Serve, Act::Fail]);
    let p = pager(&script, None);
    let err = rt.block_on(p.collect(None, |items| Ok(numbers(&items)))).unwrap_err();
    assert!(err.to_string().contains("scripted failure at Some(\"o10\")"), "{err}");
    assert_eq!(p.position().items_read, 0, "nothing was handed over");
    let all = rt.block_on(p.collect(None, |items| Ok(numbers(&items)))).unwrap();
    assert_eq!(all.concat(), (0..30).collect::<Vec<_>>());
}

#[test]
fn drain_moves_the_position_page_by_page_and_a_failed_sink_keeps_its_page() {
    let rt = runtime();
    let script = Script::new(30, 10, vec![]);
    let p = pager(&script, None);
    let mut sunk = Vec::new();
    let mut calls = 0;
    let err = rt
        .block_on(p.drain(|items| {
            calls += 1;
            if calls == 2 {
                return Err(Error::Internal("disk full".into()));
            }
            sunk.extend(numbers(&items));
            Ok(())
        }))
        .unwrap_err();
    assert_eq!(err.to_string(), "internal error (please report it): disk full");
    assert_eq!(sunk, (0..10).collect::<Vec<_>>());
    assert_eq!((p.position().next_page_token(), p.position().items_read), (Some("o10"), 10));
    let written = rt
        .block_on(p.drain(|items| {
            sunk.extend(numbers(&items));
            Ok(())
        }))
        .unwrap();
    assert_eq!(written, 20);
    assert_eq!(sunk, (0..30).collect::<Vec<_>>());
}

#[test]
fn empty_pages_move_the_walk_on_and_an_older_consumer_is_superseded() {
    let rt = runtime();
    let script = Script::new(12, 5, vec![Act::Empty, Act::Serve, Act::Empty]);
    let p = pager(&script, None);
    rt.block_on(async {
        let mut old = p.cursor();
        assert_eq!(old.next_item().await.unwrap(), Some(JsonItem::from(json!(0))));
        let mut new = p.cursor();
        assert!(matches!(old.next_item().await, Err(Error::Superseded)));
        assert!(matches!(old.next_page().await, Err(Error::Superseded)));
        let mut rest = Vec::new();
        while let Some(page) = new.next_page().await.unwrap() {
            rest.extend(numbers(&page));
        }
        assert_eq!(rest, (1..12).collect::<Vec<_>>());
    });
    assert!(p.position().exhausted);
}

/// Walks `script` to its end with one cursor, going on after every error (each shown to `check`
/// with the position the pager kept): the numbers handed out and how many errors came.
fn walk_through_errors(script: &Arc<Script>, check: impl Fn(&Error, &Position)) -> (Vec<u64>, usize) {
    let p = pager(script, None);
    let (got, errors) = runtime().block_on(async {
        let (mut c, mut got, mut errors) = (p.cursor(), Vec::new(), 0);
        loop {
            match c.next_item().await {
                Ok(Some(item)) => got.push(item),
                Ok(None) => return (got, errors),
                Err(e) => {
                    check(&e, &p.position());
                    errors += 1;
                }
            }
        }
    });
    (numbers(&got), errors)
}

#[test]
fn a_page_whose_next_token_loops_is_not_handed_out_so_a_resumed_walk_repeats_nothing() {
    // The second page (o10) names itself as the next page: the walk stops with PageTokenLoop
    // before handing it out; resuming asks for o10 again, which is then served normally.
    let script = Script::new(30, 10, vec![Act::Serve, Act::Loop]);
    let (got, errors) = walk_through_errors(&script, |err, position| {
        assert!(matches!(err, Error::PageTokenLoop { ref token, .. } if token == "o10"), "{err:?}");
        assert_eq!((position.next_page_token(), position.items_read), (Some("o10"), 10));
    });
    assert_eq!((got, errors), ((0..30).collect::<Vec<_>>(), 1));
}

#[test]
fn an_error_mid_walk_leaves_the_cursor_usable_from_the_position() {
    let script = Script::new(20, 5, vec![Act::Serve, Act::Fail]);
    let (got, errors) = walk_through_errors(&script, |err, position| {
        assert_eq!((position.next_page_token(), position.items_read), (Some("o5"), 5), "{err}");
    });
    assert_eq!((got, errors), ((0..20).collect::<Vec<_>>(), 1));
}

/// A consumer's step in a random schedule.
#[derive(Debug, Clone)]
enum Step {
    Items(u8),
    Page,
    Collect(Option<u8>),
    /// A sink that fails at its `fail_after`-th page (in the first round only).
    Drain {
        fail_after: u8,
    },
    NewCursor,
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        (1u8..30).prop_map(Step::Items),
        Just(Step::Page),
        proptest::option::of(1u8..40).prop_map(Step::Collect),
        (0u8..4).prop_map(|fail_after| Step::Drain { fail_after }),
        Just(Step::NewCursor),
    ]
}

fn act() -> impl Strategy<Value = Act> {
    prop_oneof![
        6 => Just(Act::Serve),
        2 => Just(Act::Fail),
        1 => Just(Act::Short),
        1 => Just(Act::Empty),
        1 => Just(Act::Loop)
    ]
}

/// Runs `steps` (repeated until the walk ends) against a faulty service; returns what the
/// caller was handed, in order.
fn run_schedule(total: u64, page_size: u64, limit: Option<u64>, acts: Vec<Act>, mut steps: Vec<Step>) -> Vec<u64> {
    // Every round hands out something, so the walk ends.
    steps.push(Step::Items(1));
    let rt = runtime();
    let script = Script::new(total, page_size, acts);
    let p = pager(&script, limit);
    rt.block_on(async {
        let mut got = Vec::new();
        let mut cursor = p.cursor();
        let mut rounds = 0;
        while !p.position().exhausted && p.remaining() != Some(0) {
            rounds += 1;
            assert!(rounds < 10_000, "the walk does not end");
            for step in &steps {
                match step {
                    Step::Items(n) => {
                        for _ in 0..*n {
                            match cursor.next_item().await {
                                Ok(Some(item)) => got.push(item.to_exact().unwrap().as_u64().unwrap()),
                                Ok(None) | Err(_) => break,
                            }
                        }
                    }
                    Step::Page => {
                        if let Ok(Some(page)) = cursor.next_page().await {
                            got.extend(numbers(&page));
                        }
                    }
                    Step::Collect(cap) => {
                        if let Ok(pages) = p.collect(cap.map(u64::from), |items| Ok(numbers(&items))).await {
                            got.extend(pages.concat());
                        }
                        cursor = p.cursor();
                    }
                    Step::Drain { fail_after } => {
                        let mut pages = 0;
                        let _ = p
                            .drain(|items| {
                                if rounds == 1 && pages == *fail_after {
                                    return Err(Error::Internal("sink failed".into()));
                                }
                                pages += 1;
                                got.extend(numbers(&items));
                                Ok(())
                            })
                            .await;
                        cursor = p.cursor();
                    }
                    Step::NewCursor => cursor = p.cursor(),
                }
            }
        }
        got
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// Whatever fails and however the caller consumes and resumes, the items handed over are
    /// the fault-free walk: in order, no gap, no duplicate, and exactly `limit` of them.
    #[test]
    fn random_schedules_hand_out_exactly_the_fault_free_walk(
        total in 0u64..120,
        page_size in 1u64..17,
        limit in proptest::option::of(0u64..150),
        acts in proptest::collection::vec(act(), 0..40),
        steps in proptest::collection::vec(step(), 1..6),
    ) {
        let got = run_schedule(total, page_size, limit, acts, steps);
        let expected: Vec<u64> = (0..limit.map_or(total, |l| l.min(total))).collect();
        prop_assert_eq!(got, expected);
    }
}

#[test]
fn a_spent_pager_says_so_and_restart_walks_again_from_the_start() {
    let rt = runtime();
    let script = Script::new(25, 10, vec![]);
    let p = pager(&script, None);
    assert_eq!(p.spent(), None, "a fresh pager has items");
    let all = rt.block_on(p.collect(None, |items| Ok(numbers(&items)))).unwrap();
    assert_eq!(all.concat(), (0..25).collect::<Vec<_>>());
    let notice = p.spent().expect("an exhausted pager says so");
    assert!(
        notice.contains("/script") && notice.contains("exhausted") && notice.contains("next_page_token"),
        "{notice}"
    );
    assert!(notice.contains(".restart()") && notice.contains("25 items"), "{notice}");
    let again = p.restart();
    assert_eq!((again.spent(), again.position().items_read), (None, 0));
    let twice = rt.block_on(again.collect(None, |items| Ok(numbers(&items)))).unwrap();
    assert_eq!(twice.concat(), (0..25).collect::<Vec<_>>());
    assert_eq!(p.position().items_read, 25, "the old pager keeps its position");

    // A spent limit says so too; restart keeps the limit. A pager stopped early does not.
    let p = pager(&Script::new(100, 10, vec![]), Some(12));
    let taken = rt.block_on(p.collect(Some(5), |items| Ok(numbers(&items)))).unwrap();
    assert_eq!((taken.concat().len(), p.spent()), (5, None));
    let _ = rt.block_on(p.collect(None, |items| Ok(numbers(&items)))).unwrap();
    let notice = p.spent().expect("the limit is spent");
    assert!(notice.contains("limit=12") && notice.contains("items_read=12"), "{notice}");
    let again = p.restart();
    let first = rt.block_on(again.collect(None, |items| Ok(numbers(&items)))).unwrap();
    assert_eq!(first.concat(), (0..12).collect::<Vec<_>>());
    // limit=0 asked for nothing: nothing to warn about.
    assert_eq!(pager(&Script::new(5, 10, vec![]), Some(0)).spent(), None);
}
