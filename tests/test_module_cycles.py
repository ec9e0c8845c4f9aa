"""No import circles between the Rust modules of the workspace's crates.

Each file is a module (``a/mod.rs`` is ``a``). A module depends on another when it names it in
a ``use crate::...``/``use super::...`` line or in a ``crate::...``/``super::...`` path in its code; naming one
of its own submodules (declaring or re-exporting it) is structure, not a dependency. A strongly
connected set of two or more modules is a circle, and the test names it.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CRATES = sorted(p for p in (ROOT / "crates").iterdir() if (p / "src" / "lib.rs").is_file())

USE = re.compile(r"^\s*(?:pub(?:\([^)]*\))?\s+)?use\s+((?:crate|super|self)(?:::\w+)*)(?:::\{([^;]*)\})?", re.M)
PATH = re.compile(r"(?<![\w$:])((?:crate|super)(?:::[a-z_][a-z0-9_]*)+)")
COMMENT = re.compile(r"//[^\n]*")
TEST_MOD = re.compile(r"#\[cfg\(test\)\]\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+\w+\s*\{")

# Circles known when the crates were split (issue 22): all broken since. The test fails on any
# circle, and on an entry here that is gone (so the list only shrinks).
KNOWN: dict[str, list[list[str]]] = {}


def strip_tests(text: str) -> str:
    """The text without its inline test modules (their ``super`` is the file itself)."""
    out, pos = [], 0
    for m in TEST_MOD.finditer(text):
        if m.start() < pos:
            continue
        depth, i = 1, m.end()
        while i < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            i += 1
        out.append(text[pos:m.start()])
        pos = i
    out.append(text[pos:])
    return "".join(out)


def module_of(src: Path, file: Path) -> tuple[str, ...]:
    parts = file.relative_to(src).with_suffix("").parts
    if parts[-1] in ("mod", "lib"):
        parts = parts[:-1]
    return tuple(parts)


def resolve(modules: set[tuple[str, ...]], here: tuple[str, ...], path: list[str], is_dir: bool) -> tuple[str, ...] | None:
    """The deepest module (file) the path names, or None for the crate root."""
    base: list[str]
    if path[0] == "crate":
        base = []
    else:  # super/self chains, relative to the file's module
        base = list(here)
        if not is_dir:
            base = base[:-1] if path[0] == "super" else base
            # a non-dir file's `self` is itself; `super` its parent
            if path[0] == "self":
                base = list(here)
        else:
            base = base[:-1] if path[0] == "super" else base
        rest = path[1:]
        while rest and rest[0] == "super":
            base, rest = base[:-1], rest[1:]
        path = ["crate", *rest]
    found = None
    cur = list(base)
    for seg in path[1:]:
        cur.append(seg)
        if tuple(cur) in modules:
            found = tuple(cur)
        else:
            break
    if found is None and base and tuple(base) in modules:
        found = tuple(base)
    return found


def graph(crate: Path) -> dict[tuple[str, ...], set[tuple[str, ...]]]:
    src = crate / "src"
    files = {module_of(src, f): f for f in src.rglob("*.rs")}
    # A file named by #[path] or a `tests` submodule in its own file is still a module here.
    modules = set(files)
    edges: dict[tuple[str, ...], set[tuple[str, ...]]] = {m: set() for m in modules}
    for here, file in files.items():
        text = strip_tests(COMMENT.sub("", file.read_text()))
        is_dir = file.name in ("mod.rs", "lib.rs")
        targets: list[list[str]] = []
        for m in USE.finditer(text):
            head = m.group(1).split("::")
            if m.group(2):
                for item in re.split(r"[,\s]+", m.group(2)):
                    name = item.split("::")[0].strip("{} ")
                    if re.fullmatch(r"[a-z_][a-z0-9_]*", name) and name not in ("self",):
                        targets.append(head + [name])
            targets.append(head)
        targets += [m.group(1).split("::") for m in PATH.finditer(text)]
        for path in targets:
            to = resolve(modules, here, path, is_dir)
            if to is None or to == here or to[: len(here)] == here:
                continue  # the crate root, itself, or one of its own submodules
            if here[: len(to)] == to:
                continue  # an ancestor: the parent declares the child, structure not a dependency
            edges[here].add(to)
    return edges


def circles(edges: dict[tuple[str, ...], set[tuple[str, ...]]]) -> list[list[str]]:
    index: dict[tuple[str, ...], int] = {}
    low: dict[tuple[str, ...], int] = {}
    stack: list[tuple[str, ...]] = []
    on: set[tuple[str, ...]] = set()
    found: list[list[str]] = []
    counter = [0]

    def visit(v: tuple[str, ...]) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append("::".join(w) or "crate")
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def test_the_four_crates_are_read() -> None:
    names = [crate.name for crate in CRATES]
    assert names == ["avax-data-core", "avax-data-emulator", "avax-data-keccak", "avax-data-py"]
    # The reader sees real dependencies: the walk module names the client it walks.
    core = graph(CRATES[0])
    assert ("index", "client") in core[("index", "walk")] or ("index", "client") in core[("index", "range")]


def test_the_reader_finds_a_circle() -> None:
    a, b, c = ("a",), ("b",), ("c",)
    assert circles({a: {b}, b: {c}, c: {a}}) == [["a", "b", "c"]]
    assert circles({a: {b}, b: {c}, c: set()}) == []


def test_no_new_module_circles_and_the_known_ones_only_shrink() -> None:
    for crate in CRATES:
        found = circles(graph(crate))
        known = KNOWN.get(crate.name, [])
        assert [c for c in found if c not in known] == [], f"a new import circle in {crate.name}"
        assert [c for c in known if c not in found] == [], f"a known circle of {crate.name} is gone: drop it from KNOWN"
