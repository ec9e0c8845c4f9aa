//! The state machine of a resumable walk over pages of JSON items (the Data API and Metrics
//! API lists): position, limit, background prefetch, resume and one consumer at a time.
//!
//! The position is exactly what was handed to the caller: the page holding the next item, how
//! many of its items were handed out, and how many items in all. Every consumer (an iterator, a
//! collect, an export) takes a lease; a newer consumer supersedes the older one, which can no
//! longer move the position, so two consumers never hand out the same items.
//!
//! A walk whose items have an [`Identity`] drops the leading repeats of each page (a list that
//! grew on its head while walked with offset tokens, [`super::repeats`]) for every consumer; the
//! position passes them without counting them as handed out.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use super::repeats::{Identity, Remembered, Screened, Seen, Stored, RESUME_IDS};
use super::{Ahead, JsonItem, Prefetch, Spawned};
use crate::error::{Error, Result};
use futures::stream::BoxStream;

/// Where a page starts: a page token (`None`: the first page) or a shard of a sharded walk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PageKey {
    /// A token-paged walk's page, by the token it is fetched with.
    Token(Option<String>),
    /// The n-th shard of a sharded walk (in walk order).
    Shard(usize),
}

/// One fetched page: its items, where it starts and where the next one starts (`None`: last).
#[derive(Debug, Clone, PartialEq)]
pub struct Fetched {
    /// The page's items in walk order.
    pub items: Vec<JsonItem>,
    /// Where this page starts.
    pub at: PageKey,
    /// Where the next page starts; `None` ends the walk.
    pub next: Option<PageKey>,
}

impl Fetched {
    /// A page of a token-paged walk, fetched with `token` (as [`super::token_pages`] yields it).
    pub fn token_page(page: super::Page<JsonItem>, token: Option<String>) -> Fetched {
        Fetched {
            items: page.items,
            at: PageKey::Token(token),
            next: page.next_page_token.map(|t| PageKey::Token(Some(t))),
        }
    }
}

/// What a [`Pager`] walks.
pub trait PageSource: Send + Sync {
    /// Where the walk starts.
    fn first(&self) -> PageKey;
    /// Pages from `from` in walk order. `want` counts the items needed from the start of the
    /// `from` page (`None`: all): the source asks for no more and stops once it has them.
    fn pages(&self, from: PageKey, want: Option<u64>) -> BoxStream<'static, Result<Fetched>>;
    /// Names the walk (its path) in reprs.
    fn describe(&self) -> String;
    /// Why the walk found no item at all, when the service can tell (the emulator names the span
    /// of its world); `None` otherwise.
    fn empty_notice(&self) -> Option<String> {
        None
    }
    /// The shape of the walk from its start handing out at most `limit` items, for a cost plan
    /// ([`crate::plan`]), and the budget of the client walking it; `None` when it cannot tell.
    fn plan_walk(&self, _limit: Option<u64>) -> Option<(crate::plan::Walk, crate::plan::Budget)> {
        None
    }
    /// The ranged list this walk reads, when it can be asked for in spans of its block range or
    /// time window (`rest::ranged_list::RangedList`, for a dataset writer); `None` otherwise.
    fn ranged(&self) -> Option<Arc<dyn std::any::Any + Send + Sync>> {
        None
    }
}

/// The notice of a walk of `walk` over `window` (Unix seconds, start inclusive and end
/// exclusive, either open) that found nothing on the emulator, whose world spans `world`; `None`
/// for a walk without a window (a filter that matches nothing is not about time).
pub fn outside_world_notice(walk: &str, window: (Option<i64>, Option<i64>), world: (i64, i64)) -> Option<String> {
    let day = |t: i64| {
        chrono::DateTime::from_timestamp(t, 0).map_or_else(|| t.to_string(), |d| d.format("%Y-%m-%d %H:%M").to_string())
    };
    let shown = match window {
        (None, None) => return None,
        (start, end) => format!(
            "the window {} .. {}",
            start.map_or_else(|| "(open)".to_string(), day),
            end.map_or_else(|| "(open)".to_string(), day)
        ),
    };
    Some(format!(
        "0 rows: {shown} of {walk} lies outside the emulator's world, which spans {} .. {} UTC \
         (a fixed world: its \"now\" is {}); ask for a window inside it",
        day(world.0),
        day(world.1),
        day(world.1)
    ))
}

