"""The shape of an open question's key (docs/checker.md): a list of accepted answers or
{"accept": [...], "reject": [...]}. Apart from core.py so the modes that read a key
(text, song, choice) need not import the entry point that dispatches to them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def _strings(value: Any, what: str) -> tuple[str, ...]:
    if isinstance(value, (str, int, float)) and not isinstance(value, bool):
        value = [value]
    if not isinstance(value, (list, tuple)):
        raise ValueError(f"{what} must be a list of strings, got {type(value).__name__}")
    out = []
    for item in value:
        if isinstance(item, bool) or not isinstance(item, (str, int, float)):
            raise ValueError(f"{what} must hold strings or numbers, got {item!r}")
        out.append(str(item))
    return tuple(out)


def parse_open_key(key: Any) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(accept, reject) of a list key or an {"accept": [...], "reject": [...]} key."""
    if isinstance(key, Mapping):
        unknown = set(key) - {"accept", "reject"}
        if unknown or "accept" not in key:
            raise ValueError(
                "key must be a list of accepted answers or {'accept': [...], 'reject': [...]}; "
                f"got keys {sorted(map(str, key))}"
            )
        accept = _strings(key["accept"], "key 'accept'")
        reject = _strings(key.get("reject") or [], "key 'reject'")
    else:
        accept, reject = _strings(key, "key"), ()
    if not any(a.strip() for a in accept):
        raise ValueError("key has no accepted answer")
    return accept, reject
