"""Своя игра played over the database (SI-0 … SI-3).

The host starts a question (core's start, shaped by ``start``: no deadline, the
host closes it), players send one private answer each, the host says ВСЁ, the
checker proposes, the host decides and publishes the lists; a "ПРОПУСТИЛИ" claim
is settled by the server's receipt times; a protest ("СТОП") stops the game until
the host has heard it and decided. Services flush; the views commit. Refusals
change nothing.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from dataclasses import dataclass, replace
from typing import Any

from sqlalchemy.exc import IntegrityError

from ...checker import check
from ...core import audit, clock, rounds
from ...core.formats import QuestionStart
from ...core.labels import N_
from ...core.teams import team_named
from ...errors import Conflict, DeskError, NotFound
from ...extensions import db
from ...models import Event, Question, QuestionGate, Round, Team, utcnow
from . import rules
from .models import SiAnswer, SiPlayer, SiProtest, SiQuestion, SiTheme


class OnlyFirstCounts(Conflict):
    code = "only_first_counts"


class QuestionNotOpen(Conflict):
    code = "question_not_open"


class PlayerRemoved(Conflict):
    code = "player_removed"


class LateJoinClosed(Conflict):
    code = "late_join_closed"


class JoinBetweenQuestions(Conflict):
    code = "join_between_questions"


class AuthorsTheme(Conflict):
    code = "authors_theme"


class ProtestRefused(Conflict):
    code = "protest_refused"


class ProtestWindowClosed(Conflict):
    code = "protest_window_closed"


class ProtestPending(Conflict):
    code = "protest_pending"


def _gate(question: Question) -> QuestionGate | None:
    return db.session.scalar(db.select(QuestionGate).where(
        QuestionGate.question_id == question.id))


def _state(question: Question) -> SiQuestion:
    row = db.session.scalar(db.select(SiQuestion).where(SiQuestion.question_id == question.id))
    if row is None:
        row = SiQuestion(question_id=question.id)
        db.session.add(row)
    return row


def in_competition_by_name(name: str) -> bool:
    """SI-1.2: a player who joins as "@Name" plays out of competition."""
    return not name.startswith("@")


def player(team: Team) -> SiPlayer:
    row = db.session.scalar(db.select(SiPlayer).where(SiPlayer.team_id == team.id))
    if row is None:
        row = SiPlayer(team_id=team.id, in_competition=in_competition_by_name(team.name),
                       warnings=0)
        db.session.add(row)
    return row


#: Своя игра's teams are players: core's team lookup refuses with this.
NO_PLAYER = N_("No player called '%(name)s'.")


def value_of(rnd: Round, question: Question) -> int:
    """SI-1.1's value for the question's place, whatever price a pack gave it; a
    question off the 3 × 25 board keeps its own points."""
    try:
        return rules.value(rnd.number, question.number)
    except ValueError:
        return question.points or rnd.points


def theme_name(rnd: Round, theme: int) -> str | None:
    """The theme's name as the pack gave it (Round.themes), None for a programme
    built without a pack (the pages then say "Theme n")."""
    names = rnd.themes or []
    return names[theme - 1] if 0 < theme <= len(names) and names[theme - 1] else None


def answer(event: Event, team: Team, round_number: int, question_number: int, text: Any,
           now: dt.datetime | None = None) -> SiAnswer:
    """SI-2.2: a player's one answer; a second is refused, the first stands.

    After ВСЁ (SI-2.2b) the answer is still received, marked late: a claim later
    shows when it came.
    """
    if not isinstance(text, str) or not text.strip() or len(text) > 500:
        raise DeskError("The answer must be text of 1 to 500 characters.")
    if player(team).warnings >= rules.WARNINGS_TO_REMOVE:
        raise PlayerRemoved("You were removed from the game (SI-1.3).")
    rnd, question = rounds.question_of(event, round_number, question_number)
    gate = _gate(question)
    if gate is None:
        raise QuestionNotOpen("Question %(question)s is not open.", question=question_number)
    if not rules.author_may_answer(author_of(rnd, rules.theme_of(question.number)) == team.id,
                                   question.number, top_question(rnd, question.number)):
        raise AuthorsTheme("You wrote this theme: you play it only by answering its most "
                           "expensive question (SI-0).")
    now = now or utcnow()
    state = _state(question)
    ends = _ends(state, gate)
    row = SiAnswer(question_id=question.id, team_id=team.id, text=text.strip(), received_at=now,
                   late=ends is not None and now > ends)
    try:
        with db.session.begin_nested():
            db.session.add(row)
    except IntegrityError:
        raise OnlyFirstCounts("Only your first answer counts; it is already in.") from None
    return row


def close(event: Event, round_number: int, question_number: int, actor: str,
          now: dt.datetime | None = None) -> list[SiAnswer]:
    """SI-2.2b ВСЁ: later answers are late; the checker proposes for the rest."""
    rnd, question = rounds.question_of(event, round_number, question_number)
    gate = _gate(question)
    state = _state(question)
    if gate is None:
        raise QuestionNotOpen("Question %(question)s is not open.", question=question_number)
    if state.closed_at is not None:
        raise Conflict("Question %(question)s is already closed.", question=question_number)
    now = now or utcnow()
    state.closed_at = min(now, gate.locks_at) if gate.locks_at else now
    gate.state, gate.locked_at = "locked", state.closed_at
    rows = answers_of(question)
    for row in rows:
        if row.received_at > state.closed_at:
            row.late = True
        if not row.late:
            verdict = check(row.text, question.key, question.mode)
            row.proposed = verdict.outcome if verdict.outcome in ("correct", "wrong") \
                else "review"
            row.proposed_reason = verdict.reason[:300]
    audit.record(event, actor, "si.close", f"R{rnd.number}Q{question.number}",
                 after={"answers": len(rows)})
    db.session.flush()
    return rows


def _ends(state: SiQuestion, gate: QuestionGate) -> dt.datetime | None:
    """When answers become late: the ВСЁ, or the deadline the host set at the start."""
    ends = [t for t in (state.closed_at, gate.locks_at) if t is not None]
    return min(ends) if ends else None


def answers_of(question: Question) -> list[SiAnswer]:
    return list(db.session.scalars(db.select(SiAnswer).where(
        SiAnswer.question_id == question.id).order_by(SiAnswer.received_at, SiAnswer.id)))


def decide(event: Event, round_number: int, question_number: int, name: Any, mark: Any,
           actor: str) -> SiAnswer:
    """The host's word on one answer: correct, wrong, or none (set aside)."""
    if mark not in ("correct", "wrong", "none"):
        raise DeskError("mark must be correct, wrong or none.")
    _, question = rounds.question_of(event, round_number, question_number)
    team = team_named(event, name, NO_PLAYER)
    row = next((a for a in answers_of(question) if a.team_id == team.id), None)
    if row is None or row.late:
        raise NotFound("No on-time answer of '%(name)s' to this question.", name=team.name)
    audit.record(event, actor, "si.decide", f"R{round_number}Q{question_number} {team.name}",
                 before={"decision": row.decision}, after={"decision": mark})
    row.decision = mark
    if row.claim == "pending":  # the host's word answers the player's claim (SI-2.4)
        row.claim = "settled"
    db.session.flush()
    return row