/// Where a pager stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Position {
    /// The page holding the next item.
    pub at: PageKey,
    /// Items of that page already passed: handed out, or dropped as repeats of items handed
    /// out before.
    pub offset: usize,
    /// Items handed out so far.
    pub items_read: u64,
    /// The walk handed out its last item.
    pub exhausted: bool,
    /// Where the last item handed out stands: its page and its place in it (`None` before the
    /// first). While a resumed walk seeks that item ([`Pager::resume_after`]), where the seek
    /// began. A later walk resumes from here, past that item, however the list's head grew in
    /// between.
    pub boundary: Option<(PageKey, usize)>,
}

impl Position {
    /// The token of the page holding the next item (`None` at the first page, after the last
    /// one, or in a sharded walk).
    pub fn next_page_token(&self) -> Option<&str> {
        match &self.at {
            PageKey::Token(t) if !self.exhausted => t.as_deref(),
            _ => None,
        }
    }

    /// The position after `taken` more items of `page` were handed out, counted from `skip`.
    ///
    /// A page shorter than the items already read from it (a refetch answered short) carries
    /// the rest of the offset into the next page: a page key counts items from where its page
    /// starts, so nothing is handed out twice.
    fn after(&self, page: &Fetched, skip: usize, taken: usize) -> Position {
        let items_read = self.items_read + taken as u64;
        let end = skip + taken;
        let boundary = match taken {
            0 => self.boundary.clone(),
            _ => Some((page.at.clone(), end - 1)),
        };
        let (at, offset, exhausted) = match &page.next {
            Some(next) if end >= page.items.len() => (next.clone(), end - page.items.len(), false),
            None if end >= page.items.len() => (page.at.clone(), end, true),
            _ => (page.at.clone(), end, false),
        };
        Position { at, offset, items_read, exhausted, boundary }
    }

    /// The position past the leading items `screened` found in `page` (read on from `skip`,
    /// where its first item to hand out stands): a seek that found its item makes that item the
    /// boundary. While a seek is on, the boundary stays where the seek began, so a state saved
    /// meanwhile seeks again from there.
    fn passed(&self, page: &Fetched, skip: usize, screened: &Screened) -> Position {
        let mut to = self.after(page, skip, 0);
        if let Some(at) = screened.found {
            to.boundary = Some((page.at.clone(), at));
        }
        to
    }
}

/// A resumable walk over a [`PageSource`]. Cheap to clone; clones share the position.
#[derive(Clone)]
pub struct Pager {
    source: Arc<dyn PageSource>,
    limit: Option<u64>,
    depth: usize,
    position: Arc<Mutex<Position>>,
    generation: Arc<AtomicU64>,
    /// What tells the items apart, when known: the leading repeats of a page are dropped.
    identity: Option<Identity>,
    /// The items handed out most recently (kept only with an identity).
    seen: Arc<Mutex<Seen>>,
    /// Held by an export until its file is finished ([`crate::arrow::ParquetExport`]).
    export: Arc<tokio::sync::Mutex<()>>,
}

/// Where a pager stood, with the items it remembered: what [`PagerCursor::rewind`] puts back.
#[derive(Debug, Clone)]
pub struct Mark {
    position: Position,
    seen: Seen,
}

impl std::fmt::Debug for Pager {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pager").field("walk", &self.source.describe()).field("position", &self.position()).finish()
    }
}

/// The right of one consumer to move a pager's position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Lease(u64);

impl Pager {
    /// A walk of `source` handing out at most `limit` items, keeping `depth` pages fetched ahead.
    pub fn new(source: Arc<dyn PageSource>, limit: Option<u64>, depth: usize) -> Self {
        let position = Position { at: source.first(), offset: 0, items_read: 0, exhausted: false, boundary: None };
        Pager {
            source,
            limit,
            depth: depth.max(1),
            position: Arc::new(Mutex::new(position)),
            generation: Arc::new(AtomicU64::new(0)),
            identity: None,
            seen: Arc::default(),
            export: Arc::default(),
        }
    }

    /// Where the walk stands now, with the items it remembers.
    pub fn mark(&self) -> Mark {
        Mark { position: self.position(), seen: self.seen.lock().unwrap_or_else(|p| p.into_inner()).clone() }
    }

    /// The lock an export of this walk (or of a clone) holds until its file is finished.
    pub fn export_gate(&self) -> Arc<tokio::sync::Mutex<()>> {
        self.export.clone()
    }

    /// The same walk telling its items apart by `identity` (`None`: never): the leading items
    /// of a page that were handed out recently are dropped, and an item handed out again after
    /// new ones is an error ([`super::repeats`]).
    pub fn identified_by(mut self, identity: Option<Identity>) -> Self {
        self.identity = identity;
        self
    }

