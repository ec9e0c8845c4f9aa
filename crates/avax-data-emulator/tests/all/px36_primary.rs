//! The primary network from the P/X world (issue 36, sections 3 and 4): the `P/block`,
//! `X/block` and `X/tx` indexes on the world's one clock (ending just before now, `X/tx` at
//! Cortina where a node's `X/tx` stops; each stake's
//! tx in a block accepted in the second the stake starts), and the Data API's primary-network
//! blocks answered from the same containers (equal ids, heights and timestamps).

use avax_data_core::decode::{pchain as pdecode, proposervm as penv};
use avax_data_core::index::{cb58, IndexPath};
use avax_data_emulator::formats::p_rewards::start_height;
use avax_data_emulator::formats::px_clock::MIN_SPAN;
use avax_data_emulator::formats::{pxchains, stakes};
use avax_data_emulator::world::{Network, WORLD_NOW_MS};
use avax_data_emulator::{Emulator, EmulatorConfig};
use serde_json::Value;

use crate::common::{all_pages, error, ok};

const NOW_NS: i64 = WORLD_NOW_MS * 1_000_000;
const SEC: i64 = 1_000_000_000;
const CORTINA_NS: i64 = 1_682_434_800 * SEC;

async fn start(config: EmulatorConfig) -> Emulator {
    Emulator::start(config).await.expect("emulator starts")
}

