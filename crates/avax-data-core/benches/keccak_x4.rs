//! keccak256 one message at a time (CRYPTOGAMS' assembly, `keccak-asm`) against four at a time
//! (`avax_data_keccak`: AVX2 and AVX-512VL paths) over the messages a C/block decode hashes:
//! each emulator block's header and transactions, batched per block as the decoder batches them
//! (`Batch`), and the same messages in groups of four of equal length (the best case). Each
//! round runs the contenders in turn (order alternating); medians of the process's CPU time.
//!
//! ```sh
//! cargo bench -p avax-data-core --bench keccak_x4 [-- CONTAINERS ROUNDS]   # 2000 9
//! ```

use avax_data_core::decode::cchain::{keccak256, Path};
use avax_data_core::decode::proposervm;
use avax_data_core::decode::rlp::Items;
use avax_data_core::index::IndexPath;
use avax_data_emulator::formats::random::container;
use avax_data_keccak::{keccak256_x4_on, Batch};
use std::hint::black_box;

mod common;
use common::alternate;

/// The messages each block's decode hashes: its header, then its transactions.
fn messages(count: u64) -> Vec<Vec<Vec<u8>>> {
    (0..count)
        .map(|i| {
            let (c, _) = container(1, IndexPath::CBlock, i, 0);
            let inner = proposervm::parse(&c.bytes).map_or(c.bytes.as_slice(), |e| e.inner);
            let mut top = Items::new(inner, 0);
            let mut block = top.list("block").expect("a block");
            let mut out = vec![block.item("header").expect("a header").raw.to_vec()];
            let mut txs = block.list("transactions").expect("transactions");
            while let Some(tx) = txs.next_item("tx").expect("a tx") {
                out.push((if tx.is_list { tx.raw } else { tx.payload }).to_vec());
            }
            out
        })
        .collect()
}

fn main() {
    let mut args = std::env::args().skip(1).filter(|a| !a.starts_with('-'));
    let count: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(2_000);
    let rounds: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(9);
    let blocks = messages(count);
    let all: Vec<&[u8]> = blocks.iter().flatten().map(Vec::as_slice).collect();
    let total = all.len();
    let mut sorted = all.clone();
    sorted.sort_by_key(|m| m.len());
    let bytes: usize = all.iter().map(|m| m.len()).sum();
    let batched = |path: Path| {
        for block in &blocks {
            let mut batch = Batch::on(path);
            for (id, m) in block.iter().enumerate() {
                batch.push(id, m, &mut |id, hash| {
                    black_box((id, hash));
                });
            }
            batch.finish(&mut |id, hash| {
                black_box((id, hash));
            });
        }
    };
    let in_fours = |path: Path| {
        for four in sorted.chunks_exact(4) {
            black_box(keccak256_x4_on(path, [four[0], four[1], four[2], four[3]]));
        }
    };
    let (batched, in_fours) = (&batched, &in_fours);
    type Run<'a> = (String, Box<dyn Fn() + 'a>);
    let mut runs: Vec<Run<'_>> = vec![(
        "one at a time".into(),
        Box::new(|| {
            for m in &all {
                black_box(keccak256(m));
            }
        }),
    )];
    for path in [Path::Avx2, Path::Avx512] {
        if path.available() {
            runs.push((format!("{path:?} per block"), Box::new(move || batched(path))));
            runs.push((format!("{path:?} sorted fours"), Box::new(move || in_fours(path))));
        }
    }
    let medians = alternate(&runs.iter().map(|(_, run)| run.as_ref()).collect::<Vec<_>>(), rounds);
    println!(
        "{count} C/block containers: {total} messages (headers and transactions), {:.0} bytes on average, {rounds} rounds (medians); detected path {:?}",
        bytes as f64 / total as f64,
        Path::detect()
    );
    let base = medians[0];
    for (k, (name, _)) in runs.iter().enumerate() {
        let t = medians[k];
        println!(
            "  {name:<22} {:7.1} ns a message {:6.2} µs a container  {:.2}x",
            t * 1e9 / total as f64,
            t * 1e6 / count as f64,
            base / t
        );
    }
}
