"""Typo-weighted edit cost (BG-R2/R3 "spelling errors", issue 3).

A slip of the finger or of the ear (a neighbouring key, a voiced/unvoiced pair, a
doubled letter, a vowel) is a typo; replacing unrelated consonants or the first
letter is more likely a different word. Used for rare key words, where a few
edits easily make another name.
"""

from __future__ import annotations

from functools import lru_cache

from rapidfuzz.distance import Levenshtein

_VOWELS = frozenset("аеиоуыэюяъaeiouy")
_ROWS = ("йцукенгшщзхъ", "фывапролджэ", "ячсмитьбю", "qwertyuiop", "asdfghjkl", "zxcvbnm")
_SIMILAR = ("бп", "вф", "гкх", "дт", "жшщ", "зсц", "чщш", "цтс", "мн", "лр", "йи", "ьъ",
            "bp", "vfw", "gkq", "dt", "sz", "ck", "mn", "lr", "iy")


@lru_cache(maxsize=1)
def _neighbours() -> dict[str, frozenset[str]]:
    near: dict[str, set[str]] = {}
    for block in ((0, 1, 2), (3, 4, 5)):
        rows = [_ROWS[i] for i in block]
        for r, row in enumerate(rows):
            for i, ch in enumerate(row):
                side = (row[j] for j in (i - 1, i + 1) if 0 <= j < len(row))
                near.setdefault(ch, set()).update(side)
                if r + 1 < len(rows):
                    below = rows[r + 1]
                    for j in (i - 1, i):
                        if 0 <= j < len(below):
                            near[ch].add(below[j])
                            near.setdefault(below[j], set()).add(ch)
    for group in _SIMILAR:
        for ch in group:
            near.setdefault(ch, set()).update(c for c in group if c != ch)
    return {k: frozenset(v) for k, v in near.items()}


def close(a: str, b: str) -> bool:
    """Two letters a finger or an ear slips between: two vowels, neighbouring keys, a
    voiced/unvoiced or sound-alike pair."""
    return (a in _VOWELS and b in _VOWELS) or b in _neighbours().get(a, ())


#: edits within this many last letters of the key word count half
ENDING = 2


@lru_cache(maxsize=65536)
def typo_cost(key: str, given: str) -> float:
    """Edit cost where typo-like edits cost 1 (or 0.5 for a doubled letter) and
    unrelated substitutions 1.5; any edit at the first letter costs 1 more, an edit
    in the word's ending half."""
    ops = list(Levenshtein.editops(key, given))
    cost = 0.0
    i = 0
    while i < len(ops):
        op = ops[i]
        s, d = op.src_pos, op.dest_pos
        if (
            op.tag == "replace"
            and i + 1 < len(ops)
            and ops[i + 1].tag == "replace"
            and ops[i + 1].src_pos == s + 1
            and key[s] == given[d + 1]
            and key[s + 1] == given[d]
        ):
            cost += 1 + (s == 0)
            i += 2
            continue
        if op.tag == "replace":
            w = 1.0 if close(key[s], given[d]) else 1.5
            first = s == 0
        elif op.tag == "delete":
            ch = key[s]
            w = 0.5 if (s and key[s - 1] == ch) or (s + 1 < len(key) and key[s + 1] == ch) else 1.0
            first = s == 0
        else:
            ch = given[d]
            dbl = (d and given[d - 1] == ch) or (d + 1 < len(given) and given[d + 1] == ch)
            w = 0.5 if dbl else 1.0
            first = d == 0
        if s >= len(key) - ENDING and not first:
            w *= 0.5  # the ending: grammar slips ("приколотся"), not another stem
        cost += w + (1.0 if first else 0.0)
        i += 1
    return cost
