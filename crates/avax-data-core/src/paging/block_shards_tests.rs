use super::*;
use crate::paging::JsonItem;

fn key(low: u64, high: Option<u64>, planned: u64) -> ShardKey {
    ShardKey { low, high, planned, token: None }
}

#[test]
fn a_key_is_its_own_resume_token_and_other_texts_are_not_keys() {
    let k = ShardKey { low: 7, high: Some(99), planned: 3, token: Some("a:b:c".into()) };
    assert_eq!(k.encode(), "avax-shard:1:7:99:3:a:b:c");
    assert_eq!(ShardKey::decode(&k.encode()).unwrap().unwrap(), k);
    let open = key(0, None, 0);
    assert_eq!(ShardKey::decode(&open.encode()).unwrap().unwrap(), open);
    assert!(ShardKey::decode("eyJ0b2tlbiI6MX0").is_none(), "a token of the service");
    for bad in ["avax-shard:1:9:3:0:", "avax-shard:1:x:-:0:", "avax-shard:1:1:2"] {
        let err = ShardKey::decode(bad).unwrap().unwrap_err().to_string();
        assert!(err.contains("page_token") && err.contains(bad), "{err}");
    }
}

#[test]
fn a_shard_asks_its_end_exclusive_and_keeps_only_its_blocks() {
    let (root, k) = (key(0, None, 0), key(10, Some(19), 0));
    let open = Range::new(Axis::Blocks, None, None).unwrap();
    assert_eq!(open.root, root);
    assert_eq!(open.ask(&k), (Some(10), Some(20)));
    assert!(k.keeps(Some(10), &root) && k.keeps(Some(19), &root) && !k.keeps(Some(20), &root));
    assert!(!k.keeps(Some(9), &root) && k.keeps(None, &root));
    assert_eq!(open.ask(&root), (Some(0), None));
    // at the walk's own bounds the service's items are kept as sent (as the sequential walk does)
    let bounded = key(10, Some(19), 0);
    assert!(bounded.keeps(Some(5), &bounded) && bounded.keeps(Some(25), &bounded));
    let top_piece = key(15, Some(19), 0);
    assert!(top_piece.keeps(Some(25), &bounded) && !top_piece.keeps(Some(14), &bounded));
}

