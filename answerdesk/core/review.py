"""The host's review queue: what the checker could not honestly decide.

Identical answers to a question (after the checker's normalisation) form one
group, judged once for every team that gave it. Near-identical groups
("Шекспир", "Шекспиър", "Шейкспир") are clustered into one item showing each
group's checker reason and edit distance; the host decides the item together
or splits it. Host and assistant may judge at once: a queue decision only
touches verdicts nobody has decided yet (row locks on PostgreSQL, BEGIN
IMMEDIATE on SQLite), so no answer is judged twice and the second judge is told.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from rapidfuzz import process
from rapidfuzz.distance import Levenshtein

from ..checker.normalize import normalize
from ..database.readonly import read_only
from ..errors import DeskError, NotFound
from ..extensions import db
from ..models import Answer, Event, Question, Round, Team, Verdict, display_key, utcnow
from . import audit, labels
from .rounds import check_arrived
from .states import Outcome, RoundState

DECISIONS = (Outcome.CORRECT, Outcome.PARTIAL, Outcome.WRONG)
MAX_CLUSTER_DISTANCE = 3
_DIGITS = re.compile(r"\d+")


@dataclass
class ReviewGroup:
    """One normalised answer and every team that gave it."""

    text: str
    norm: str
    reason: str
    distance: int = 0
    reason_code: str | None = None
    reason_params: dict[str, Any] | None = None
    verdict_ids: list[int] = field(default_factory=list)
    teams: list[str] = field(default_factory=list)


@dataclass
class ReviewItem:
    """One decision for the host: a cluster of near-identical answers to one question."""

    round: int
    question: int
    question_id: int
    question_text: str
    shown_answer: str
    partial_allowed: bool
    groups: list[ReviewGroup] = field(default_factory=list)

    @property
    def text(self) -> str:
        return self.groups[0].text

    @property
    def reason(self) -> str:
        return self.groups[0].reason

    @property
    def verdict_ids(self) -> list[int]:
        return [vid for group in self.groups for vid in group.verdict_ids]

    @property
    def teams(self) -> list[str]:
        return [team for group in self.groups for team in group.teams]

    @property
    def key(self) -> str:
        """Stable while the item waits, so a refreshing page keeps the host's place."""
        return f"q{self.question_id}-v{min(self.verdict_ids)}"


@dataclass
class Decided:
    """What a decision changed, and what another judge had already decided."""

    decided: int = 0
    conflicts: list[str] = field(default_factory=list)


def _pending(event: Event):
    """The verdicts waiting for the host, in the queue's order, as plain columns: the
    question's own columns (its key is JSON) are read once per question, not per
    answer, and the reason's values as text, decoded once per group (review_queue)."""
    return (
        db.select(
            Verdict.id, Verdict.reason, Verdict.reason_code,
            db.cast(Verdict.reason_params, db.Text), Answer.text, Answer.question_id,
            Team.name,
        )
        .join(Answer, Verdict.answer_id == Answer.id)
        .join(Question, Answer.question_id == Question.id)
        .join(Round, Question.round_id == Round.id)
        .join(Team, Answer.team_id == Team.id)
        .where(
            Round.event_id == event.id,
            Round.state.in_((RoundState.OPEN, RoundState.LOCKED, RoundState.REVEALED)),
            Verdict.outcome == Outcome.REVIEW,
            Verdict.decision.is_(None),
        )
        .order_by(Round.number, Question.number, Answer.id)
    )


