//! What a rerun of a Data API list dataset ([`super::lists`]) still fetches, for its cost plan.
//!
//! A list has no range filter: the walk always reads from the list's head down, passing the
//! partitions the dataset holds whole (without rewriting them), and stops only at the first
//! whole partition below which every recorded partition down to the list's recorded end is
//! whole. So a hole (a missing, partial or altered partition) costs every page above it and the
//! pages through it; what lies below the stop costs nothing. Reads the manifest only: no lock,
//! nothing written, nothing sent.

use std::path::Path;

use super::lists::{list_identity, ListKey};
use super::manifest::{unchanged, Manifest};
use crate::data::ResourcePager;
use crate::error::{Error, Result};
use crate::plan::{Plan, Requests};

/// How far a rerun of a list walk from the head reaches into the dataset.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reach {
    /// Items the walk reads: from the head (as the dataset last saw it) down to the first item of
    /// the stop partition, that one included; to the list's end without a stop.
    pub items: u64,
    /// Items of the stop partition and those below it: not read.
    pub held: u64,
    /// The hive value of the partition the walk stops at, if any.
    pub stop: Option<u64>,
    /// Items below the lowest partition may exist and are not counted (a month-keyed list no
    /// walk followed to its end).
    pub open_bottom: bool,
}

/// The reach of a walk from the head over the dataset `manifest` of `dir` keyed by `key`, with
/// the writer's own rules ([`super::lists::Cutter`]): a whole partition is complete with its file
/// of the recorded size and modification time. Block numbers are dense from block 0, so a block
/// list's items are counted from its block numbers (a hole the manifest lost still holds
/// `chunk` blocks); a month-keyed list counts the rows the manifest recorded. `None` for a
/// dataset that holds no partition.
pub fn reach(manifest: &Manifest, dir: &Path, key: ListKey) -> Option<Reach> {
    let parts = &manifest.partitions;
    let top = parts.last()?;
    let whole: Vec<bool> = parts.iter().map(|p| p.complete && unchanged(dir, p)).collect();
    let lowest_unwritten = parts.iter().zip(&whole).find(|(_, w)| !**w).map(|(p, _)| p.value);
    let stop = manifest.end.and_then(|end| {
        parts
            .iter()
            .zip(&whole)
            .rev()
            .find(|(p, w)| **w && p.value >= end && lowest_unwritten.is_none_or(|l| l >= p.value))
            .map(|(p, _)| p.value)
    });
    let rows_at_or_below = |v: u64| parts.iter().filter(|p| p.value <= v).map(|p| p.rows).sum::<u64>();
    let out = match (key, stop) {
        (ListKey::Block { chunk }, Some(stop)) => {
            let head_next = top.value.saturating_add(top.rows);
            Reach {
                items: head_next.saturating_sub(stop.saturating_add(chunk)) + 1,
                held: rows_at_or_below(stop),
                stop: Some(stop),
                open_bottom: false,
            }
        }
        (ListKey::Block { .. }, None) => {
            Reach { items: top.value.saturating_add(top.rows), held: 0, stop: None, open_bottom: false }
        }
        (ListKey::Month { .. }, Some(stop)) => {
            let above: u64 = parts.iter().filter(|p| p.value > stop).map(|p| p.rows).sum();
            Reach { items: above + 1, held: rows_at_or_below(stop), stop: Some(stop), open_bottom: false }
        }
        (ListKey::Month { .. }, None) => Reach {
            items: parts.iter().map(|p| p.rows).sum(),
            held: 0,
            stop: None,
            open_bottom: manifest.end.is_none(),
        },
    };
    Some(out)
}

/// The cost plan of [`super::lists::write_list_dataset`] of the rest of `pager` into `dir`
/// (`chunk`: block numbers per partition, blocks only). A bad `chunk`, a list that cannot be a
/// dataset, or a directory of another walk is the writer's error, before any request. Without a
/// dataset (or from a saved position) it is the pager's own plan.
pub fn plan_list_dataset(pager: &ResourcePager, dir: &Path, chunk: Option<u64>) -> Result<Plan> {
    let key = ListKey::of(pager.resource, chunk)?;
    let manifest = Manifest::open(dir, list_identity(&pager.pager.describe(), pager.resource, key))?;
    let mut plan = pager.pager.plan().ok_or_else(|| Error::Internal("this list cannot be planned".into()))?;
    let at = pager.position();
    let from_head = at.items_read == 0 && at.offset == 0 && at.next_page_token().is_none() && !at.exhausted;
    let Some(reach) = reach(&manifest, dir, key) else { return Ok(plan) };
    if !from_head {
        plan.walk.unknown.push(
            "what the dataset holds: a walk from a saved position reads from there down, passing whole partitions"
                .into(),
        );
        return Ok(plan);
    }
    let page_size = plan.walk.page_size.max(1);
    let (items, requests) = match pager.pager.remaining() {
        Some(limit) if limit < reach.items => (limit, Requests::Exact(limit.div_ceil(page_size).max(1))),
        _ => (reach.items, Requests::AtLeast(reach.items.div_ceil(page_size).max(1))),
    };
    let walk = &mut plan.walk;
    (walk.requests, walk.items, walk.held) = (requests, Some(items), reach.held);
    walk.unknown = vec![
        "items newer than the dataset's newest partition (a list has no count): each page of them is one more request"
            .into(),
    ];
    if reach.open_bottom {
        walk.unknown.push("items below the dataset's lowest partition (no walk followed the list to its end)".into());
    }
    Ok(plan)
}

#[cfg(test)]
#[path = "planned_lists_tests.rs"]
mod tests;