    /// What tells the walk's items apart, if known.
    pub fn identity(&self) -> Option<Identity> {
        self.identity
    }

    /// Screens `page` from item `from` against `seen` (nothing to do without an identity): the
    /// leading repeats are said in the log; an item served twice is a decode error naming it.
    fn screen(&self, page: &Fetched, from: usize, seen: &Seen) -> Result<Screened> {
        let Some(identity) = self.identity else { return Ok(Screened::none()) };
        let screened = seen.screen(identity, &page.items, from).map_err(|twice| Error::Decode {
            message: format!(
                "the list serves {} {} twice (again at item {} of a page, after items not seen before)",
                identity.id, twice.id, twice.item
            ),
            url: self.source.describe(),
            body: String::new(),
        })?;
        if screened.seeking && page.next.is_none() {
            // The list ended before the item the earlier walk stopped after: it is gone from the
            // list, or this answer comes from a replica behind the one that served that walk.
            return Err(Error::Decode {
                message: format!(
                    "the resumed walk did not find the item its earlier walk stopped after ({} {}) before the list \
                     ended: the list lost items, or a replica behind the one that served the earlier walk answered \
                     (a load balancer); nothing was handed out, so resume again from the same state",
                    self.identity.map_or("item", |i| i.id),
                    seen.sought().unwrap_or_default()
                ),
                url: self.source.describe(),
                body: String::new(),
            });
        }
        if let Some(at) = screened.found {
            log::info!(
                "{}: the resumed walk found the item its earlier walk stopped after at item {at} of a page, {} item(s) \
                 past where it stood (new items arrived on the list's head meanwhile): those were passed",
                self.source.describe(),
                screened.leading
            );
        } else if screened.leading > 0 && !screened.seeking {
            log::warn!(
                "{}: a page began with {} item(s) the walk already had (new items arrived on the list's head and \
                 pushed it down): dropped, not handed out twice",
                self.source.describe(),
                screened.leading
            );
        }
        Ok(screened)
    }

    /// Screens `page` from `from` against the items handed out so far.
    fn screen_shared(&self, page: &Fetched, from: usize) -> Result<Screened> {
        if self.identity.is_none() {
            return Ok(Screened::none());
        }
        let seen = self.seen.lock().unwrap_or_else(|p| p.into_inner());
        self.screen(page, from, &seen)
    }

    /// Remembers items handed out (their identities from [`Pager::screen`]); what changed, for
    /// [`Pager::forget`].
    fn remember(&self, ids: &[Option<Stored>]) -> Remembered {
        if ids.is_empty() {
            return Remembered::default();
        }
        self.seen.lock().unwrap_or_else(|p| p.into_inner()).remember(ids)
    }

    /// Undoes the last [`Pager::remember`]: its items never reached their caller.
    fn forget(&self, changed: Remembered) {
        self.seen.lock().unwrap_or_else(|p| p.into_inner()).forget(changed);
    }

    /// The identities of the last items handed out (at most [`RESUME_IDS`], oldest first, as
    /// the raw JSON texts of the id and key fields; empty for a walk without an identity): with
    /// the position, what a later walk of the same list needs to resume without handing out
    /// again what this one did ([`Pager::resume_at`]).
    pub fn handed_out(&self) -> Vec<[String; 2]> {
        match self.identity {
            Some(_) => self.seen.lock().unwrap_or_else(|p| p.into_inner()).recent(RESUME_IDS),
            None => Vec::new(),
        }
    }

    /// Moves the walk to where an earlier walk of the same list stopped: the page of `token`
    /// (`None`: the first), `offset` items of it passed, `items_read` items handed out, and the
    /// identities it handed out last ([`Pager::handed_out`]) remembered, so a list that grew on
    /// its head in between loses its leading repeats as within one walk. Supersedes every
    /// consumer. Refused (before any request) for a walk cut into shards, which has no token.
    pub fn resume_at(
        &self,
        token: Option<String>,
        offset: usize,
        items_read: u64,
        handed_out: &[[String; 2]],
    ) -> Result<()> {
        self.check_token_paged(token.as_deref())?;
        if offset as u64 > items_read {
            return Err(Error::invalid(
                "page_offset",
                offset,
                format!("at most items_read ({items_read}): the items passed on the page are among those read"),
            ));
        }
        self.move_to(Position { at: PageKey::Token(token), offset, items_read, exhausted: false, boundary: None }, {
            let mut seen = Seen::default();
            if self.identity.is_some() {
                seen.restore(handed_out);
            }
            seen
        });
        Ok(())
    }

