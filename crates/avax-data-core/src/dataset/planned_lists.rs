//! What a rerun of a Data API list dataset ([`super::lists`]) still fetches, for its cost plan.
//!
//! A list has no range filter: the walk always reads from the list's head down, passing the
//! partitions the dataset holds whole (without rewriting them), and stops only at the first
//! whole partition below which every recorded partition down to the list's recorded end is
//! whole. So a hole (a missing, partial or altered partition) costs every page above it and the
//! pages through it; what lies below the stop costs nothing. Reads the manifest only: no lock,
//! nothing written, nothing sent.

use std::path::Path;

use super::lists::{list_walk_key, reach, ListKey};
use super::manifest::Manifest;
use crate::data::ResourcePager;
use crate::error::{Error, Result};
use crate::plan::{Plan, Requests};

/// The cost plan of [`super::lists::write_list_dataset`] of the rest of `pager` into `dir`
/// (`chunk`: block numbers per partition, blocks only). A bad `chunk`, a list that cannot be a
/// dataset, or a directory of another walk is the writer's error, before any request. Without a
/// dataset (or from a saved position) it is the pager's own plan.
pub fn plan_list_dataset(pager: &ResourcePager, dir: &Path, chunk: Option<u64>) -> Result<Plan> {
    if let Some(list) = super::ranged::ranged_list(pager) {
        return super::ranged::plan_ranged_dataset(pager, &list, dir, chunk);
    }
    let key = ListKey::of(pager.resource, chunk)?;
    let manifest = Manifest::open(dir, list_walk_key(&pager.pager.describe(), pager.resource, key))?;
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