fn p_block_of(bytes: &[u8], height: u64) -> pdecode::PBlock {
    let inner = if height < pxchains::P_FORK_HEIGHT { bytes } else { penv::parse(bytes).unwrap().inner };
    pdecode::decode_block(inner).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn px36_p_and_x_indexes_end_just_before_now_and_run_on_after_it() {
    for p_count in [None, Some(12_000), Some(500)] {
        let mut config = EmulatorConfig { seed: 6, ..Default::default() };
        if let Some(n) = p_count {
            config.containers.insert(IndexPath::PBlock, n);
        }
        let emu = start(config).await;
        // X/tx ends at Cortina (2023-04-25 15:00 UTC), where a node's X/tx index stops.
        for (path, end) in [(IndexPath::PBlock, NOW_NS), (IndexPath::XBlock, NOW_NS), (IndexPath::XTx, CORTINA_NS)] {
            let n = emu.container_count(path);
            let ts = |i: u64| emu.expected_container(path, i).unwrap().0.timestamp_ns;
            let span = n.max(MIN_SPAN);
            // The timeline's last height is accepted just before now (a shorter index holds its
            // first heights: a node behind).
            let last = ts(n - 1);
            assert!(last < end, "{path}: {last}");
            if n >= MIN_SPAN {
                assert!(end - last < 24 * 3_600 * SEC, "{path} ends near its end: {}", (end - last) / SEC);
            }
            let sample: Vec<i64> = (0..n).step_by(97).chain([n - 1]).map(ts).collect();
            assert!(sample.windows(2).all(|w| w[0] < w[1]), "{path} in time order");
            assert!(ts(0) < 1_700_000_000 * SEC, "{path} starts years back");
            // What is accepted later lies after now.
            emu.advance(path, span - n + 2);
            assert!(ts(span) > NOW_NS && ts(span + 1) > ts(span), "{path}");
            assert!(ts(span - 1) < end);
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn px36_each_stake_is_a_p_block_accepted_in_the_second_it_starts() {
    let emu = start(EmulatorConfig { seed: 2, ..Default::default() }).await;
    let chain = pxchains::p_chain(2, Network::Mainnet, MIN_SPAN);
    let cfg = *chain.inner().config();
    let all = stakes::stakes(2, Network::Mainnet);
    assert!(all.len() > 40);
    for (k, stake) in all.iter().enumerate() {
        let h = start_height(2, &cfg, k);
        let (container, _) = emu.expected_container(IndexPath::PBlock, h).unwrap();
        assert_eq!(container.timestamp_ns.div_euclid(SEC), stake.start as i64, "stake {k} at height {h}");
        let block = p_block_of(&container.bytes, h);
        assert_eq!(block.time, Some(stake.start), "the Banff block's time is the start");
        let staking: Vec<_> = block
            .txs
            .iter()
            .filter_map(|t| match &t.body {
                pdecode::PTxBody::AddPermissionlessValidator { validator, .. }
                | pdecode::PTxBody::AddPermissionlessDelegator { validator, .. } => Some(validator.clone()),
                _ => None,
            })
            .collect();
        assert_eq!(staking.len(), 1, "height {h}");
        assert_eq!(
            (staking[0].node_id, staking[0].start, staking[0].weight),
            (stake.node_id, stake.start, stake.weight)
        );
    }
}

/// `(height, id, parent id, seconds)` of the index's container `h` of `path`.
fn index_block(emu: &Emulator, path: IndexPath, h: u64) -> (u64, String, String, i64) {
    let (c, _) = emu.expected_container(path, h).unwrap();
    let parent = h.checked_sub(1).map_or(cb58::encode(&[0; 32]), |p| emu.expected_container(path, p).unwrap().0.id);
    (h, c.id, parent, c.timestamp_ns.div_euclid(SEC))
}

fn data_block(b: &Value) -> (u64, String, String, i64) {
    (
        b["blockNumber"].as_str().unwrap().parse().unwrap(),
        b["blockHash"].as_str().unwrap().to_string(),
        b["parentHash"].as_str().unwrap().to_string(),
        b["blockTimestamp"].as_i64().unwrap(),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn px36_data_api_p_and_x_blocks_are_the_index_containers() {
    let emu = start(EmulatorConfig { seed: 3, ..Default::default() }).await;
    for (alias, path) in [("p-chain", IndexPath::PBlock), ("x-chain", IndexPath::XBlock)] {
        let n = emu.container_count(path);
        let body = ok(&emu, &format!("/v1/networks/mainnet/blockchains/{alias}/blocks?pageSize=40")).await;
        assert_eq!(body["chainInfo"], serde_json::json!({"chainName": alias, "network": "mainnet"}));
        let blocks = body["blocks"].as_array().unwrap();
        assert_eq!(blocks.len(), 40);
        for (k, b) in blocks.iter().enumerate() {
            let want = index_block(&emu, path, n - 1 - k as u64);
            assert_eq!(data_block(b), want, "{alias} newest first");
            let txs = b["transactions"].as_array().unwrap();
            assert_eq!(b["txCount"].as_u64(), Some(txs.len() as u64));
            let (c, _) = emu.expected_container(path, want.0).unwrap();
            assert_eq!(b["blockSizeBytes"].as_u64(), Some(c.bytes.len() as u64));
        }
        // A block by its id, by its height; the same answer as in the list.
        let one = ok(
            &emu,
            &format!("/v1/networks/mainnet/blockchains/{alias}/blocks/{}", blocks[7]["blockHash"].as_str().unwrap()),
        )
        .await;
        assert_eq!(&one, &blocks[7]);
        let by_height = ok(&emu, &format!("/v1/networks/mainnet/blockchains/{alias}/blocks/{}", n - 8)).await;
        assert_eq!(&by_height, &blocks[7]);
        let unknown = cb58::encode(&[7; 32]);
        error(&emu, &format!("/v1/networks/mainnet/blockchains/{alias}/blocks/{unknown}"), 404, "Not Found").await;
        error(&emu, &format!("/v1/networks/mainnet/blockchains/{alias}/blocks/{n}"), 404, "Not Found").await;
        error(&emu, &format!("/v1/networks/mainnet/blockchains/{alias}/blocks/0xzz"), 400, "Bad Request").await;
    }
    // The P-chain's first blocks: raw Apricot blocks from genesis (2020-09-21).
    let (list, _) = all_pages(
        &emu,
        "/v1/networks/mainnet/blockchains/p-chain/blocks?pageSize=100&endTimestamp=1632344400",
        "blocks",
    )
    .await;
    assert_eq!(list.len(), 101, "heights 0..=100 up to the fork second");
    assert_eq!(data_block(list.last().unwrap()), index_block(&emu, IndexPath::PBlock, 0));
    assert!(list.last().unwrap()["blockType"].as_str().unwrap().starts_with("Apricot"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn px36_primary_blocks_filter_by_time_and_refuse_what_the_world_lacks() {
    let emu = start(EmulatorConfig { seed: 3, ..Default::default() }).await;
    let n = emu.container_count(IndexPath::PBlock);
    let (_, _, _, t_hi) = index_block(&emu, IndexPath::PBlock, n - 20);
    let (_, _, _, t_lo) = index_block(&emu, IndexPath::PBlock, n - 30);
    let path =
        format!("/v1/networks/mainnet/blockchains/p-chain/blocks?startTimestamp={t_lo}&endTimestamp={t_hi}&pageSize=4");
    let (blocks, pages) = all_pages(&emu, &path, "blocks").await;
    let heights: Vec<u64> = blocks.iter().map(|b| data_block(b).0).collect();
    assert_eq!(heights, (n - 30..=n - 20).rev().collect::<Vec<_>>());
    assert_eq!(pages, 3);
    let m = error(&emu, "/v1/networks/mainnet/blockchains/q-chain/blocks", 400, "Bad Request").await;
    assert!(m.to_string().contains("blockchainId must be one of the following values"), "{m}");
    let m = error(&emu, "/v1/networks/mainnet/blockchains/c-chain/blocks", 400, "Bad Request").await;
    assert!(m.to_string().contains("C-Chain"), "{m}");
    let m = error(&emu, "/v1/networks/fuji/blockchains/x-chain/blocks", 400, "Bad Request").await;
    assert!(m.to_string().contains("fuji"), "{m}");
    let m = error(&emu, "/v1/networks/mainnet/blockchains/p-chain/blocks?startTimestamp=-5", 400, "Bad Request").await;
    assert!(m.to_string().contains("startTimestamp"), "{m}");
    // Fuji's P-chain is the world's Fuji P-chain, on the same clock.
    let fuji = ok(&emu, "/v1/networks/fuji/blockchains/p-chain/blocks?pageSize=1").await;
    assert_eq!(fuji["chainInfo"]["network"], "fuji");
    let newest = data_block(&fuji["blocks"][0]);
    assert_eq!(newest.0, MIN_SPAN - 1);
    assert!(newest.3 < WORLD_NOW_MS / 1000 && newest.3 > WORLD_NOW_MS / 1000 - 86_400);
    let none =
        ok(&emu, "/v1/networks/mainnet/blockchains/p-chain/nodes/NodeID-JituKJdekYhyy2uuW5vFBtJ5LbzNsXbuE/blocks")
            .await;
    assert_eq!(none["blocks"], serde_json::json!([]));
    error(&emu, "/v1/networks/mainnet/blockchains/p-chain/nodes/JituKJ/blocks", 400, "Bad Request").await;
}