    /// Moves the walk to where the last item an earlier walk of the same list handed out
    /// stood (the page of `token`, `offset` items into it: [`Position::boundary`]), to continue
    /// right after that item: the walk passes every item up to the last identity of
    /// `handed_out`, however many items arrived on the list's head in between and pushed it
    /// down. The list ending before that item is an [`Error::Decode`] naming it (the list lost
    /// items, or a replica behind the one that served the earlier walk answered), with nothing
    /// handed out. Refused (before any request) for a list without an identity, or with no
    /// identity handed out: there is nothing to seek.
    pub fn resume_after(
        &self,
        token: Option<String>,
        offset: usize,
        items_read: u64,
        handed_out: &[[String; 2]],
    ) -> Result<()> {
        self.check_token_paged(token.as_deref())?;
        if self.identity.is_none() || handed_out.is_empty() {
            return Err(Error::invalid(
                "boundary",
                format!("{token:?} at {offset}"),
                "a boundary of a walk that handed out items with an identity (this list has none, or the state \
                 holds no handed_out)",
            ));
        }
        let at = PageKey::Token(token);
        let boundary = Some((at.clone(), offset));
        let mut seen = Seen::default();
        seen.restore(handed_out);
        seen.seek_last();
        self.move_to(Position { at, offset, items_read, exhausted: false, boundary }, seen);
        Ok(())
    }

    /// Refuses (before any request) a resume at the page of `token` for a walk cut into
    /// shards, which has no token.
    fn check_token_paged(&self, token: Option<&str>) -> Result<()> {
        match self.source.first() {
            PageKey::Shard(_) => Err(Error::invalid(
                "page_token",
                token.unwrap_or("None"),
                "a resume state of a token-paged walk (this walk is cut into windows: resume it by time)",
            )),
            PageKey::Token(_) => Ok(()),
        }
    }

    /// Puts the walk at `position` with `seen` remembered, superseding every consumer.
    fn move_to(&self, to: Position, seen: Seen) {
        let mut position = self.position.lock().unwrap_or_else(|p| p.into_inner());
        self.generation.fetch_add(1, Ordering::SeqCst);
        *position = to;
        *self.seen.lock().unwrap_or_else(|p| p.into_inner()) = seen;
    }

    /// After a seek failed (the list ended first): the position goes back where the seek began
    /// (its boundary), so the next consumer seeks again from there rather than from where this
    /// one gave up, past items a list made whole again still holds before the one sought.
    fn back_to_seek_start(&self, lease: Lease) {
        if !self.seen.lock().unwrap_or_else(|p| p.into_inner()).seeking() {
            return;
        }
        let at = self.position();
        if let Some((page, offset)) = at.boundary.clone() {
            let _ = self.advance(lease, Position { at: page, offset, exhausted: false, ..at });
        }
    }

