"""Jokers a team plays during a game (BG-J1 double, BG-J2 copy, BG-J3 first letter).

Which joker is allowed where lives in scoring.joker_allowed; what a joker does
to the points lives in scoring.score_question. This module records the play,
inside the round's lock like an answer save (BG-E2), with its audit entry.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from sqlalchemy.exc import IntegrityError

from ...checker import check
from ...core import audit
from ...core.rounds import question_of
from ...core.states import Outcome, RoundState
from ...core.text import team_name_key
from ...errors import Conflict, DeskError, NotFound, RoundLocked
from ...extensions import db
from ...models import Answer, Event, Question, Round, Team
from . import scoring
from .models import Joker

KINDS = (scoring.DOUBLE, scoring.COPY, scoring.FIRST_LETTER)
SECOND_DECISIONS = (Outcome.CORRECT, Outcome.WRONG)  # R2/R3 give no partial credit


def first_letter_hint(question: Question) -> str:
    """BG-J3: the question's own hint, else the first letter of the first accepted answer.

    For a song key the first performer is the default (music: the band's first letter).
    """
    if question.hint:
        return question.hint
    key = question.key
    if isinstance(key, dict) and "artists" in key:
        first = key["artists"][0][0] if key["artists"] and key["artists"][0] else ""
    elif isinstance(key, dict):
        first = (key.get("accept") or [""])[0]
    elif isinstance(key, list):
        first = key[0] if key else ""
    else:
        first = key
    return str(first).strip()[:1].upper()


def used_jokers(team: Team) -> list[Joker]:
    return list(db.session.scalars(
        db.select(Joker).where(Joker.team_id == team.id).order_by(Joker.id)
    ))


def applies(event: Event | None) -> bool:
    """BG-J jokers belong to the Bulgarian pub quiz: never to a ЧГК evening."""
    return event is not None and event.format == "bg"


#: round states a joker may be played in: a phone's only while the round is open; a
#: paper sheet's (BG-E1) also after the lock, until the answers are shown (BG-E3)
PAPER_PLAYABLE = frozenset((RoundState.OPEN, RoundState.LOCKED))
_PLAYABLE = {False: frozenset((RoundState.OPEN,)), True: PAPER_PLAYABLE}


def play_joker(
    team: Team,
    kind: str,
    round_number: int,
    question_number: int,
    *,
    copy_of: str | int | None = None,
    confirmed: bool = False,
    actor: str | None = None,
    source: str = "phone",
) -> Joker:
    """Play a joker on one question of an open round (BG-J1-J3); refused when not allowed.

    BG-J3 needs ``confirmed`` (the phone's confirm dialog) and cannot be undone.
    BG-J2 names the copied team by name (BG-G1 folding) or id. A paper team's joker
    (BG-E1) comes from the host's paper screen (``source`` "paper") by the same rules,
    and also once the round is locked: the sheet it is written on is handed in at
    the lock and typed after it, as the sheet's answers are (core/paper.py).
    """
    team_id, event_id, team_name = team.id, team.event_id, team.name
    event = db.session.get_one(Event, event_id)
    try:
        rnd, question = question_of(event, round_number, question_number, for_share=True)
        if not applies(event):
            raise Conflict("Jokers are not part of this game.")
        if rnd.state not in _PLAYABLE[source == "paper"]:
            raise RoundLocked("Round %(round)s is not open: no joker can be played.",
                              round=round_number)
        used = {j.kind for j in used_jokers(team)}
        if not scoring.joker_allowed(kind, round_number, used)[0]:
            raise _refusal(kind, used)
        joker = Joker(team_id=team_id, kind=kind, question_id=question.id)
        if kind == scoring.COPY:
            joker.target_team_id = _copied_team(event_id, team_id, copy_of).id
            own = db.session.scalar(db.select(Answer).where(
                Answer.team_id == team_id, Answer.question_id == question.id))
            if own is not None and own.text:
                raise Conflict("Clear your own answer to this question before copying.")
        elif kind == scoring.FIRST_LETTER:
            if not confirmed:
                raise DeskError("Confirm the first letter joker: it cannot be undone.",
                                joker=kind)
            joker.hint = first_letter_hint(question)
        db.session.add(joker)
        db.session.flush()
    except DeskError:
        db.session.rollback()
        raise
    except IntegrityError:
        db.session.rollback()
        raise _refusal(kind, {kind}) from None
    audit.record(
        event_id, actor or f"team:{team_name}", "joker.play",
        f"R{round_number}Q{question_number} {team_name}",
        after={"joker": kind, "copy_of": joker.target.name if joker.target else None,
               "hint": joker.hint, "source": source},
    )
    db.session.flush()
    return joker


def _refusal(kind: str, used: Collection[str]) -> Conflict:
    """Why scoring.joker_allowed said no (BG-J1-J3), as a refusal in the reader's language."""
    rounds = sorted(scoring.JOKER_ROUNDS.get(kind, ()))
    if not rounds:
        return Conflict("Unknown joker '%(joker)s'.", joker=kind)
    span = {"joker": kind, "first": rounds[0], "last": rounds[-1]}
    if kind == scoring.DOUBLE:
        if kind in used:
            return Conflict("Double joker already used in this game.", **span)
        return Conflict("Double joker only in rounds %(first)s-%(last)s.", **span)
    if kind == scoring.COPY:
        if kind in used:
            return Conflict("Copy joker already used in this game.", **span)
        return Conflict("Copy joker only in rounds %(first)s-%(last)s.", **span)
    if kind in used:
        return Conflict("First letter joker already used in this game.", **span)
    return Conflict("First letter joker only in rounds %(first)s-%(last)s.", **span)


def _copied_team(event_id: int, team_id: int, copy_of: str | int | None) -> Team:
    if isinstance(copy_of, int) and not isinstance(copy_of, bool):
        target = db.session.get(Team, copy_of)
    elif isinstance(copy_of, str) and copy_of.strip():
        target = db.session.scalar(db.select(Team).where(
            Team.event_id == event_id, Team.name_key == team_name_key(copy_of)))
    else:
        raise DeskError("Name the team whose answer you copy.", field="copy_of")
    if target is None or target.event_id != event_id:
        raise NotFound("No team '%(copy_of)s' in this event", copy_of=copy_of)
    if target.id == team_id:
        raise DeskError("A team cannot copy itself.", field="copy_of")
    return target


def check_second_answers(question: Question, rnd: Round) -> None:
    """BG-J1: the checker's proposal for the second answer of each double joker here."""
    rows = db.session.execute(
        db.select(Joker, Answer)
        .outerjoin(Answer, (Answer.team_id == Joker.team_id)
                   & (Answer.question_id == Joker.question_id))
        .where(Joker.question_id == question.id, Joker.kind == scoring.DOUBLE)
    ).all()
    mode = question.check_mode or rnd.check_mode
    for joker, answer in rows:
        fields = answer.fields if answer is not None and isinstance(answer.fields, dict) else {}
        second = str(fields.get("second") or "")
        if not second.strip():
            joker.second_outcome, joker.second_reason = None, "no second answer"
            continue
        verdict = check(second, question.key, mode)
        joker.second_outcome, joker.second_reason = verdict.outcome, verdict.reason[:300]


def decide_second(event: Event, joker_id: int, decision: str, actor: str = "host") -> Joker:
    """The host's last word on a double joker's second answer (BG-J1)."""
    if decision not in SECOND_DECISIONS:
        raise DeskError("Unknown decision '%(decision)s'; use correct or wrong",
                        decision=str(decision))
    joker = db.session.get(Joker, joker_id)
    if joker is None or joker.kind != scoring.DOUBLE or joker.team.event_id != event.id:
        raise NotFound("No such double joker in this event")
    audit.record(event, actor, "joker.decide", f"double {joker.team.name}",
                 before={"outcome": joker.second_outcome, "decision": joker.second_decision},
                 after={"decision": decision})
    joker.second_decision = decision
    db.session.flush()
    return joker


def team_jokers_json(team: Team, played: list[Joker] | None = None) -> dict[str, Any]:
    """What the phone shows: jokers left, jokers played, and first-letter hints (BG-J3);
    ``played``: the team's jokers when the caller has read them already."""
    played = used_jokers(team) if played is None else played
    used = {j.kind for j in played}
    return {
        "remaining": [k for k in KINDS if k not in used] if applies(team.event) else [],
        "rounds": {k: sorted(scoring.JOKER_ROUNDS[k]) for k in KINDS},
        "played": [
            {"kind": j.kind, "round": j.question.round.number, "question": j.question.number,
             "copy_of": j.target.name if j.target else None, "hint": j.hint}
            for j in played
        ],
    }


def event_jokers(event: Event) -> list[Joker]:
    """Every joker played in the event, for the host's view."""
    return list(db.session.scalars(
        db.select(Joker).join(Team, Joker.team_id == Team.id)
        .where(Team.event_id == event.id).order_by(Joker.id)
    ))