def near(a: str, b: str) -> int | None:
    """Edit distance between two normalised answers when they are close enough to cluster.

    The allowance grows with length (a quarter of the shorter answer, at most
    MAX_CLUSTER_DISTANCE); answers whose numbers differ never cluster ("1944"/"1945").
    """
    if _DIGITS.findall(a) != _DIGITS.findall(b):
        return None
    cutoff = min(MAX_CLUSTER_DISTANCE, max(1, min(len(a), len(b)) // 4))
    distance = Levenshtein.distance(a, b, score_cutoff=cutoff)
    return distance if distance <= cutoff else None


def cluster(groups: list[ReviewGroup]) -> list[list[ReviewGroup]]:
    """Single-linkage clusters of near-identical groups, biggest group first in each.

    The pairs within MAX_CLUSTER_DISTANCE are found by rapidfuzz's extract, in C, and
    only those are judged by ``near``: a 300-team night's typed answers gave one
    question 60 groups, 1,800 pairs, whose distances in Python cost the review page
    more than its reading (bench/host_pages_bench.py --typed)."""
    parent = list(range(len(groups)))
    norms = [group.norm for group in groups]

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, norm in enumerate(norms):
        for _, _, j in process.extract(norm, norms[i + 1:], scorer=Levenshtein.distance,
                                       score_cutoff=MAX_CLUSTER_DISTANCE, limit=None):
            j += i + 1
            if root(i) != root(j) and near(norm, norms[j]) is not None:
                parent[root(j)] = root(i)
    clusters: dict[int, list[ReviewGroup]] = {}
    for i, group in enumerate(groups):
        clusters.setdefault(root(i), []).append(group)
    result = []
    for members in clusters.values():
        members.sort(key=lambda g: -len(g.verdict_ids))
        lead = members[0].norm
        for group in members:
            group.distance = Levenshtein.distance(lead, group.norm)
        result.append(members)
    return result


def review_queue(event: Event, *, checker_wait: float = 0.0) -> list[ReviewItem]:
    """Pending review verdicts: by question, identical answers grouped, near ones clustered.

    Answers that arrived in open rounds since the last look are checked first, so the
    queue is live while teams type; a later change of an answer sends it back here.
    Those that arrived in the last ``checker_wait`` seconds are left to the live
    checker (livecheck.py), which runs beside the web workers.
    """
    return _items(_waiting(event, checker_wait))


def queue_head(event: Event, count: int, *,
               checker_wait: float = 0.0) -> tuple[list[ReviewItem], int]:
    """The queue's first ``count`` items and how many answers wait in all: what the
    desk for the night shows, from one read (review_queue's, cut short: only the
    questions the first items come from are grouped and clustered)."""
    rows = _waiting(event, checker_wait)
    first: set[int] = set()
    for at, row in enumerate(rows):
        if row.question_id not in first:
            if len(first) == count:  # each question gives one item at least
                return _items(rows[:at])[:count], len(rows)
            first.add(row.question_id)
    return _items(rows)[:count], len(rows)


def _waiting(event: Event, checker_wait: float) -> list[Any]:
    """The pending rows (``_pending``), once what arrived is checked (review_queue)."""
    check_arrived(event, waited=checker_wait)
    with read_only():  # the host's page must not hold up the phones' saves (SQLite)
        return list(db.session.execute(_pending(event)).all())


def _items(rows: list[Any]) -> list[ReviewItem]:
    """The queue's items from its pending rows, in their order.

    The host's pages read the queue again whenever the desk's version moves, every
    two seconds while teams type (a 300-team night: 1,200 answers in one round):
    each question's columns are read once, each text normalised once, each reason's
    values decoded once per group (bench/host_pages_bench.py --typed)."""
    if not rows:
        return []
    with read_only():
        questions = {
            qid: ReviewItem(round=rnum, question=qnum, question_id=qid, question_text=qtext,
                            shown_answer=display_key(key), partial_allowed=partial is not None)
            for qid, qnum, qtext, key, rnum, partial in db.session.execute(
                db.select(Question.id, Question.number, Question.text, Question.key,
                          Round.number, Round.partial_points)
                .join(Round, Question.round_id == Round.id)
                .where(Question.id.in_({row.question_id for row in rows}))
            )
        }
    groups: dict[int, dict[str, ReviewGroup]] = {}  # in the rows' order: the queue's
    norms: dict[str, str] = {}
    for vid, reason, code, params, text, qid, team in rows:
        norm = norms.get(text)
        if norm is None:
            norm = norms[text] = normalize(text)
        by_norm = groups.setdefault(qid, {})
        group = by_norm.get(norm)
        if group is None:
            group = by_norm[norm] = ReviewGroup(
                text=text, norm=norm, reason=reason, reason_code=code,
                reason_params=json.loads(params) if params else None)
        group.verdict_ids.append(vid)
        group.teams.append(team)
    items = []
    for qid, by_norm in groups.items():
        template = questions[qid]
        for members in cluster(list(by_norm.values())):
            items.append(ReviewItem(**{**template.__dict__, "groups": members}))
    return items


def queue_size(event: Event) -> int:
    """How many checked answers wait for the host (polled often: checks nothing itself)."""
    return db.session.scalar(
        db.select(db.func.count()).select_from(_pending(event).subquery())
    ) or 0


def _rows(event: Event, verdict_ids: list[int]):
    rows = db.session.execute(
        db.select(Verdict, Answer, Question, Round, Team)
        .join(Answer, Verdict.answer_id == Answer.id)
        .join(Question, Answer.question_id == Question.id)
        .join(Round, Question.round_id == Round.id)
        .join(Team, Answer.team_id == Team.id)
        .where(Verdict.id.in_(verdict_ids), Round.event_id == event.id)
        .order_by(Verdict.id)
        .with_for_update(of=Verdict)
    ).all()
    if not verdict_ids or len(rows) != len(set(verdict_ids)):
        db.session.rollback()
        raise NotFound("Some of these verdicts do not belong to this event")
    return rows


def decide(
    event: Event,
    verdict_ids: list[int],
    decision: str,
    actor: str = "host",
    *,
    override: bool = False,
) -> Decided:
    """Give the host's last word on verdicts of this event, each with its audit entry.

    From the queue (``override`` false) only verdicts still undecided change:
    the row lock makes a second judge wait, then see the first one's decision
    and get it back as a conflict. An override (all-answers view) replaces any
    earlier decision.
    """
    if decision not in DECISIONS:
        raise DeskError("Unknown decision '%(decision)s'; use one of %(choices)s",
                        decision=str(decision), choices=", ".join(DECISIONS))
    result = Decided()
    now = utcnow()
    for verdict, answer, question, rnd, team in _rows(event, verdict_ids):
        subject = f"R{rnd.number}Q{question.number} {team.name}"
        if decision == Outcome.PARTIAL and rnd.partial_points is None:
            db.session.rollback()
            raise DeskError("Round %(round)s gives no partial credit", round=rnd.number)
        if verdict.decision is not None and not override:
            result.conflicts.append(
                f"{subject}: already {verdict.decision} ({verdict.decided_by})"
            )
            continue
        if verdict.decision == decision:
            continue
        audit.record(
            event, actor, "verdict.decide", subject,
            before={"verdict": verdict.id, "outcome": verdict.outcome,
                    "decision": verdict.decision, "decided_by": verdict.decided_by},
            after={"verdict": verdict.id, "decision": decision, "text": answer.text},
        )
        verdict.decision = decision
        verdict.decided_by = actor
        verdict.decided_at = now
        result.decided += 1
    db.session.flush()
    return result


def undo_decision(event: Event, entry: Any, actor: str) -> None:
    """Put a verdict back as it was before one audited decision, if nothing changed since."""
    verdict = db.session.scalar(
        db.select(Verdict).where(Verdict.id == entry.after["verdict"]).with_for_update()
    )
    if verdict is None:
        raise NotFound("That answer no longer exists")
    if verdict.decision != entry.after["decision"]:
        raise DeskError("This verdict was changed again since; undo the later change first")
    before = entry.before or {}
    verdict.decision = before.get("decision")
    verdict.decided_by = before.get("decided_by")
    verdict.decided_at = utcnow() if verdict.decision else None
    audit.record(event, actor, "verdict.undo", entry.subject,
                 before=entry.after, after=before, undoes=entry)


def _open_key(key: Any) -> bool:
    """A list key or {"accept": [...]} can take a whole answer as another accepted one."""
    return isinstance(key, list) or (
        isinstance(key, dict) and set(key) <= {"accept", "reject"} and "accept" in key
    )


def add_to_key(event: Event, verdict_ids: list[int], actor: str = "host") -> Decided:
    """BG-D1 (b) from the queue: the lead answer joins the key through the disputes
    service (which checks every team's answer to the question again), and these
    answers are decided correct. Nothing changes when the other judge was first."""
    from .disputes import accept_answer

    rows = _rows(event, verdict_ids)
    questions = {question.id for _, _, question, _, _ in rows}
    _, answer, question, rnd, _ = next(r for r in rows if r[0].id == verdict_ids[0])
    text, round_number, question_number = answer.text, rnd.number, question.number
    undecided = any(verdict.decision is None for verdict, *_ in rows)
    open_key = _open_key(question.key)
    db.session.rollback()
    if len(questions) != 1:
        raise DeskError("Add to the key answers of one question at a time")
    if not open_key:
        raise DeskError("Only an open question's key can take another accepted answer")
    if not undecided:
        return decide(event, verdict_ids, Outcome.CORRECT, actor)
    accept_answer(event, round_number, question_number, text,
                  reason=labels.QUEUE_REASON, actor=actor)
    return decide(event, verdict_ids, Outcome.CORRECT, actor)


@dataclass
class AnswerRow:
    verdict_id: int | None
    team: str
    text: str
    source: str
    outcome: str | None
    reason: str
    decision: str | None
    decided_by: str | None
    reason_code: str | None = None
    reason_params: dict[str, Any] | None = None
    #: A second answer the team gave beside its first (BG-J1 double joker), if any.
    second: str = ""

    @property
    def final(self) -> str | None:
        return self.decision or self.outcome


VERDICT_FILTERS = ("all", "review", "correct", "partial", "wrong", "decided", "unanswered")


def question_answers(event: Event, rnd: Round, question: Question,
                     only: str = "all") -> list[AnswerRow]:
    """Every team's answer to one question with the checker's and the host's word."""
    rows = db.session.execute(
        db.select(Team.name, Answer.text, Answer.source, Verdict.id, Verdict.outcome,
                  Verdict.reason, Verdict.decision, Verdict.decided_by, Verdict.reason_code,
                  Verdict.reason_params, Answer.fields)
        .select_from(Team)
        .outerjoin(Answer, (Answer.team_id == Team.id) & (Answer.question_id == question.id))
        .outerjoin(Verdict, Verdict.answer_id == Answer.id)
        .where(Team.event_id == event.id)
        .order_by(Team.name_key)
    )
    result = [
        AnswerRow(verdict_id=vid, team=name, text=text or "", source=source or "",
                  outcome=outcome, reason=reason or "", decision=decision, decided_by=by,
                  reason_code=code, reason_params=params,
                  second=str(fields.get("second") or "") if isinstance(fields, dict) else "")
        for name, text, source, vid, outcome, reason, decision, by, code, params, fields in rows
    ]
    if only == "all":
        return result
    if only == "decided":
        return [r for r in result if r.decision]
    if only == "unanswered":
        return [r for r in result if not r.text]
    return [r for r in result if r.final == only]
