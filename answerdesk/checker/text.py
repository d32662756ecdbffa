"""Open answers: modes exact, typo3, typo5 (BG-R2, BG-R3, BG-R4, BG-R5.1-5.3, BG-R6.1).

A key is prepared once (``prepare_key`` is cached), a given answer once
(``prepare``), so re-checking many answers against one key is cheap.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from rapidfuzz.distance import OSA, Indel

from answerdesk.checker import lexicon
from answerdesk.checker.distance import typo_cost
from answerdesk.checker.normalize import hedge_parts, normalize, script_of
from answerdesk.checker.numbers import roman_value
from answerdesk.checker.translit import cyr_transcription, english_skeletons, skeletons

# outcome ranks of one comparison
WRONG, REVIEW, TYPO, EXACT = 0, 1, 2, 3


@dataclass(frozen=True)
class Prep:
    """One normalised text with everything the comparisons need."""

    raw: str
    norm: str
    compact: str
    tokens: tuple[str, ...]
    script: str
    numbers: tuple[str, ...]
    langs: tuple[str, ...]
    skels: tuple[str, ...]
    en_skels: tuple[str, ...]


@dataclass(frozen=True)
class Match:
    """How one given answer compares with one key answer."""

    rank: int
    dist: float
    reason: str


_NUM = re.compile(r"^\d+([.,]\d+)?$")


def _romans(raw: str) -> list[str]:
    """Roman numerals written in capitals ("Наполеон III"); a lone "I" only at the end."""
    found = re.findall(r"\b[IVXLCDM]+\b", raw)
    words = raw.split()
    return [r for r in found if r != "I" or (len(words) > 1 and words[-1] == "I")]


def _number_tokens(tokens: tuple[str, ...], raw: str) -> tuple[str, ...]:
    nums = [t for t in tokens if _NUM.match(t)]
    for r in _romans(raw):
        v = roman_value(r.lower())
        if v is not None:
            nums.append(str(v))
    return tuple(sorted(nums))


def _compact_without_numbers(tokens: tuple[str, ...], raw: str) -> str:
    romans = {r.lower() for r in _romans(raw)}
    return "".join(t for t in tokens if not _NUM.match(t) and t not in romans)


@lru_cache(maxsize=65536)
def prepare(raw: str) -> Prep:
    """Normalise one answer text and derive its tokens, numbers, script and skeletons."""
    norm = normalize(raw)
    tokens = tuple(norm.split(" ")) if norm else ()
    script = script_of(norm)
    langs = lexicon.langs_for(script, raw.casefold(), tokens)
    en = english_skeletons(norm) if script == "lat" else ()
    return Prep(
        raw=raw,
        norm=norm,
        compact=norm.replace(" ", ""),
        tokens=tokens,
        script=script,
        numbers=_number_tokens(tokens, raw),
        langs=langs,
        skels=skeletons(norm),
        en_skels=en,
    )


# ---------------------------------------------------------------- keys

_PARENS = re.compile(r"\s*[\(\{][^\)\}]*[\)\}]?\s*")
_BRACKETS = re.compile(r"\[([^\]]*)\]")


def _key_variants(text: str) -> list[str]:
    """Accepted spellings of one key entry: comments in (...) dropped, [optional] parts."""
    base = _PARENS.sub(" ", text).strip() or text
    out = [text, base]
    if _BRACKETS.search(base):
        out = [text, _BRACKETS.sub(r"\1", base), _BRACKETS.sub(" ", base)]
    more = []
    for v in out:
        n = normalize(v)
        if n.startswith("the ") and len(n) > 4:
            more.append(v.strip()[4:])
    return [v for v in dict.fromkeys(out + more) if normalize(v)]


@lru_cache(maxsize=4096)
def prepare_key(entries: tuple[str, ...]) -> tuple[tuple[str, Prep], ...]:
    """Prepared key answers: (entry as written, its prepared variant) pairs."""
    out: list[tuple[str, Prep]] = []
    for entry in entries:
        for v in _key_variants(entry):
            out.append((entry, prepare(v)))
    return tuple(out)


# ---------------------------------------------------------------- error budget


def budget(length: int, max_errors: int) -> tuple[int, int]:
    """(auto, review) error allowance for a key of ``length`` letters (BG-R2, BG-R4).

    The round allows *up to* ``max_errors``; a short answer gets fewer, because a
    few edits turn it into another answer. Up to ``review`` errors go to the host.
    """
    if length <= 3:
        auto, rev = 0, 1 if length >= 2 else 0
    elif length == 4:
        auto, rev = 0, 2
    elif length <= 6:
        auto, rev = 1, 3
    elif length <= 9:
        auto, rev = 2, 3
    elif length <= 12:
        auto, rev = 3, 4
    elif length <= 15:
        auto, rev = 4, 5
    else:
        auto, rev = 5, 6
    auto = min(auto, max_errors)
    return auto, max(rev if max_errors > 0 else 0, auto)


_INFLECTION = re.compile(r"^[аеиоуыэюяйьъ]{0,2}[мвх]?[аеиоуыэюяйь]{0,2}$")


def _is_inflection(key_word: str, given_word: str) -> bool:
    """Same stem, different grammatical ending ("маленький"/"маленькие")."""
    n = 0
    for a, b in zip(key_word, given_word, strict=False):
        if a != b:
            break
        n += 1
    if n < max(5, len(key_word) - 2):
        return False
    ka, ga = key_word[n:], given_word[n:]
    return len(ka) <= 3 and len(ga) <= 3 and bool(_INFLECTION.match(ka)) and bool(
        _INFLECTION.match(ga)
    )


def _align(g: Prep, a: Prep) -> list[tuple[str, str]]:
    """Pairs (key word, given word) that differ, when both have the same number of words."""
    if len(g.tokens) != len(a.tokens):
        return []
    return [(k, w) for k, w in zip(a.tokens, g.tokens, strict=True) if k != w]


def _different_word(key_word: str, given_word: str, langs: tuple[str, ...], rare: bool) -> bool:
    """The given word is a real word of its own, not a misspelling of the key word: known
    (wordfreq, CLDR) and not far rarer than the key word (wordfreq also lists common
    misspellings, which are much rarer than the word they misspell)."""
    if len(given_word) < 2:
        return False
    if given_word in lexicon.entity_names():
        return True
    zg = max(lexicon.zipf(given_word, lang) for lang in langs)
    if zg < (1.0 if rare else lexicon.KNOWN_ZIPF):
        return False
    zk = max(lexicon.zipf(key_word, lang) for lang in langs) if key_word else 0.0
    return zg >= zk - RARER_MARGIN


RARER_MARGIN = 2.0


def _word_guard(g: Prep, a: Prep, max_errors: int, rare: bool = False) -> str | None:
    """Why a near-miss must not be auto-accepted: a different real word (issue 3), or a
    word with more errors than its own length allows; None when it is a plain typo."""
    if g.norm in lexicon.entity_names() and g.norm != a.norm:
        return f"different name: {g.raw.strip()}"
    pairs = _align(g, a)
    if not pairs and len(g.tokens) != len(a.tokens):
        extra = [w for w in g.tokens if w not in a.tokens]
        pairs = [("", w) for w in extra] if len(g.tokens) > 1 else []
    langs = a.langs if a.script != "none" else g.langs
    for kw, gw in pairs:
        if kw and _is_inflection(kw, gw):
            continue
        if _different_word(kw, gw, langs, rare):
            return f"different word: {gw}"
        if kw:
            auto, _ = budget(len(kw), max_errors)
            if OSA.distance(kw, gw, score_cutoff=auto + 1) > auto:
                return f"too many errors in '{kw}'"
    return None


def _errors(n: int) -> str:
    return "1 spelling error" if n == 1 else f"{n} spelling errors"


RARE_ZIPF = 2.0


def _rare(a: Prep) -> bool:
    """True when a key word is rare or unknown (a name, a term): near-misses of it are
    more often other names than typos, so it gets a typo-weighted, smaller allowance."""
    words = [w for w in a.tokens if len(w) >= 4 and w.isalpha()]
    if not a.langs:
        return False
    return bool(words) and any(
        max(lexicon.zipf(w, lang) for lang in a.langs) < RARE_ZIPF for w in words
    )


def rare_budget(length: int, max_errors: int) -> float:
    """Typo-weighted allowance for a rare key word (see ``distance.typo_cost``)."""
    if length <= 6:
        return 0
    return min(max_errors, 1 if length <= 9 else 2 if length <= 12 else 3)


def _compare_same(g: Prep, a: Prep, max_errors: int) -> Match:
    gc, ac = g.compact, a.compact
    length = len(ac)
    auto, rev = budget(length, max_errors)
    d = OSA.distance(ac, gc, score_cutoff=rev + 1)
    if d > rev:
        return _similar(g, a, d)
    rare = _rare(a)
    guard = _word_guard(g, a, max_errors, rare)
    if guard:
        if d <= auto or Indel.normalized_similarity(ac, gc) >= SIMILAR_REVIEW:
            return Match(REVIEW, d, guard)
        return Match(WRONG, d, guard)
    if rare and d:
        if typo_cost(ac, gc) <= rare_budget(length, max_errors):
            return Match(TYPO, d, _errors(d))
        return Match(REVIEW, d, f"{_errors(d)} in a rare name")
    if d <= auto:
        return Match(TYPO, d, _errors(d))
    return Match(REVIEW, d, f"{_errors(d)} in a short answer")


SIMILAR_REVIEW = 0.5


def _similar(g: Prep, a: Prep, d: float) -> Match:
    """Not within the allowance: is it still worth the host's look, or plainly wrong?"""
    gt = [t for t in g.tokens if len(t) >= 3]
    at = [t for t in a.tokens if len(t) >= 3]
    if g.tokens and a.tokens:
        shared = [t for t in gt if t in at]
        if shared and len(shared) == len(at) and len(g.tokens) > len(a.tokens):
            return Match(REVIEW, d, "answer with extra words")
        if shared and len(shared) == len(gt) and len(g.tokens) < len(a.tokens):
            return Match(REVIEW, d, "partial answer")
    return Match(WRONG, d, "does not match")


