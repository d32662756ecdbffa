"""The Bulgarian pub quiz (RULES.md BG-*): programme R1-R6, jokers, wildcard, final,
shoot-out, league and BG scoring, registered in core's format registry by ``load``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.formats import Format, RoundTemplate, register
from .programme import BG_PROGRAMME

if TYPE_CHECKING:
    from flask import Flask


class BulgarianQuiz(Format):
    """BG-R1..R6 and the BG league; its modules are imported when a hook needs them."""

    name = "bg"
    label = "Bulgarian pub quiz"

    def programme(self) -> tuple[RoundTemplate, ...]:
        return BG_PROGRAMME

    def standings(self, event: Any) -> list[Any]:
        from .standings import event_standings

        return event_standings(event)


BG = BulgarianQuiz()


def N_(msgid: str) -> str:
    """Mark a msgid for extraction (this module stays importable without Flask)."""
    return msgid


# The audit actions the BG rules write, as sentences (core/labels.py).
AUDIT_SENTENCES = {
    "question.open": N_("Final question %(question)s is shown"),
    "question.lock": N_("Final question %(question)s is closed and checked"),
    "question.reveal": N_("Final question %(question)s: the answer is revealed"),
    "joker.play": N_("%(team)s played a joker on question %(question)s of round %(round)s"),
    "joker.decide": N_("Decision on the second answer of a double joker"),
    "shootout.start": N_("A shoot-out started"),
    "shootout.lock": N_("The shoot-out is closed"),
    "wildcard.draw": N_("%(team)s chooses the wildcard scenario"),
    "wildcard.choose": N_("Round %(round)s: wildcard scenario %(team)s chosen"),
    "league.edition": N_("The evening joined the league month %(subject)s"),
    "league.merge": N_("League teams merged: %(subject)s"),
}


def load(app: Flask | None = None) -> BulgarianQuiz:
    """Register the BG format (called by the app factory through formats.load_all)."""
    from ...core.labels import add_audit_sentences

    add_audit_sentences(AUDIT_SENTENCES)
    return register(BG)
