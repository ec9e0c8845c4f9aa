//! `reconcile` against the emulator, whose `C/block` index and Data API share one C-Chain: no
//! difference over a clean range; a node that lags behind the Data API shows its blocks extra.

use avax_data_core::data::{DataClient, DataClientOptions};
use avax_data_core::index::{IndexClient, IndexClientOptions, IndexPath};
use avax_data_core::reconcile::{differences_batch, Chain, Kind, Reconcile};
use avax_data_emulator::{Emulator, EmulatorConfig};

async fn emulator(containers: u64, data_blocks: u64) -> Emulator {
    Emulator::start(EmulatorConfig {
        default_count: containers,
        data_blocks_per_chain: data_blocks,
        ..EmulatorConfig::default()
    })
    .await
    .unwrap()
}

fn reconcile(emu: &Emulator, chain: Chain, start: u64, stop: u64) -> Reconcile {
    let index = IndexClient::new(&emu.url(), IndexClientOptions::default()).unwrap().chain(chain.index_path());
    let data = DataClient::new(Some(&emu.url()), DataClientOptions::default()).unwrap();
    Reconcile::new(index, data, chain, "mainnet", start, stop).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reconcile36_a_clean_c_chain_range_has_no_difference() {
    let emu = emulator(600, 600).await;
    let mut progress = 0;
    // Crosses the ApricotPhase3 and proposervm forks (heights 16, 48) and a chunk boundary.
    let (diffs, summary) = reconcile(&emu, Chain::C, 0, 300).run(|n| progress += n).await.unwrap();
    assert_eq!(diffs, vec![]);
    assert_eq!(progress, 300);
    assert_eq!(
        (summary.heights, summary.index_blocks, summary.data_blocks, summary.blocks_compared),
        (300, 300, 300, 300)
    );
    assert!(summary.index_transactions > 300, "{summary:?}");
    assert_eq!(summary.index_transactions, summary.data_transactions);
    assert_eq!((summary.missing, summary.extra, summary.different), (0, 0, 0));
    // Two index requests to start (tip, container 0), one per chunk of 256 heights; on the Data
    // API one per block and one per page of its transactions.
    assert_eq!(summary.index_requests, 4);
    assert!(summary.data_requests >= 600, "{summary:?}");
    assert_eq!(differences_batch(&diffs).num_rows(), 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reconcile36_a_node_behind_the_data_api_shows_the_blocks_it_lacks_as_extra() {
    let emu = emulator(300, 310).await;
    let tip = emu.container_count(IndexPath::CBlock);
    let (diffs, summary) = reconcile(&emu, Chain::C, tip - 5, tip + 5).run(|_| {}).await.unwrap();
    let heights: Vec<u64> = diffs.iter().map(|d| d.height).collect();
    assert_eq!(heights, (tip..tip + 5).collect::<Vec<_>>(), "{diffs:?}");
    let data = DataClient::new(Some(&emu.url()), DataClientOptions::default()).unwrap();
    for (d, h) in diffs.iter().zip(tip..) {
        assert_eq!((d.kind, d.field, d.index_value.as_deref()), (Kind::Extra, "block", None));
        let block = data.block("43114", &h.to_string()).unwrap().await.unwrap();
        assert_eq!(d.data_value.as_deref(), block.get("blockHash").and_then(|v| v.as_str()));
        assert_eq!(d.id, d.data_value.clone().unwrap());
    }
    assert_eq!((summary.index_blocks, summary.data_blocks, summary.extra), (5, 10, 5));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reconcile36_the_wrong_index_is_refused_before_any_request() {
    let emu = emulator(10, 10).await;
    let index = IndexClient::new(&emu.url(), IndexClientOptions::default()).unwrap().chain(IndexPath::PBlock);
    let data = DataClient::new(Some(&emu.url()), DataClientOptions::default()).unwrap();
    let err = Reconcile::new(index.clone(), data.clone(), Chain::C, "mainnet", 0, 5).err().unwrap();
    assert_eq!(err.to_string(), "invalid index=\"P/block\": the C/block index of chain C");
    let err = Reconcile::new(index, data, Chain::P, "devnet", 0, 5).err().unwrap();
    assert!(err.to_string().starts_with("invalid network=\"devnet\""), "{err}");
    assert_eq!(emu.request_count(), 0);
}
