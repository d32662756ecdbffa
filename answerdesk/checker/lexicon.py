"""Known words and names for the real-word guard (issue 3; BG-R2, CHECKER.md "review").

Word frequencies come from ``wordfreq`` (bg, ru, en); country, language and city
names from CLDR through ``babel``. Both are loaded lazily, on first use, and kept.
"""

from __future__ import annotations

import math
import re
from functools import cache, lru_cache

from answerdesk.checker.normalize import normalize

LANGS = ("bg", "ru", "en")
#: a word at or above this Zipf frequency is a real word of its language
KNOWN_ZIPF = 1.5


@cache
def _freqs(lang: str) -> dict[str, float]:
    """wordfreq's word -> frequency dict of one language, kept here."""
    import wordfreq

    table = wordfreq.get_frequency_dict(lang)
    # wordfreq also keeps the list of lists it was built from: millions of strings in
    # lists the garbage collector would walk on every full collection (~0.1 s pauses)
    wordfreq.get_frequency_list.cache_clear()
    return table


@lru_cache(maxsize=131072)
def zipf(word: str, lang: str) -> float:
    """Zipf frequency of one normalised word in a language (0 when unknown)."""
    f = _freqs(lang).get(word)
    if not f:
        return 0.0
    return round(math.log10(f) + 9, 2)


@lru_cache(maxsize=1)
def _entities() -> dict[str, frozenset[str]]:
    """Normalised CLDR name -> ids of what it names ("T:AT" a territory, "L:de" a
    language, "Z:Europe/Vienna" a city), over bg, ru and en."""
    from babel import Locale

    ids: dict[str, set[str]] = {}

    def add(name: str, what: str) -> None:
        n = normalize(name)
        if n:
            ids.setdefault(n, set()).add(what)

    for code in LANGS:
        loc = Locale.parse(code)
        for tcode, name in loc.territories.items():
            add(name, f"T:{tcode}")
        for lcode, name in loc.languages.items():
            add(name, f"L:{lcode}")
        for zone, info in loc.time_zones.items():
            city = info.get("city") if hasattr(info, "get") else None
            if city:
                add(city, f"Z:{zone}")
    return {n: frozenset(v) for n, v in ids.items()}


@lru_cache(maxsize=1)
def entity_names() -> frozenset[str]:
    """Normalised CLDR names of territories, languages and cities in bg, ru and en."""
    return frozenset(_entities())


def same_entity(a: str, b: str) -> bool:
    """True when two normalised names name one territory, language or city (CLDR), e.g.
    the Bulgarian and the Russian name of a country."""
    table = _entities()
    x, y = table.get(a), table.get(b)
    return bool(x and y and x & y)


def langs_for(script: str, low: str, words: tuple[str, ...]) -> tuple[str, ...]:
    """Languages whose word lists apply to a text: English for Latin; for Cyrillic,
    Russian or Bulgarian by their own letters (ы э ё / ъ before a consonant), else by
    which language's word list knows the words, else both."""
    if script == "lat":
        return ("en",)
    if script == "none":
        return ()
    ru = bool(re.search(r"[ыэё]", low))
    bg = bool(re.search(r"ъ[бвгджзклмнпрстфхцчшщ]|[^\W\d_]ът\b", low))
    if ru != bg:
        return ("ru",) if ru else ("bg",)
    content = [w for w in words if len(w) >= 3 and w.isalpha()]
    zru = sum(zipf(w, "ru") for w in content)
    zbg = sum(zipf(w, "bg") for w in content)
    if zru > zbg + LANG_MARGIN:
        return ("ru",)
    if zbg > zru + LANG_MARGIN:
        return ("bg",)
    return ("bg", "ru")


LANG_MARGIN = 1.0


@lru_cache(maxsize=65536)
def known_word(word: str, langs: tuple[str, ...], threshold: float = KNOWN_ZIPF) -> bool:
    """True when ``word`` is a common word of one of ``langs`` or a known name (CLDR)."""
    if word in entity_names():
        return True
    return any(zipf(word, lang) >= threshold for lang in langs)