def _mark(row: SiAnswer) -> rules.Mark | None:
    """What an answer counts as; None while the host still has to decide."""
    if row.late:
        return rules.Mark.LATE if row.claimed else rules.Mark.NONE
    final = row.decision or row.proposed
    if final in ("correct", "wrong", "none"):
        return rules.Mark(final)
    return None


def publish(event: Event, round_number: int, question_number: int, actor: str,
            now: dt.datetime | None = None) -> rules.Lists:
    """SI-2.4: the answer is shown, then the lists; the host decides every doubt first."""
    rnd, question = rounds.question_of(event, round_number, question_number)
    state = _state(question)
    if state.closed_at is None:
        raise Conflict("Close question %(question)s first (ВСЁ).", question=question_number)
    rows = answers_of(question)
    undecided = [r.team.name for r in rows if _mark(r) is None]
    if undecided:
        raise Conflict("Decide the answers of %(names)s first.", names=", ".join(undecided))
    state.published_at = state.published_at or now or utcnow()
    published = lists_of(rnd, question)
    audit.record(event, actor, "si.publish", f"R{rnd.number}Q{question.number}",
                 after={"lists": published.lines()})
    db.session.flush()
    return published


def lists_of(rnd: Round, question: Question) -> rules.Lists:
    rows = answers_of(question)
    return rules.lists(value_of(rnd, question),
                       [rules.Result(r.team.name, m) for r in rows if (m := _mark(r)) is not None])


