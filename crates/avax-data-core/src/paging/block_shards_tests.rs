use super::*;

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
    assert_eq!(k.bounds(), (10, Some(20)));
    assert!(k.keeps(Some(10), &root) && k.keeps(Some(19), &root) && !k.keeps(Some(20), &root));
    assert!(!k.keeps(Some(9), &root) && k.keeps(None, &root));
    assert_eq!(root.bounds(), (0, None));
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
    assert_eq!(default_concurrency(20_000, None), 9);
    assert_eq!(default_concurrency(6_000, None), 3);
    assert_eq!(default_concurrency(20_000, Some(2.0)), 2);
    assert_eq!(default_concurrency(10_000_000, None), MAX_CONCURRENCY);
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