def _compare_cross(g: Prep, a: Prep, max_errors: int, mode: str) -> Match:
    """Different scripts: Latin typing of Cyrillic (BG-R4.4), transcription (BG-R4.3)."""
    key_skels = a.skels + a.en_skels
    best = min(
        (OSA.distance(ks, gs), ks) for ks in key_skels for gs in g.skels if ks and gs
    ) if key_skels and g.skels else (99, "")
    d, ks = best
    length = len(ks.replace(" ", ""))
    auto, rev = budget(length, max_errors)
    if a.script == "cyr":
        what = f"Latin typing of '{a.raw.strip()}'"
    else:
        what = f"Cyrillic transcription of '{a.raw.strip()}'"
        if mode == "typo3" or mode == "exact":
            # BG-R4.3 (transcription of foreign words) is a rule of the media rounds.
            return Match(REVIEW, d, what) if d <= auto else Match(WRONG, d, "does not match")
    if d and any(
        len(w) > 2 and lexicon.known_word(w, g.langs, lexicon.KNOWN_ZIPF) for w in g.tokens
    ):
        if d <= auto:
            return Match(REVIEW, d, f"different word: {g.raw.strip()}")
        return Match(WRONG, d, "does not match")
    if d <= auto:
        return Match(TYPO, d, what if d == 0 else f"{what}, {_errors(d)}")
    if d <= rev:
        return Match(REVIEW, d, f"unusual transcription of '{a.raw.strip()}'")
    return Match(WRONG, d, "does not match")


