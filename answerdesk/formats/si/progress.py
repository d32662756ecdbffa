"""Своя игра's progress: late players joining (SI-1.2) and how core starts a question
(SI-2.2b: the host closes it; SI-3: none starts while a protest is heard).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import replace

from ...core import clock
from ...core.formats import QuestionStart
from ...errors import Conflict
from ...models import Event, Question, QuestionGate, utcnow
from . import rules
from .game import latest_question, stored_state
from .protests import ProtestPending, pending_protests


class LateJoinClosed(Conflict):
    code = "late_join_closed"


class JoinBetweenQuestions(Conflict):
    code = "join_between_questions"


def _taking_answers(gate: QuestionGate, question: Question, now: dt.datetime) -> bool:
    state = stored_state(question)
    return (state is None or state.closed_at is None) and clock.is_running(gate, now)


def check_join(event: Event, now: dt.datetime | None = None) -> None:
    """SI-1.2: late players join during rounds 1 and 2, between questions."""
    latest = latest_question(event)
    verdict = rules.may_join(
        latest[2].number if latest else None,
        latest is not None and _taking_answers(latest[0], latest[1], now or utcnow()))
    if verdict == rules.Join.CLOSED:
        raise LateJoinClosed("Late players join during the first two rounds only; round "
                             "%(round)s has begun (SI-1.2).", round=latest[2].number if latest
                             else rules.ROUNDS)
    if verdict == rules.Join.WAIT:
        raise JoinBetweenQuestions("A question is being played: join between questions, "
                                   "once the host has closed it (SI-1.2).")


def start(event: Event, start: QuestionStart) -> QuestionStart:
    """How core starts a question of Своя игра: no deadline unless the host sets one (the
    host closes it, SI-2.2b); refused while a protest is heard (SI-3: the game stands)."""
    if pending_protests(event):
        raise ProtestPending("A protest is being heard (СТОЮ): decide it before the next "
                             "question (SI-3).")
    if start.asked:
        return start
    return replace(start, seconds=None, grace=None, locks_at=None)