    /// Where the walk stands.
    pub fn position(&self) -> Position {
        self.position.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// The `limit` given at creation.
    pub fn limit(&self) -> Option<u64> {
        self.limit
    }

    /// What the walk is over (its path).
    pub fn describe(&self) -> String {
        self.source.describe()
    }

    /// The ranged list the walk reads, if its source is one ([`PageSource::ranged`]).
    pub fn ranged(&self) -> Option<Arc<dyn std::any::Any + Send + Sync>> {
        self.source.ranged()
    }

    /// The same walk from its original start, with the same limit and a position of its own
    /// (this pager is left as it is): what re-running a notebook cell needs.
    pub fn restart(&self) -> Pager {
        Pager::new(self.source.clone(), self.limit, self.depth).identified_by(self.identity)
    }

    /// Why a consumer started now would hand out nothing, or `None` when items may be left.
    ///
    /// A pager resumes where its last consumer stopped, so once the list is exhausted (or the
    /// `limit` is reached) every new consumer is empty. The text names the position and how to
    /// start over; the bindings show it as a warning.
    pub fn spent(&self) -> Option<String> {
        let at = self.position();
        let walk = self.source.describe();
        const AGAIN: &str = "call .restart() for a new walk from the start (or make a new pager with the list method)";
        if at.exhausted {
            return Some(format!(
                "this pager of {walk} is exhausted (exhausted=True, next_page_token=None after {} items): \
                 a new consumer resumes at its end and gets nothing; {AGAIN}",
                at.items_read
            ));
        }
        match self.limit {
            Some(limit) if at.items_read >= limit && at.items_read > 0 => Some(format!(
                "this pager of {walk} handed out its limit={limit} items (items_read={}): a new consumer \
                 gets nothing; {AGAIN}",
                at.items_read
            )),
            _ => None,
        }
    }

    /// Why the walk, exhausted without handing out a single item, found nothing (when the
    /// service can tell: the emulator names the span of its world); `None` otherwise.
    pub fn empty_notice(&self) -> Option<String> {
        let at = self.position();
        (at.exhausted && at.items_read == 0).then(|| self.source.empty_notice()).flatten()
    }

    /// The cost plan of the rest of the walk (the items its limit still allows), if its source
    /// can tell ([`PageSource::plan_walk`]).
    pub fn plan(&self) -> Option<crate::plan::Plan> {
        let (walk, budget) = self.source.plan_walk(self.remaining())?;
        Some(crate::plan::Plan::new(walk, &budget))
    }

    /// Items the limit still allows (`None`: no limit).
    pub fn remaining(&self) -> Option<u64> {
        self.limit.map(|l| l.saturating_sub(self.position().items_read))
    }

    /// Completes an error of the walk with the position: a refused page token carries the
    /// items handed out before it.
    fn annotate(&self, err: Error) -> Error {
        match err {
            Error::PageToken { token, message, status, body, url, .. } => {
                Error::PageToken { token, items_read: self.position().items_read, message, status, body, url }
            }
            other => other,
        }
    }

    /// A new consumer's lease; earlier consumers are superseded.
    fn lease(&self) -> Lease {
        let at = self.position();
        if at.items_read > 0 {
            log::debug!(
                "{}: a new consumer resumes after {} items (page token {:?}, offset {})",
                self.source.describe(),
                at.items_read,
                at.next_page_token(),
                at.offset
            );
        }
        Lease(self.generation.fetch_add(1, Ordering::SeqCst) + 1)
    }

    fn check(&self, lease: Lease) -> Result<()> {
        if self.generation.load(Ordering::SeqCst) == lease.0 {
            Ok(())
        } else {
            Err(Error::Superseded)
        }
    }

    /// Moves the position to `to`, if `lease` is still the current one.
    fn advance(&self, lease: Lease, to: Position) -> Result<()> {
        let mut position = self.position.lock().unwrap_or_else(|p| p.into_inner());
        if self.generation.load(Ordering::SeqCst) != lease.0 {
            return Err(Error::Superseded);
        }
        *position = to;
        Ok(())
    }

    /// Items this consumer may still hand out: the limit's rest, capped by `cap`.
    fn room(&self, position: &Position, cap: Option<u64>) -> Option<u64> {
        let limit = self.limit.map(|l| l.saturating_sub(position.items_read));
        match (limit, cap) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// The pages from `position` for at most `room` more items; `None` when nothing is left.
    fn pages_from(&self, position: &Position, room: Option<u64>) -> Option<BoxStream<'static, Result<Fetched>>> {
        if position.exhausted || room == Some(0) {
            return None;
        }
        let want = room.map(|r| r.saturating_add(position.offset as u64));
        Some(self.source.pages(position.at.clone(), want))
    }

    /// A consumer handing out items or pages one at a time (supersedes earlier consumers).
    pub fn cursor(&self) -> PagerCursor {
        PagerCursor {
            pager: self.clone(),
            lease: self.lease(),
            feed: Feed::NotStarted,
            page: None,
            failed: false,
            read_ahead: true,
            dropped: 0,
            last: None,
        }
    }

    /// A consumer that fetches each page only when it asks for it, with no page read ahead: for
    /// a walk that may stop part way on what it reads (a dataset rerun reaching what it holds),
    /// so it sends no request past where it stops.
    pub fn cursor_in_step(&self) -> PagerCursor {
        let mut cursor = self.cursor();
        cursor.read_ahead = false;
        cursor
    }

    /// The rest of the walk (at most `cap` more items), page by page through `convert`, all or
    /// nothing: the position moves once, at the end; after an error it is where the call began.
    ///
    /// The pages are fetched and converted by one task on the current runtime (the next page's
    /// request is sent before a page is converted, [`Ahead`]): no hand-off between tasks per
    /// page, and the caller's thread is woken once for the whole walk. Dropping the returned
    /// future aborts that task, and its requests, before the position moves.
    pub async fn collect<T: Send + 'static>(
        &self,
        cap: Option<u64>,
        convert: impl FnMut(Vec<JsonItem>) -> Result<T> + Send + 'static,
    ) -> Result<Vec<T>> {
        let lease = self.lease();
        let start = self.position();
        let room = self.room(&start, cap);
        let Some(pages) = self.pages_from(&start, room) else { return Ok(Vec::new()) };
        let seen = match self.identity {
            Some(_) => self.seen.lock().unwrap_or_else(|p| p.into_inner()).clone(),
            None => Seen::default(),
        };
        let walk = self.clone().gather(start, cap, seen, Ahead::new(pages), convert);
        let (out, position, seen) = Spawned::new(walk).await?;
        self.advance(lease, position)?;
        if self.identity.is_some() {
            *self.seen.lock().unwrap_or_else(|p| p.into_inner()) = seen;
        }
        Ok(out)
    }