def claim(event: Event, team: Team, round_number: int, question_number: int) -> dict[str, Any]:
    """SI-2.4 "ПРОПУСТИЛИ": the claim goes to the host with the server's receipt time
    against the ВСЁ; no mark changes until the host decides (``settle_claim``)."""
    _, question = rounds.question_of(event, round_number, question_number)
    state = _state(question)
    if state.published_at is None:
        raise Conflict("The lists of question %(question)s are not published yet.",
                       question=question_number)
    row = next((a for a in answers_of(question) if a.team_id == team.id), None)
    if row is None:
        raise NotFound("No answer of yours to question %(question)s was received.",
                       question=question_number)
    if row.claim == "pending":
        raise Conflict("Your claim is already with the host.")
    closed_at = state.closed_at or row.received_at  # published means closed
    on_time = row.received_at <= closed_at
    row.claim = "pending"
    audit.record(event, f"player:{team.name}", "si.claim",
                 f"R{round_number}Q{question_number}", after={"on_time": on_time})
    db.session.flush()
    return {"on_time": on_time, "received_at": row.received_at.isoformat() + "Z",
            "closed_at": closed_at.isoformat() + "Z"}


def settle_claim(event: Event, round_number: int, question_number: int, name: Any, mark: Any,
                 actor: str) -> SiAnswer:
    """SI-2.4: the host's word on a "ПРОПУСТИЛИ" claim. On time: the answer is back in the
    host's hands, judged ``mark`` (correct, wrong, none); late: ``late`` lists it as
    "0 Name", ``none`` leaves it out."""
    _, question = rounds.question_of(event, round_number, question_number)
    team = team_named(event, name, NO_PLAYER)
    row = next((a for a in answers_of(question) if a.team_id == team.id), None)
    if row is None or row.claim != "pending":
        raise NotFound("No claim of '%(name)s' waits on this question.", name=team.name)
    state = _state(question)
    on_time = state.closed_at is None or row.received_at <= state.closed_at
    allowed = ("correct", "wrong", "none") if on_time else ("late", "none")
    if mark not in allowed:
        raise DeskError("mark must be one of %(marks)s.", marks=", ".join(allowed))
    before = _mark(row)
    if on_time:
        row.late, row.decision = False, mark
    else:
        row.claimed = mark == "late"
    row.claim = "settled"
    audit.record(event, actor, "si.claim.settle", f"R{round_number}Q{question_number} {team.name}",
                 before={"mark": str(before) if before else None}, after={"mark": mark})
    db.session.flush()
    return row


def pending_claims(event: Event) -> list[dict[str, Any]]:
    """The claims waiting for the host, oldest answer first, with whether each came
    on time (the server's receipt against the ВСЁ)."""
    rows = db.session.execute(
        db.select(SiAnswer, Question, Round, SiQuestion)
        .join(Question, SiAnswer.question_id == Question.id)
        .join(Round, Question.round_id == Round.id)
        .join(SiQuestion, SiQuestion.question_id == Question.id)
        .where(Round.event_id == event.id, SiAnswer.claim == "pending")
        .order_by(SiAnswer.received_at))
    return [{"player": a.team.name, "round": r.number, "question": q.number, "text": a.text,
             "on_time": s.closed_at is None or a.received_at <= s.closed_at,
             "received_at": a.received_at, "closed_at": s.closed_at}
            for a, q, r, s in rows]


