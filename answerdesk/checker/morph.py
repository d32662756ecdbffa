"""pymorphy3's Russian analyser, shared by the word lists (lexicon.py) and the number
words (numbers.py), which lexicon imports through normalize."""

from __future__ import annotations

from functools import cache


@cache
def russian():
    """pymorphy3's Russian analyser (OpenCorpora dictionary), built once."""
    import pymorphy3

    return pymorphy3.MorphAnalyzer(lang="ru")