    /// The loop of [`Pager::collect`]: the converted pages from `start`, where they end, and the
    /// items handed out (`seen` with those of this walk).
    async fn gather<T>(
        self,
        start: Position,
        cap: Option<u64>,
        mut seen: Seen,
        mut pages: Ahead<BoxStream<'static, Result<Fetched>>>,
        mut convert: impl FnMut(Vec<JsonItem>) -> Result<T>,
    ) -> Result<(Vec<T>, Position, Seen)> {
        let mut out = Vec::new();
        let mut position = start.clone();
        let done = |position: &Position| {
            let cap = cap.map(|c| c.saturating_sub(position.items_read - start.items_read));
            position.exhausted || self.room(position, cap) == Some(0)
        };
        // Repeats dropped since `pages` started: the source counted them in what it was asked
        // for, so when it stops short of the walk's end the rest is asked for again.
        let mut dropped = 0;
        loop {
            let Some(page) = pages.next().await else {
                let cap_left = cap.map(|c| c.saturating_sub(position.items_read - start.items_read));
                match self.pages_from(&position, self.room(&position, cap_left)) {
                    Some(more) if dropped > 0 && !done(&position) => {
                        dropped = 0;
                        pages = Ahead::new(more);
                        continue;
                    }
                    _ => break,
                }
            };
            let mut page = page.map_err(|e| self.annotate(e))?;
            let screened = self.screen(&page, position.offset, &seen)?;
            dropped += screened.leading;
            let skip = position.offset + screened.leading;
            let cap_left = cap.map(|c| c.saturating_sub(position.items_read - start.items_read));
            let taken = take_count(&page, skip, self.room(&position, cap_left));
            let next = match taken {
                0 => position.passed(&page, skip, &screened),
                _ => position.after(&page, skip, taken),
            };
            if screened.found.is_some() {
                seen.end_seek();
            }
            if taken > 0 {
                seen.remember(screened.ids.get(skip..skip + taken).unwrap_or_default());
                out.push(convert(page.items.drain(skip..skip + taken).collect())?);
            }
            position = next;
            if done(&position) {
                break;
            }
        }
        Ok((out, position, seen))
    }

    /// The rest of the walk page by page into `sink`; the position moves after each page the
    /// sink took, so after an error it stands right after the last page the sink holds.
    /// Returns the items handed to the sink.
    pub async fn drain(&self, mut sink: impl FnMut(Vec<JsonItem>) -> Result<()>) -> Result<u64> {
        let mut cursor = self.cursor();
        let mut written = 0;
        while let Some(items) = cursor.next_page_with(&mut sink).await? {
            written += items as u64;
        }
        Ok(written)
    }
}

/// How many of `page`'s items after `skip` may be handed out under `room`.
fn take_count(page: &Fetched, skip: usize, room: Option<u64>) -> usize {
    let available = page.items.len().saturating_sub(skip);
    room.map_or(available, |r| (available as u64).min(r) as usize)
}

enum Feed {
    NotStarted,
    Running(Prefetch<Fetched>),
    /// Pages fetched when asked for ([`Pager::cursor_in_step`]).
    Pulled(BoxStream<'static, Result<Fetched>>),
    Done,
}

/// A page being handed out item by item, and how far.
struct Current {
    page: Fetched,
    next: usize,
    /// The identities of its items, to remember as they are handed out (empty without one).
    ids: Vec<Option<Stored>>,
}

/// One consumer of a [`Pager`]: hands out items ([`next_item`](Self::next_item)) or pages
/// ([`next_page`](Self::next_page)), moving the pager's position with each.
pub struct PagerCursor {
    pager: Pager,
    lease: Lease,
    feed: Feed,
    page: Option<Current>,
    failed: bool,
    /// Pages are fetched ahead in the background ([`Pager::cursor`]), else when asked for.
    read_ahead: bool,
    /// Repeats dropped since the feed started: the source counted them in what it was asked
    /// for, so a feed ending short of the walk's end is started again from the position.
    dropped: usize,
    /// The position before the last hand-out, and what it remembered ([`PagerCursor::unhand`]
    /// puts both back).
    last: Option<(Position, Remembered)>,
}

impl PagerCursor {
    /// The pager this cursor moves.
    pub fn pager(&self) -> &Pager {
        &self.pager
    }