def compare(g: Prep, a: Prep, mode: str, max_errors: int) -> Match:
    """Compare one given answer with one key answer."""
    if g.norm == a.norm:
        return Match(EXACT, 0, "exact match")
    if g.compact == a.compact:
        return Match(EXACT, 0, "exact match (spacing)")
    if g.numbers != a.numbers:
        if g.numbers and a.numbers:
            return Match(WRONG, 99, f"different number: {' '.join(g.numbers)}")
        if a.numbers and _compact_without_numbers(g.tokens, g.raw) == _compact_without_numbers(
            a.tokens, a.raw
        ):
            return Match(REVIEW, 50, "number missing")
        if a.numbers or not any(ch.isalpha() for ch in a.compact):
            return Match(WRONG, 99, "different number")
    if mode == "exact":
        return Match(WRONG, 99, "not exact (BG-R5.6)")
    same = g.script == a.script or "none" in (g.script, a.script) or "mixed" in (
        g.script,
        a.script,
    )
    if same:
        return _compare_same(g, a, max_errors)
    return _compare_cross(g, a, max_errors, mode)


def _best(g: Prep, key: tuple[tuple[str, Prep], ...], mode: str, max_errors: int):
    best: tuple[Match, str] | None = None
    for entry, a in key:
        m = compare(g, a, mode, max_errors)
        if best is None or (m.rank, -m.dist) > (best[0].rank, -best[0].dist):
            best = (m, entry)
            if m.rank == EXACT:
                break
    return best


def check_text(
    given: str,
    accept: tuple[str, ...],
    reject: tuple[str, ...],
    mode: str,
    max_errors: int,
) -> tuple[str, float | None, str]:
    """Outcome, fraction and reason for an open answer (exact/typo3/typo5)."""
    g = prepare(given)
    if not g.norm:
        return "wrong", 0.0, "empty answer"
    key = prepare_key(accept)
    rkey = prepare_key(reject) if reject else ()
    best = _best(g, key, mode, max_errors)
    assert best is not None
    m, _entry = best
    if rkey:
        rb = _best(g, rkey, mode, max_errors)
        if rb is not None:
            rm, rentry = rb
            if rm.rank == EXACT:
                return "wrong", 0.0, f"rejected answer: {rentry}"
            if m.rank < EXACT and rm.rank >= REVIEW and rm.dist <= m.dist:
                return "wrong", 0.0, f"close to rejected answer: {rentry}"
    if m.rank == EXACT:
        return "correct", 1.0, m.reason
    parts = hedge_parts(given)
    if parts and not any(hedge_parts(e) for e in accept):
        hits = [p for p in parts if _best(prepare(p), key, mode, max_errors)[0].rank >= REVIEW]
        if hits:
            return "review", None, "hedged answer (two answers in one)"
        return "wrong", 0.0, "hedged answer, no part matches"
    if m.rank == TYPO:
        return "correct", 1.0, m.reason
    if m.rank == REVIEW:
        return "review", None, m.reason
    return "wrong", 0.0, m.reason


def transcription_of(key_answer: str) -> str:
    """Bulgarian transcription of an English key answer (BG-R4.3), e.g. for hints."""
    return cyr_transcription(normalize(key_answer))