def warn(event: Event, name: Any, actor: str) -> SiPlayer:
    """SI-1.3: a warning; the second removes the player and annuls the points."""
    team = team_named(event, name, NO_PLAYER)
    row = player(team)
    row.warnings += 1
    audit.record(event, actor, "si.warn", team.name, after={"warnings": row.warnings})
    db.session.flush()
    return row


def unwarn(event: Event, name: Any, actor: str) -> SiPlayer:
    """Take back the host's last warning (a slip of the finger): a player removed by the
    second one is back with their points (SI-1.3)."""
    team = team_named(event, name, NO_PLAYER)
    row = player(team)
    if row.warnings < 1:
        raise Conflict("'%(name)s' has no warning to take back.", name=team.name)
    row.warnings -= 1
    audit.record(event, actor, "si.unwarn", team.name, before={"warnings": row.warnings + 1},
                 after={"warnings": row.warnings})
    db.session.flush()
    return row


def set_competition(event: Event, name: Any, in_competition: Any, actor: str) -> SiPlayer:
    """SI-1.2: the host puts a player in or out of competition (out: plays, not ranked)."""
    if not isinstance(in_competition, bool):
        raise DeskError("in_competition must be true or false.")
    team = team_named(event, name, NO_PLAYER)
    row = player(team)
    audit.record(event, actor, "si.competition", team.name,
                 before={"in_competition": row.in_competition},
                 after={"in_competition": in_competition})
    row.in_competition = in_competition
    db.session.flush()
    return row


# -- the game's progress: SI-1.2 late joining, the start of a question --------------------

def _latest(event: Event) -> tuple[QuestionGate, Question, Round] | None:
    row = db.session.execute(
        db.select(QuestionGate, Question, Round)
        .join(Question, QuestionGate.question_id == Question.id)
        .join(Round, Question.round_id == Round.id)
        .where(Round.event_id == event.id).order_by(QuestionGate.id.desc()).limit(1)).first()
    return tuple(row) if row else None


def _stored_state(question: Question) -> SiQuestion | None:
    """A question's ВСЁ and publication as stored (a read: polled views must not write)."""
    return db.session.scalar(db.select(SiQuestion).where(SiQuestion.question_id == question.id))


def _taking_answers(gate: QuestionGate, question: Question, now: dt.datetime) -> bool:
    state = _stored_state(question)
    return (state is None or state.closed_at is None) and clock.is_running(gate, now)


def check_join(event: Event, now: dt.datetime | None = None) -> None:
    """SI-1.2: late players join during rounds 1 and 2, between questions."""
    latest = _latest(event)
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


# -- SI-0 the theme's author --------------------------------------------------------------

def _theme_row(rnd: Round, theme: int) -> SiTheme | None:
    return db.session.scalar(db.select(SiTheme).where(SiTheme.round_id == rnd.id,
                                                      SiTheme.theme == theme))


def author_of(rnd: Round, theme: int) -> int | None:
    """The team id of the theme's author, if the host named one (SI-0)."""
    row = _theme_row(rnd, theme)
    return row.author_team_id if row else None


def top_question(rnd: Round, question_number: int) -> int:
    """The most expensive question of the theme ``question_number`` belongs to (SI-0)."""
    theme = rules.theme_of(question_number)
    return rules.most_expensive({q.number: value_of(rnd, q) for q in rnd.questions
                                 if rules.theme_of(q.number) == theme} or
                                {question_number: 0})