#[test]
fn block_numbers_are_read_as_text_number_or_from_the_native_transaction() {
    let item = |t: &str| JsonItem::from_text(t.to_string());
    assert_eq!(block_of(&item(r#"{"blockNumber":"123","x":1}"#)), Some(123));
    assert_eq!(block_of(&item(r#"{"blockNumber":45}"#)), Some(45));
    assert_eq!(block_of(&item(r#"{"nativeTransaction":{"blockNumber":"9","a":[1]}}"#)), Some(9));
    assert_eq!(block_of(&item(r#"{"other":1}"#)), None);
}

#[test]
fn a_page_without_a_next_token_ends_its_shard() {
    assert_eq!(split(&key(0, Some(100), 0), &[Some(50)], None, 10, 4), Next::End);
}

#[test]
fn a_sparse_page_goes_on_with_its_token() {
    // 10 items over 50 blocks, 40 blocks left: about one page more
    let blocks: Vec<Option<u64>> = (0..10).map(|i| Some(100 - 5 * i)).collect();
    assert_eq!(split(&key(15, Some(100), 0), &blocks, Some("t".into()), 10, 4), Next::Token("t".into()));
}

#[test]
fn a_page_of_one_block_or_reaching_the_low_end_goes_on_with_its_token() {
    let one = vec![Some(500); 10];
    assert_eq!(split(&key(0, None, 0), &one, Some("t".into()), 10, 4), Next::Token("t".into()));
    let to_low: Vec<Option<u64>> = (0..10).map(|i| Some(9 - i / 2)).collect();
    assert_eq!(split(&key(5, Some(9), 0), &to_low, Some("t".into()), 10, 4), Next::Token("t".into()));
}

#[test]
fn a_dense_shard_splits_into_pieces_that_tile_its_rest_exactly() {
    // 100 items over blocks 1000..=991 (ten a block), 991 blocks left below: ~99 pages
    let blocks: Vec<Option<u64>> = (0..100).map(|i| Some(1000 - i / 10)).collect();
    let Next::Split { keep, pieces } = split(&key(0, None, 0), &blocks, Some("t".into()), 100, 4) else {
        panic!("a dense page splits")
    };
    assert_eq!(keep, 90, "the items of the page's last block come again with the first piece");
    assert_eq!(pieces.len(), 16, "4 pieces a call in flight");
    assert_eq!(pieces[0].high, Some(991));
    assert_eq!(pieces.last().unwrap().low, 0);
    for pair in pieces.windows(2) {
        assert_eq!(pair[1].high.unwrap() + 1, pair[0].low, "no gap, no overlap");
    }
    assert!(pieces.iter().all(|p| p.planned == 7 && p.token.is_none() && p.low <= p.high.unwrap()));
    // a piece as dense as planned goes on; one much denser splits again
    let piece = &pieces[3];
    let at_plan: Vec<Option<u64>> = (0..100).map(|i| Some(piece.high.unwrap() - i / 10)).collect();
    assert_eq!(split(piece, &at_plan, Some("u".into()), 100, 4), Next::Token("u".into()));
    let denser: Vec<Option<u64>> = (0..100).map(|i| Some(piece.high.unwrap() - i / 50)).collect();
    assert!(matches!(split(piece, &denser, Some("u".into()), 100, 4), Next::Split { .. }));
}

#[test]
fn a_split_never_cuts_more_pieces_than_blocks() {
    let blocks: Vec<Option<u64>> = (0..100).map(|i| Some(12 - i / 40)).collect(); // 12, 11, 10
    match split(&key(7, Some(12), 0), &blocks, Some("t".into()), 10, 16) {
        Next::Split { keep, pieces } => {
            assert_eq!(keep, 80);
            assert_eq!(pieces.len(), 4, "blocks 7..=10");
            assert!(pieces.iter().all(|p| p.low == p.high.unwrap()));
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn the_default_concurrency_fills_the_tier_budget_at_half_a_second_a_page() {
    assert_eq!(default_concurrency(20_000, PAGE_UNITS, None), 9);
    assert_eq!(default_concurrency(6_000, PAGE_UNITS, None), 3);
    assert_eq!(default_concurrency(20_000, PAGE_UNITS, Some(2.0)), 2);
    assert_eq!(default_concurrency(10_000_000, PAGE_UNITS, None), MAX_CONCURRENCY);
    // a list of 100 units a page (the primary network's transactions): pro fills 2 calls, not 9
    assert_eq!(default_concurrency(20_000, 100.0, None), 2);
    assert_eq!(default_concurrency(60_000, 100.0, None), 5);
}

#[test]
fn concurrency_is_checked_with_a_message_naming_what_is_allowed() {
    assert_eq!(check_concurrency(1).unwrap(), 1);
    assert_eq!(check_concurrency(64).unwrap(), 64);
    for bad in [0, -3, 65] {
        let err = check_concurrency(bad).unwrap_err().to_string();
        assert_eq!(err, format!("invalid concurrency={bad}: an int in [1, 64]"));
    }
}

#[test]
fn an_empty_range_is_none_and_a_bounded_one_asks_its_own_ends_at_its_edges() {
    assert_eq!(Range::new(Axis::Blocks, Some(100), Some(100)), None);
    assert_eq!(Range::new(Axis::Blocks, None, Some(0)), None);
    let blocks = Range::new(Axis::Blocks, Some(100), Some(200)).unwrap();
    assert_eq!(blocks.root, key(100, Some(199), 0));
    assert_eq!(blocks.ask(&blocks.root), (Some(100), Some(200)));
    assert_eq!(blocks.ask(&key(150, Some(199), 0)), (Some(150), Some(200)));
    assert_eq!(blocks.ask(&key(100, Some(149), 0)), (Some(100), Some(150)));
}

#[test]
fn a_window_counts_its_end_in_and_a_cut_edge_asks_one_second_past_it() {
    let seconds = Axis::Seconds { earliest: 1_000 };
    // a window of one second is no empty one; an end before the start is
    assert_eq!(Range::new(seconds, Some(5_000), Some(5_000)).unwrap().root, key(5_000, Some(5_000), 0));
    assert_eq!(Range::new(seconds, Some(5_000), Some(4_999)), None);
    let open = Range::new(seconds, None, None).unwrap();
    assert_eq!(open.root, key(1_000, None, 0), "down to the operation's earliest second");
    assert_eq!(open.ask(&open.root), (None, None), "no bound the request did not give");
    // a piece of seconds 2000..=2999 asks 1999..=3000 and keeps 2000..=2999
    let piece = key(2_000, Some(2_999), 0);
    assert_eq!(open.ask(&piece), (Some(1_999), Some(3_000)));
    assert!(!piece.keeps(Some(1_999), &open.root) && piece.keeps(Some(2_000), &open.root));
    assert!(piece.keeps(Some(2_999), &open.root) && !piece.keeps(Some(3_000), &open.root));
    let window = Range::new(seconds, Some(2_000), Some(9_000)).unwrap();
    assert_eq!(window.ask(&key(2_000, Some(4_000), 0)), (Some(2_000), Some(4_001)));
    assert_eq!(window.ask(&key(4_001, Some(9_000), 0)), (Some(4_000), Some(9_000)));
}

#[test]
fn a_position_holds_its_shard_and_the_shards_queued_after_it() {
    let at = ShardKey { low: 50, high: Some(99), planned: 2, token: Some("t:1".into()) };
    let queued = [key(40, Some(49), 3), key(0, Some(39), 0)];
    let text = Resume::encode(&at, &queued);
    assert_eq!(text, "avax-shard:2:50:99:2:40.49.3,0.39.0:t:1");
    let back = Resume::decode(&text).unwrap().unwrap();
    assert_eq!(back, Resume { key: at.clone(), queued: Some(queued.to_vec()) });
    // nothing queued after the last shard; an open shard
    let last = Resume::encode(&key(0, None, 0), &[]);
    assert_eq!(Resume::decode(&last).unwrap().unwrap(), Resume { key: key(0, None, 0), queued: Some(Vec::new()) });
    // a token of the first version names the shard only
    let old = Resume::decode("avax-shard:1:7:99:3:abc").unwrap().unwrap();
    assert_eq!((old.key.low, old.key.token.as_deref(), old.queued), (7, Some("abc"), None));
    assert!(Resume::decode("eyJ0b2tlbiI6MX0").is_none(), "a token of the service");
    for bad in ["avax-shard:2:9:3:0::", "avax-shard:2:1:9:0:5.2.0:", "avax-shard:2:1:9:0:1.2:", "avax-shard:2:1:9:0"] {
        let err = Resume::decode(bad).unwrap().unwrap_err().to_string();
        assert!(err.contains("page_token") && err.contains(bad), "{err}");
    }
}
