"""Своя игра's protests (SI-3): "СТОП" on a question's published results before the
next theme starts, the host's "СТОЮ", and the decision; the game stands meanwhile.
Services flush; the views commit.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from ...core import audit, clock, rounds
from ...errors import Conflict, DeskError, NotFound
from ...extensions import db
from ...models import Event, Question, Round, Team, utcnow
from . import rules
from .game import decide, lists_of
from .models import SiPlayer, SiProtest, SiQuestion
from .players import player, warn
from .sheet_parts import SiProtestable
from .themes import theme_name, value_of


class ProtestRefused(Conflict):
    code = "protest_refused"


class ProtestWindowClosed(Conflict):
    code = "protest_window_closed"


class ProtestPending(Conflict):
    code = "protest_pending"


def pending_protests(event: Event) -> list[SiProtest]:
    """Protests the host has not decided yet, oldest first."""
    return list(db.session.scalars(
        db.select(SiProtest).join(Question, SiProtest.question_id == Question.id)
        .join(Round, Question.round_id == Round.id)
        .where(Round.event_id == event.id, SiProtest.state.in_(
            [rules.ProtestState.FILED, rules.ProtestState.HEARD]))
        .order_by(SiProtest.id)))


def protests(event: Event) -> list[tuple[SiProtest, Question, Round]]:
    """Every protest of the event with its question, oldest first (the host's page)."""
    rows = db.session.execute(
        db.select(SiProtest, Question, Round)
        .join(Question, SiProtest.question_id == Question.id)
        .join(Round, Question.round_id == Round.id)
        .where(Round.event_id == event.id).order_by(SiProtest.id))
    return [tuple(row) for row in rows]


def open_windows(event: Event) -> list[tuple[Question, Round]]:
    """SI-3: the questions a protest may be filed on now, in the order they started:
    published, and no question of another theme started since (rules.open_protest_windows)."""
    started = clock.event_gates(event)
    published = set(db.session.scalars(db.select(SiQuestion.question_id).where(
        SiQuestion.question_id.in_([q.id for _, q, _ in started]),
        SiQuestion.published_at.is_not(None))))
    open_at = rules.open_protest_windows(
        [((r.number, rules.theme_of(q.number)), q.id in published) for _, q, r in started])
    return [(started[i][1], started[i][2]) for i in open_at]


def protestable(event: Event, row: SiPlayer | None,
                own: list[SiProtest]) -> list[SiProtestable]:
    """SI-3 on the phone: each question the player may protest now (in competition, its
    window open), with what tells it apart (round, theme, value, the answer) and the
    state of the player's own latest protest on it (``own``, oldest first; a pending
    one: no second СТОП)."""
    if row is not None and not rules.may_protest(
            row.in_competition, row.warnings >= rules.WARNINGS_TO_REMOVE):
        return []
    latest = {p.question_id: p.state for p in own}
    return [SiProtestable(round=rnd.number, question=q.number, theme=rules.theme_of(q.number),
                          theme_name=theme_name(rnd, rules.theme_of(q.number)),
                          value=value_of(rnd, q), answer=q.shown_answer,
                          protest=latest.get(q.id)) for q, rnd in open_windows(event)]


def protest(event: Event, team: Team, round_number: int, question_number: int, text: Any,
            now: dt.datetime | None = None) -> SiProtest:
    """SI-3 "СТОП": a player in competition protests a question's published results,
    before the next theme starts."""
    if not isinstance(text, str) or not text.strip() or len(text) > 1000:
        raise DeskError("The protest must be text of 1 to 1000 characters.")
    row = player(team)
    if not rules.may_protest(row.in_competition, row.warnings >= rules.WARNINGS_TO_REMOVE):
        raise ProtestRefused("Only players in competition may protest (SI-3).")
    _, question = rounds.question_of(event, round_number, question_number)
    if question.id not in {q.id for q, _ in open_windows(event)}:
        raise ProtestWindowClosed("Protests on question %(question)s are taken from the "
                                  "publication of its answer until the next theme starts "
                                  "(SI-3).", question=question_number)
    if any(p.team_id == team.id and p.question_id == question.id
           for p in pending_protests(event)):
        raise ProtestRefused("Your protest on this question is already with the host.")
    filed = SiProtest(question_id=question.id, team_id=team.id, text=text.strip(),
                      state=rules.ProtestState.FILED, filed_at=now or utcnow())
    db.session.add(filed)
    audit.record(event, f"player:{team.name}", "si.protest",
                 f"R{round_number}Q{question_number}", after={"text": filed.text})
    db.session.flush()
    return filed


def _protest(event: Event, protest_id: Any) -> tuple[SiProtest, Question, Round]:
    found = next(((p, q, r) for p, q, r in protests(event)
                  if not isinstance(protest_id, bool) and p.id == protest_id), None)
    if found is None:
        raise NotFound("No protest %(id)s in this event.", id=str(protest_id)[:20])
    return found


def hear(event: Event, protest_id: Any, actor: str, now: dt.datetime | None = None,
         ) -> SiProtest:
    """SI-3 "СТОЮ": the host acknowledges the protest; the game stands until decided."""
    row, question, rnd = _protest(event, protest_id)
    if row.state != rules.ProtestState.FILED:
        raise Conflict("This protest was already acknowledged.")
    row.state, row.heard_at = rules.ProtestState.HEARD, now or utcnow()
    audit.record(event, actor, "si.hear", f"R{rnd.number}Q{question.number} {row.team.name}",
                 before={"state": "filed"}, after={"state": "heard"})
    db.session.flush()
    return row


def decide_protest(event: Event, protest_id: Any, upheld: Any, changes: Any, warn_player: Any,
                   actor: str, now: dt.datetime | None = None) -> dict[str, Any]:
    """SI-3: the host's word after hearing a protest. Upheld: the marks in ``changes``
    (``[{"player", "mark"}]``) are set and the results republished. Groundless: the
    results stand; a warning if the host gives one, and always for a repeated one."""
    if not isinstance(upheld, bool) or not isinstance(warn_player, bool):
        raise DeskError("upheld and warn must be true or false.")
    if changes is None:
        changes = []
    if not isinstance(changes, list) or not all(isinstance(c, dict) for c in changes):
        raise DeskError("changes must be a list of objects with player and mark.")
    if upheld and not changes:
        raise DeskError("An upheld protest changes at least one mark.")
    if not upheld and changes:
        raise DeskError("A groundless protest changes no mark.")
    row, question, rnd = _protest(event, protest_id)
    if row.state != rules.ProtestState.HEARD:
        raise Conflict("Acknowledge the protest first (СТОЮ); a decided one stays decided.")
    before = lists_of(rnd, question).lines()
    for change in changes:
        decide(event, rnd.number, question.number, change.get("player"), change.get("mark"),
               actor)
    warned = False
    if not upheld:
        groundless = sum(1 for p, _, _ in protests(event) if p.team_id == row.team_id
                         and p.state == rules.ProtestState.REJECTED)
        warned = warn_player or rules.must_warn(groundless)
        if warned:
            warn(event, row.team.name, actor)
    row.state = rules.ProtestState.UPHELD if upheld else rules.ProtestState.REJECTED
    row.decided_at, row.warned = now or utcnow(), warned
    after = lists_of(rnd, question).lines()
    audit.record(event, actor, "si.protest.decide",
                 f"R{rnd.number}Q{question.number} {row.team.name}",
                 before={"lists": before},
                 after={"state": str(row.state), "lists": after, "warned": warned})
    if after != before:
        audit.record(event, actor, "si.publish", f"R{rnd.number}Q{question.number}",
                     before={"lists": before}, after={"lists": after})
    db.session.flush()
    return {"state": str(row.state), "warned": warned, "lists": after}