    /// Stops fetching; later calls hand out nothing.
    pub fn close(&mut self) {
        if let Feed::Running(p) = &mut self.feed {
            p.close();
        }
        self.feed = Feed::Done;
        self.page = None;
    }

    /// An item already fetched, handed out without waiting: `None` when the next item needs a
    /// fetch (or the walk is over; [`next_item`](Self::next_item) tells which).
    pub fn ready_item(&mut self) -> Option<Result<JsonItem>> {
        if let Err(e) = self.pager.check(self.lease) {
            return Some(Err(e));
        }
        let current = self.page.as_mut()?;
        if current.next >= current.page.items.len() {
            return None;
        }
        let position = self.pager.position();
        if self.pager.room(&position, None) == Some(0) {
            return None;
        }
        let to = position.after(&current.page, current.next, 1);
        match self.pager.advance(self.lease, to) {
            Ok(()) => {
                // Items before `next` are behind the position: moved out, never needed again.
                let ids = current.ids.get(current.next..=current.next).unwrap_or_default();
                self.last = Some((position, self.pager.remember(ids)));
                let item = std::mem::take(&mut current.page.items[current.next]);
                current.next += 1;
                Some(Ok(item))
            }
            Err(e) => Some(Err(e)),
        }
    }

    /// The next item, fetching when needed; `None` at the end of the walk or the limit.
    pub async fn next_item(&mut self) -> Result<Option<JsonItem>> {
        loop {
            if let Some(item) = self.ready_item() {
                return item.map(Some);
            }
            if !self.fill().await? {
                return Ok(None);
            }
        }
    }

    /// Waits until a page with items to hand out is at hand, handing out nothing (the position
    /// passes only leading repeats and empty pages): `false` at the end of the walk or the
    /// limit. [`ready_item`](Self::ready_item) and [`ready_page_with`](Self::ready_page_with)
    /// then hand out without waiting, so an asynchronous caller fills on a runtime thread and
    /// moves the position where the item is delivered. Dropping the future loses nothing.
    pub async fn fill(&mut self) -> Result<bool> {
        loop {
            self.pager.check(self.lease)?;
            if self.pager.remaining() == Some(0) {
                self.close();
                return Ok(false);
            }
            if self.page.as_ref().is_some_and(|c| c.next < c.page.items.len()) {
                return Ok(true);
            }
            self.page = None;
            match self.fetch().await? {
                Some(page) => self.page = self.admit(page)?,
                None => return Ok(false),
            }
        }
    }

    /// The last item or page handed out never reached its caller (its conversion was
    /// interrupted): the position goes back before it, the walk forgets it was handed out (so
    /// the repeat screen does not drop it when it comes again), and this cursor ends; the next
    /// consumer hands it out again.
    pub fn unhand(&mut self) {
        if let Some((before, remembered)) = self.last.take() {
            if self.pager.advance(self.lease, before).is_ok() {
                self.pager.forget(remembered);
            }
        }
        self.close();
    }

    /// A fetched page as the current one, read on from the position after its leading repeats
    /// (the position passes them); `None` when nothing of it is left to hand out (an empty page,
    /// one already read, or only repeats), the position then past it.
    fn admit(&mut self, page: Fetched) -> Result<Option<Current>> {
        let position = self.pager.position();
        let screened = match self.pager.screen_shared(&page, position.offset) {
            Ok(screened) => screened,
            Err(e) => {
                self.failed = true;
                self.pager.back_to_seek_start(self.lease);
                return Err(e);
            }
        };
        let next = position.offset + screened.leading;
        self.dropped += screened.leading;
        if next >= page.items.len() || screened.leading > 0 {
            self.pager.advance(self.lease, position.passed(&page, next, &screened))?;
        }
        if screened.found.is_some() {
            self.pager.seen.lock().unwrap_or_else(|p| p.into_inner()).end_seek();
        }
        if next >= page.items.len() {
            return Ok(None);
        }
        Ok(Some(Current { page, next, ids: screened.ids }))
    }

    /// The rest of the next page (what the limit allows of it); `None` at the end.
    pub async fn next_page(&mut self) -> Result<Option<Vec<JsonItem>>> {
        let mut out = None;
        self.next_page_with(|items| {
            out = Some(items);
            Ok(())
        })
        .await?;
        Ok(out)
    }

