"""Why the checker decided: a stable code plus its values (docs/checker.md, issue 16 §8).

A page shows a reason in the host's language by looking its code up in ``CATALOGUE``
and rendering the msgid through the catalogues (bg/ru/en) with the values; the
English ``text`` is for logs and tools only. The checker stays pure: the markers
below only let ``make messages`` extract the msgids, they translate nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any


def N_(msgid: str) -> str:
    """Marks a msgid for extraction (``make messages``); returns it unchanged."""
    return msgid


def NP_(singular: str, plural: str) -> tuple[str, str]:
    """Marks a singular/plural msgid pair for extraction; the number is ``count``."""
    return singular, plural


#: code -> msgid, or (singular, plural) msgids chosen by the value ``count``
CATALOGUE: dict[str, str | tuple[str, str]] = {
    "empty": N_("empty answer"),
    "exact": N_("exact match"),
    "exact_spacing": N_("exact match (spacing)"),
    "not_exact": N_("not exact (BG-R5.6)"),
    "lookalike": N_("the same word typed with look-alike letters of the other script"),
    "spelling_errors": NP_("%(count)s spelling error", "%(count)s spelling errors"),
    "spelling_errors_short": NP_(
        "%(count)s spelling error in a short answer", "%(count)s spelling errors in a short answer"
    ),
    "rare_name_errors": NP_(
        "%(count)s spelling error in a rare name", "%(count)s spelling errors in a rare name"
    ),
    "rare_name_two_places": NP_(
        "%(count)s spelling error in two places of a rare name",
        "%(count)s spelling errors in two places of a rare name",
    ),
    "too_many_errors": N_("too many errors in '%(word)s'"),
    "different_word": N_("different word: %(word)s"),
    "different_name": N_("different name: %(word)s"),
    "different_beginning": N_("different beginning: %(word)s"),
    "other_surname": N_("another surname? %(word)s"),
    "other_gender": N_("the other gender form of the surname: %(word)s"),
    "other_form": N_("another form of the name, or another thing: %(word)s"),
    "surname_only": N_("surname only: %(key)s"),
    "other_name": N_("another name of the same thing? %(word)s"),
    "odd_vowel": N_("1 vowel changed in an unknown word: %(word)s"),
    "word_order": N_("words in another order"),
    "extra_words": N_("answer with extra words"),
    "partial_answer": N_("partial answer"),
    "no_match": N_("does not match"),
    "different_number": N_("different number: %(number)s"),
    "number_missing": N_("number missing"),
    "number_differs": N_("different number"),
    "number_in_words": N_("same number in words or numerals: %(number)s"),
    "latin_typing": N_("Latin typing of '%(key)s'"),
    "latin_typing_errors": NP_(
        "Latin typing of '%(key)s', %(count)s spelling error",
        "Latin typing of '%(key)s', %(count)s spelling errors",
    ),
    "transcription": N_("Cyrillic transcription of '%(key)s'"),
    "transcription_errors": NP_(
        "Cyrillic transcription of '%(key)s', %(count)s spelling error",
        "Cyrillic transcription of '%(key)s', %(count)s spelling errors",
    ),
    "article_form": N_("the same word with or without the definite article"),
    "other_convention": N_("another standard spelling of %(key)s"),
    "same_name": N_("the same name in another language: %(key)s"),
    "abbreviation": N_("abbreviation of %(key)s"),
    "abbreviation_unsure": N_("initials of %(key)s: an abbreviation in use?"),
    "unusual_transcription": N_("unusual transcription of '%(key)s'"),
    "other_script": N_("same word in another script? '%(key)s'"),
    "rejected": N_("rejected answer: %(entry)s"),
    "nearer_rejected": N_("nearer to the rejected answer %(entry)s than to %(key)s"),
    "equally_near": N_("as near to the rejected answer %(entry)s as to %(key)s"),
    "hedged": N_("hedged answer (two answers in one)"),
    "hedged_no_part": N_("hedged answer, no part matches"),
    "right_number": N_("right number"),
    "several_numbers": N_("several numbers"),
    "not_a_number": N_("not a number"),
    "right_option": N_("right option"),
    "right_option_latin_b": N_("right option (Latin B as Б)"),
    "latin_b": N_("Latin B: Б or В?"),
    "other_option": N_("other option"),
    "two_options": N_("two options in one answer"),
    "not_an_option": N_("not an option"),
    "option_text_differs": N_("the option's letter and its text do not agree"),
    "song_uncertain": N_("title or performer uncertain"),
    "song_all": N_("title and all performers"),
    "song_title_only": N_("title only (%(missing)s of %(total)s performers missing)"),
    "song_performers_only": N_("performers only, title missing"),
    "song_neither": N_("neither title nor all performers"),
    "pairs_twice": N_("a number paired twice"),
    "pairs_unreadable": N_("cannot read the pairs"),
    "pairs_unknown_letter": N_("unknown letter %(letter)s"),
    "pairs_all": N_("all pairs right"),
    "pairs_some": N_("%(right)s of %(total)s pairs right"),
}


@dataclass(frozen=True)
class Reason:
    """One reason: a code of ``CATALOGUE`` and its values (name/value pairs)."""

    code: str
    items: tuple[tuple[str, Any], ...] = ()

    @property
    def params(self) -> dict[str, Any]:
        """The values as a fresh dict (JSON-ready: strings and numbers)."""
        return dict(self.items)

    @property
    def text(self) -> str:
        """The English sentence, for logs, tools and the batch mode."""
        return _english(self)


def _same(msgid: str) -> str:
    return msgid


def _same_plural(singular: str, plural: str, n: int) -> str:
    return singular if n == 1 else plural


@lru_cache(maxsize=65536)
def _english(reason: Reason) -> str:
    """English text of a reason, once per distinct reason (checks repeat them)."""
    return render(reason.code, reason.params, _same, _same_plural)


def why(code: str, **params: Any) -> Reason:
    """A reason with its values; an unknown code is a programming error."""
    if not params:
        return _PLAIN[code]
    if code not in CATALOGUE:
        raise KeyError(f"unknown reason code {code!r}")
    return Reason(code, tuple(params.items()))


#: the reasons without values, made once (most checks end in one of them)
_PLAIN = {code: Reason(code) for code in CATALOGUE}


def render(code: str | None, params: Mapping[str, Any] | None, gettext: Any, ngettext: Any) -> str:
    """A reason rendered with the given gettext/ngettext (a page passes the catalogue's);
    "" for an unknown or missing code, so the caller can fall back."""
    msg = CATALOGUE.get(code or "")
    if msg is None:
        return ""
    values = dict(params or {})
    try:
        if isinstance(msg, tuple):
            return ngettext(msg[0], msg[1], int(values.get("count", 0))) % values
        return gettext(msg) % values
    except (KeyError, TypeError, ValueError):  # values stored by an older checker
        return ""
