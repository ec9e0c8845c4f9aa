"""A griffe extension for the API reference (mkdocs.yml loads it under mkdocstrings' ``extensions``).

- The native classes are documented in ``_native.pyi`` with their summary lines only; their full
  docstrings (``Args:``, ``Returns:``, ``Example:``) are the ``///`` comments of ``crates/avax-data-py/src/``,
  which the built extension carries. When ``avax_data._native`` imports, its runtime docstrings
  replace the stubs' summaries (the signatures and types stay the stubs').
- A stub method with ``@overload`` signatures only (no implementation, as in a ``.pyi``) would
  not be listed: it becomes a member holding its overloads.
- An ``Args:`` entry may document several parameters at once (``timeout, connect_timeout, ...:
  the transport options of IndexClient``); griffe's parser takes one name per entry, so such an
  entry becomes one for its first name, naming the others.
- Our docstrings head their doctests ``Example:``; griffe's Google parser reads only ``Examples:``
  as a section of examples (rendered as code), so the heading is read as that.
"""

from __future__ import annotations

import importlib
import inspect
import re
from typing import Any

import griffe

_EXAMPLE = re.compile(r"^(\s*)Example:[ \t]*$", re.MULTILINE)
_NAMES = re.compile(r"^(?P<indent>[ \t]+)(?P<names>\w+(?:,[ \t]*\w+)*),[ \t]*$")


def _one_name_per_entry(doc: str) -> str:
    """Rewrite ``a, b,\n    c: text`` entries as ``a: (with ``b``, ``c``) text``."""
    lines = doc.split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        found = _NAMES.match(lines[i])
        j = i + 1
        names = found["names"].replace(" ", "").split(",") if found else []
        while found and j < len(lines) and ":" not in lines[j] and re.fullmatch(r"[\w,\s]+", lines[j]):
            names += [n for n in lines[j].replace(" ", "").split(",") if n]
            j += 1
        if not found or j == len(lines) or not re.fullmatch(r"\s*\w+(?:,\s*\w+)*", lines[j].split(":", 1)[0]):
            out.append(lines[i])
            i += 1
            continue
        head, desc = lines[j].split(":", 1)
        names += head.replace(" ", "").split(",")
        others = ", ".join(f"``{n}``" for n in names[1:])
        out.append(f"{found['indent']}{names[0]}: (and {others}){desc}")
        i = j + 1
    return "\n".join(out)


def _runtime_docstring(path: str) -> str | None:
    """The docstring of ``avax_data._native.<path>`` at run time, or None without the extension."""
    module_name, _, rest = path.partition("avax_data._native.")
    if module_name or not rest:
        return None
    try:
        obj: Any = importlib.import_module("avax_data._native")
    except ImportError:
        return None
    for part in rest.split("."):
        obj = getattr(obj, part, None)
        if obj is None:
            return None
    doc = getattr(obj, "__doc__", None)
    return inspect.cleandoc(doc) if isinstance(doc, str) and doc.strip() else None


class DocstringSections(griffe.Extension):
    """Full runtime docstrings for the native classes; ``Example:`` read as ``Examples:``."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        """Rewrite one object's docstring as it is loaded."""
        runtime = _runtime_docstring(obj.path)
        if runtime is not None:
            if obj.docstring is None:
                obj.docstring = griffe.Docstring(runtime, parent=obj)
            else:
                obj.docstring.value = runtime
        if obj.docstring is not None:
            obj.docstring.value = _EXAMPLE.sub(r"\1Examples:", _one_name_per_entry(obj.docstring.value))

    def on_class_members(self, *, cls: griffe.Class, **kwargs: Any) -> None:
        """List the methods of a stub that have overloads only: the last one, with the others."""
        for name, overloads in cls.overloads.items():
            if overloads and name not in cls.members:
                main = overloads[-1]
                main.overloads = overloads[:-1] or None
                cls.set_member(name, main)