def set_author(event: Event, round_number: Any, theme: Any, name: Any, actor: str) -> SiTheme:
    """SI-0: name a theme's author (a player of the game), or nobody (``name`` None)."""
    for value, field in ((round_number, "round"), (theme, "theme")):
        if isinstance(value, bool) or not isinstance(value, int):
            raise DeskError("%(field)s must be a whole number.", field=field)
    if not 1 <= theme <= rules.THEMES:
        raise DeskError("theme must be a whole number from 1 to %(most)s.", most=rules.THEMES)
    rnd = rounds.get_round(event, round_number)
    team = None if name is None or name == "" else team_named(event, name, NO_PLAYER)
    row = _theme_row(rnd, theme)
    before = row.author.name if row and row.author else None
    if row is None:
        row = SiTheme(round_id=rnd.id, theme=theme)
        db.session.add(row)
    row.author_team_id = team.id if team else None
    audit.record(event, actor, "si.author", f"R{rnd.number}T{theme}",
                 before={"author": before}, after={"author": team.name if team else None})
    db.session.flush()
    return row


def authors(event: Event) -> dict[tuple[int, int], str]:
    """(round, theme) → the author's name, for the host's board."""
    rows = db.session.execute(
        db.select(Round.number, SiTheme.theme, Team.name)
        .join(Round, SiTheme.round_id == Round.id)
        .join(Team, SiTheme.author_team_id == Team.id)
        .where(Round.event_id == event.id))
    return {(r, t): name for r, t, name in rows}


# -- SI-3 protests ------------------------------------------------------------------------

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
                own: list[SiProtest]) -> list[dict[str, Any]]:
    """SI-3 on the phone: each question the player may protest now (in competition, its
    window open), with what tells it apart (round, theme, value, the answer) and the
    state of the player's own latest protest on it (``own``, oldest first; a pending
    one: no second СТОП)."""
    if row is not None and not rules.may_protest(
            row.in_competition, row.warnings >= rules.WARNINGS_TO_REMOVE):
        return []
    latest = {p.question_id: p.state for p in own}
    return [{"round": rnd.number, "question": q.number, "theme": rules.theme_of(q.number),
             "theme_name": theme_name(rnd, rules.theme_of(q.number)),
             "value": value_of(rnd, q), "answer": q.shown_answer, "protest": latest.get(q.id)}
            for q, rnd in open_windows(event)]


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


def _published_marks(event: Event) -> list[tuple[int, str, rules.Mark, int]]:
    """(round, player, mark, value) of every answer in the published lists."""
    published = set(db.session.scalars(
        db.select(SiQuestion.question_id).join(Question, SiQuestion.question_id == Question.id)
        .join(Round, Question.round_id == Round.id)
        .where(Round.event_id == event.id, SiQuestion.published_at.is_not(None))))
    marks = []
    for rnd in event.rounds:
        for question in rnd.questions:
            if question.id not in published:
                continue
            worth = value_of(rnd, question)
            marks += [(rnd.number, r.team.name, m, worth) for r in answers_of(question)
                      if (m := _mark(r)) is not None]
    return marks


def _players(event: Event) -> list[tuple[str, bool, int]]:
    """(name, in competition, warnings) of every player (SI-1.2, SI-1.3)."""
    players = {p.team_id: p for p in db.session.scalars(db.select(SiPlayer).join(
        Team, SiPlayer.team_id == Team.id).where(Team.event_id == event.id))}
    return [(t.name, players[t.id].in_competition if t.id in players
             else in_competition_by_name(t.name),
             players[t.id].warnings if t.id in players else 0) for t in event.teams]


def scores(event: Event) -> list[rules.PlayerScore]:
    """The players' scores over the published questions (SI-2.4, SI-1.3)."""
    return rules.scores(_players(event),
                        [(name, m, worth) for _, name, m, worth in _published_marks(event)])


@dataclass
class SiStanding:
    """A player's line in core's standings (desk, projector, API, exports): SI-1.2 places
    for the players in competition (None for the others), points by round."""

    team_id: int
    name: str
    points: float
    place: int | None
    shared: bool = False
    by_round: dict[int, float] = dataclasses.field(default_factory=dict)
    in_competition: bool = True
    removed: bool = False
    shootout_needed: bool = False
    handicap: int = 0
    correction_notes: tuple[str, ...] = ()