    /// Hands the rest of the next page to `take`; the position moves only when `take`
    /// succeeds (after a failure the next call fetches that page again). Returns how many
    /// items were handed, `None` at the end.
    pub async fn next_page_with(&mut self, mut take: impl FnMut(Vec<JsonItem>) -> Result<()>) -> Result<Option<usize>> {
        loop {
            if let Some(handed) = self.ready_page_with(&mut take) {
                return handed.map(Some);
            }
            if !self.fill().await? {
                return Ok(None);
            }
        }
    }

    /// [`next_page_with`](Self::next_page_with) of a page already fetched, without waiting:
    /// `None` when the next page needs a fetch (or the walk is over).
    pub fn ready_page_with(&mut self, mut take: impl FnMut(Vec<JsonItem>) -> Result<()>) -> Option<Result<usize>> {
        if let Err(e) = self.pager.check(self.lease) {
            return Some(Err(e));
        }
        let position = self.pager.position();
        let room = self.pager.room(&position, None);
        let current = self.page.as_mut()?;
        let skip = current.next;
        let taken = take_count(&current.page, skip, room);
        if taken == 0 {
            return None;
        }
        let to = position.after(&current.page, skip, taken);
        let items: Vec<JsonItem> = current.page.items[skip..skip + taken].iter_mut().map(std::mem::take).collect();
        if let Err(e) = take(items) {
            // The items are gone with the failed call: the next call fetches the page again.
            self.page = None;
            self.failed = true;
            return Some(Err(e));
        }
        if let Err(e) = self.pager.advance(self.lease, to) {
            return Some(Err(e));
        }
        let remembered = self.pager.remember(current.ids.get(skip..skip + taken).unwrap_or_default());
        current.next = skip + taken;
        self.last = Some((position, remembered));
        Some(Ok(taken))
    }

    /// The next fetched page (starting the background walk on first use); `None` at the end.
    async fn fetch(&mut self) -> Result<Option<Fetched>> {
        if self.failed {
            // After an error the walk restarts from the position (a retry of the failed page).
            self.failed = false;
            self.feed = Feed::NotStarted;
        }
        if let Feed::NotStarted = self.feed {
            self.dropped = 0;
            let position = self.pager.position();
            let room = self.pager.room(&position, None);
            self.feed = match self.pager.pages_from(&position, room) {
                Some(pages) if !self.read_ahead => Feed::Pulled(pages),
                Some(pages) => {
                    Feed::Running(Prefetch::spawn(&tokio::runtime::Handle::current(), pages, self.pager.depth))
                }
                None => Feed::Done,
            };
        }
        let next = match &mut self.feed {
            Feed::Running(prefetch) => prefetch.next().await,
            // A panic while fetching or parsing ends the walk with an error, as in the background.
            Feed::Pulled(pages) => {
                futures::FutureExt::catch_unwind(std::panic::AssertUnwindSafe(futures::StreamExt::next(pages)))
                    .await
                    .unwrap_or_else(|panic| {
                        Some(Err(Error::Internal(format!("a fetch panicked: {}", super::panic_message(&*panic)))))
                    })
            }
            Feed::NotStarted | Feed::Done => return Ok(None),
        };
        match next {
            Some(Ok(page)) => Ok(Some(page)),
            Some(Err(e)) => {
                self.failed = true;
                Err(self.pager.annotate(e))
            }
            None if self.dropped > 0 && !self.pager.position().exhausted => {
                // The source stopped at what it was asked for, repeats included: ask for the
                // rest from the position (a feed that ends with no repeat dropped is the end).
                self.feed = Feed::NotStarted;
                Box::pin(self.fetch()).await
            }
            None => {
                self.feed = Feed::Done;
                // A walk that ended without its last page saying so would lose rows: the
                // sources end only after a page without a next key, or at the limit.
                Ok(None)
            }
        }
    }
}

impl PagerCursor {
    /// Puts the pager back at `mark` (its position and the items it remembered), unless a newer
    /// consumer took over; this cursor then hands out nothing more.
    pub fn rewind(&mut self, mark: &Mark) -> Result<()> {
        self.close();
        self.pager.advance(self.lease, mark.position.clone())?;
        *self.pager.seen.lock().unwrap_or_else(|p| p.into_inner()) = mark.seen.clone();
        Ok(())
    }
}

impl Drop for PagerCursor {
    fn drop(&mut self) {
        self.close();
    }
}

#[cfg(test)]
#[path = "pager_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "shifted_tests.rs"]
mod shifted_tests;

#[cfg(test)]
#[path = "scripted_source.rs"]
mod scripted_source;
