"""Known words and names for the real-word guard (issue 3; BG-R2, CHECKER.md "review").

Word frequencies come from ``wordfreq`` (bg, ru, en); country, language and city
names from CLDR through ``babel``. Both are loaded lazily, on first use, and kept.
"""

from __future__ import annotations

import math
import re
from functools import lru_cache

from answerdesk.checker.normalize import normalize

LANGS = ("bg", "ru", "en")
#: a word at or above this Zipf frequency is a real word of its language
KNOWN_ZIPF = 1.5


@lru_cache(maxsize=None)
def _freqs(lang: str) -> dict[str, float]:
    from wordfreq import get_frequency_dict

    return get_frequency_dict(lang)


@lru_cache(maxsize=131072)
def zipf(word: str, lang: str) -> float:
    """Zipf frequency of one normalised word in a language (0 when unknown)."""
    f = _freqs(lang).get(word)
    if not f:
        return 0.0
    return round(math.log10(f) + 9, 2)


@lru_cache(maxsize=1)
def entity_names() -> frozenset[str]:
    """Normalised CLDR names of territories, languages and cities in bg, ru and en."""
    from babel import Locale

    names: set[str] = set()
    for code in LANGS:
        loc = Locale.parse(code)
        names.update(normalize(n) for n in loc.territories.values())
        names.update(normalize(n) for n in loc.languages.values())
        for zone in loc.time_zones.values():
            city = zone.get("city") if hasattr(zone, "get") else None
            if city:
                names.add(normalize(city))
    names.discard("")
    return frozenset(names)


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