def standings_rows(event: Event) -> list[SiStanding]:
    """The scores as standings rows, best first (rules.scores' order)."""
    marks = _published_marks(event)
    ids = {t.name: t.id for t in event.teams}
    by_round: dict[str, dict[int, float]] = {}
    for number, name, mark, worth in marks:
        line = by_round.setdefault(name, {})
        line[number] = line.get(number, 0) + rules.points(mark, worth)
    rows = rules.scores(_players(event), [(n, m, w) for _, n, m, w in marks])
    places = [r.place for r in rows if r.place is not None]
    return [SiStanding(team_id=ids[r.player], name=r.player, points=r.points, place=r.place,
                       shared=r.place is not None and places.count(r.place) > 1,
                       by_round={} if r.removed else by_round.get(r.player, {}),
                       in_competition=r.in_competition, removed=r.removed)
            for r in rows]


def public(event: Event) -> dict[str, Any]:
    """What the projector and every phone show: the latest question, its lists once
    published, the protests being heard (SI-3) and the scores with places (SI-1.2)."""
    latest = _latest(event)
    current = None
    if latest is not None:
        _, question, rnd = latest
        state = _stored_state(question)
        status = "open" if state is None or state.closed_at is None else \
            "closed" if state.published_at is None else "published"
        theme = rules.theme_of(question.number)
        current = {"round": rnd.number, "question": question.number,
                   "theme": theme, "theme_name": theme_name(rnd, theme),
                   "value": value_of(rnd, question), "state": status,
                   "answer": question.shown_answer if status == "published" else None,
                   "lists": lists_of(rnd, question).lines() if status == "published" else []}
    pending = pending_protests(event)
    numbers = {q.id: (r.number, q.number) for r in event.rounds for q in r.questions
               if any(p.question_id == q.id for p in pending)}
    return {"current": current, "scores": [
        {"player": s.player, "points": s.points, "in_competition": s.in_competition,
         "removed": s.removed, "place": s.place} for s in scores(event)],
        "protests": [{"id": p.id, "player": p.team.name, "round": numbers[p.question_id][0],
                      "question": numbers[p.question_id][1], "state": p.state}
                     for p in pending]}


def decorate(sheet: dict[str, Any], event: Event, team: Team) -> dict[str, Any]:
    """The phone sheet of Своя игра: a board's questions show only once the host has
    started them (no reading ahead), and the player's own part (``player_part``)."""
    started = {q.id for _, q, _ in clock.event_gates(event)}
    rounds = {r.number: r for r in event.rounds}
    for item in sheet["rounds"]:
        by_number = {q.number: q for q in rounds[item["number"]].questions}
        item["questions"] = [q for q in item["questions"]
                             if by_number[q["number"]].id in started]
    return {**sheet, "si": player_part(event, team)}


LISTED = (rules.Mark.CORRECT, rules.Mark.WRONG, rules.Mark.LATE)


def player_part(event: Event, team: Team) -> dict[str, Any]:
    """A player's own part of the phone sheet: where the game stands for them (a phone
    that dropped and came back finds its score, its answer and its protests here)."""
    latest = _latest(event)
    mine = next((s for s in scores(event) if s.player == team.name), None)
    stored = db.session.scalar(db.select(SiPlayer).where(SiPlayer.team_id == team.id))
    own = [(p, q, r) for p, q, r in protests(event) if p.team_id == team.id]
    current = None
    if latest is not None:
        _, question, rnd = latest
        row = next((a for a in answers_of(question) if a.team_id == team.id), None)
        current = {"round": rnd.number, "question": question.number,
                   "answer": row.text if row else None, "late": row.late if row else False,
                   "claim": row.claim if row else None,  # SI-2.4: pending, then settled
                   # SI-2.4: an answer in no list may be claimed ("ПРОПУСТИЛИ")
                   "listed": row is not None and _mark(row) in LISTED,
                   "may_answer": rules.author_may_answer(
                       author_of(rnd, rules.theme_of(question.number)) == team.id,
                       question.number, top_question(rnd, question.number))}
    return {"player": team.name, "points": mine.points if mine else 0,
            "place": mine.place if mine else None,
            "in_competition": mine.in_competition if mine else True,
            "removed": mine.removed if mine else False,
            "warnings": stored.warnings if stored else 0, "current": current,
            "protestable": protestable(event, stored, [p for p, _, _ in own]),
            "protests": [{"id": p.id, "round": r.number, "question": q.number,
                          "state": p.state, "warned": p.warned} for p, q, r in own]}


