//! What decoding C/block containers costs without the network: the emulator's containers made
//! in this process, then decoded to one record batch per piece of 1,024 (as a walk decodes its
//! answers) with every column, and with the hashes skipped (`columns=` without one); beside
//! them the keccak256 floor (the block and transaction hashes alone, over the same bytes).
//! Each round runs the contenders in turn (order alternating); the report gives medians of the
//! process's CPU time (`clock_gettime(CLOCK_PROCESS_CPUTIME_ID)`: on a shared machine the wall
//! time counts the other processes too), in µs a container.
//!
//! ```sh
//! cargo bench -p avax-data-core --bench decode_cblock [-- CONTAINERS ROUNDS]   # 20000 7
//! ```

use avax_data_core::arrow::decoded::{decode_containers, decode_containers_with, DecodeMode};
use avax_data_core::decode::cchain::{keccak256, Hashes};
use avax_data_core::decode::proposervm;
use avax_data_core::decode::rlp::Items;
use avax_data_core::index::{Container, IndexPath};
use avax_data_emulator::formats::random::container;
use std::hint::black_box;

mod common;
use common::alternate;

const PIECE: usize = 1024;

/// keccak256 of each block header and each transaction: the hashes a full decode computes.
fn hashes_only(containers: &[Container]) -> usize {
    let mut n = 0;
    for c in containers {
        let inner = proposervm::parse(&c.bytes).map_or(c.bytes.as_slice(), |e| e.inner);
        let mut top = Items::new(inner, 0);
        let mut block = top.list("block").expect("a block");
        let header = block.item("header").expect("a header");
        black_box(keccak256(header.raw));
        let mut txs = block.list("transactions").expect("transactions");
        while let Some(tx) = txs.next_item("tx").expect("a tx") {
            black_box(keccak256(if tx.is_list { tx.raw } else { tx.payload }));
            n += 1;
        }
    }
    n
}

fn main() {
    let mut args = std::env::args().skip(1).filter(|a| !a.starts_with('-'));
    let count: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(20_000);
    let rounds: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(7);
    let containers: Vec<Container> = (0..count).map(|i| container(1, IndexPath::CBlock, i, 0).0).collect();
    let txs = hashes_only(&containers);
    let none = Hashes { block: false, transactions: false };
    type Run<'a> = (&'a str, Box<dyn Fn() + 'a>);
    let runs: Vec<Run<'_>> = vec![
        (
            "decode=True",
            Box::new(|| {
                for piece in containers.chunks(PIECE) {
                    black_box(decode_containers(IndexPath::CBlock, piece, DecodeMode::Lenient).expect("decodes"));
                }
            }),
        ),
        (
            "no hashes",
            Box::new(|| {
                for piece in containers.chunks(PIECE) {
                    black_box(
                        decode_containers_with(IndexPath::CBlock, piece, DecodeMode::Lenient, none).expect("decodes"),
                    );
                }
            }),
        ),
        (
            "keccak floor",
            Box::new(|| {
                black_box(hashes_only(&containers));
            }),
        ),
    ];
    let medians = alternate(&runs.iter().map(|(_, run)| run.as_ref()).collect::<Vec<_>>(), rounds);
    println!("{count} C/block containers ({txs} transactions), pieces of {PIECE}, {rounds} rounds (medians)");
    for (k, (name, _)) in runs.iter().enumerate() {
        println!("  {name:<14} {:7.2} µs of CPU a container", medians[k] * 1e6 / count as f64);
    }
}