def current_question(event: Event) -> dict[str, Any] | None:
    """The question started last as the host's desk shows it: its answers with the
    checker's proposal and the host's word, and its lists once published."""
    latest = _latest(event)
    if latest is None:
        return None
    _, question, rnd = latest
    state = _stored_state(question)
    status = "open" if state is None or state.closed_at is None else \
        "closed" if state.published_at is None else "published"
    theme = rules.theme_of(question.number)
    details = question.details or {}
    return {"round": rnd.number, "question": question.number, "text": question.text,
            "theme": theme, "theme_name": theme_name(rnd, theme),
            "answer": question.shown_answer, "value": value_of(rnd, question),
            "comment": details.get("comment"), "note": details.get("note"),
            "state": status, "lists": lists_of(rnd, question).lines(),
            "answers": [{"player": a.team.name, "text": a.text, "late": a.late,
                         "proposed": a.proposed, "decision": a.decision}
                        for a in answers_of(question)]}


def warnings(event: Event) -> dict[str, int]:
    """Each player's warnings (SI-1.3), by name."""
    rows = db.session.execute(db.select(Team.name, SiPlayer.warnings).join(
        SiPlayer, SiPlayer.team_id == Team.id).where(Team.event_id == event.id))
    return dict(rows.all())


def board(event: Event, number: int, started: set[int] | None = None) -> list[dict[str, Any]]:
    """Round ``number``'s board: each theme's name and its questions' values, played or
    not (desk, projector); ``started``: the ids of the questions started, if known."""
    rnd = next((r for r in event.rounds if r.number == number), None)
    if rnd is None:
        return []
    if started is None:
        started = {q.id for _, q, _ in clock.event_gates(event)}
    themes: dict[int, list[dict[str, Any]]] = {}
    for q in rnd.questions:
        themes.setdefault(rules.theme_of(q.number), []).append(
            {"number": q.number, "value": value_of(rnd, q), "played": q.id in started})
    return [{"number": t, "name": theme_name(rnd, t), "questions": qs}
            for t, qs in sorted(themes.items())]


def _media(question: Question, stage: str) -> list[dict[str, str]]:
    """The pack's stored pictures, sounds and videos of one stage (never a URL: the
    room's screen does not reach out to the internet)."""
    return [m for m in question.media or [] if m.get("file")
            and m.get("stage", "question") == stage and m.get("kind") in ("image", "audio",
                                                                          "video")]


def screen(event: Event) -> dict[str, Any]:
    """What the projector shows (SI-2.4): the question being played with its media; once
    published its answer, the answer's media and the lists; the board of its round."""
    latest = _latest(event)
    if latest is None:
        first = min((r.number for r in event.rounds), default=1)
        return {"current": None, "round": first, "board": board(event, first)}
    _, question, rnd = latest
    state = _stored_state(question)
    status = "open" if state is None or state.closed_at is None else \
        "closed" if state.published_at is None else "published"
    theme = rules.theme_of(question.number)
    published = status == "published"
    current = {"round": rnd.number, "question": question.number, "state": status,
               "theme_name": theme_name(rnd, theme), "theme": theme,
               "value": value_of(rnd, question), "text": question.text,
               "media": _media(question, "question"),
               "answer": question.shown_answer if published else None,
               "answer_media": _media(question, "answer") if published else [],
               "lists": lists_of(rnd, question).lines() if published else []}
    return {"current": current, "round": rnd.number, "board": board(event, rnd.number)}
