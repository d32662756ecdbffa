"""A demo evening so that a newcomer can play at once (`flask --app answerdesk demo`).

Everything it needs is its own: the questions and scenario sets come from its
pack (demo_pack.yaml, through the same importer as a host's pack), and its
played editions belong to the demo's own league, so it touches no other event
and no real league table.
"""

from __future__ import annotations

import datetime as dt
import secrets
from functools import cache
from pathlib import Path

from ...core.events import create_event
from ...core.states import RoundState
from ...core.text import team_name_key
from ...extensions import db
from ...models import Answer, Event, Team, Verdict
from ...packs import Pack, load_native
from ...packs.importer import import_pack
from . import league

# The demo's programme and its BG-R5 scenario sets: a native pack like any host's.
DEMO_PACK = Path(__file__).resolve().parent / "demo_pack.yaml"
# The demo's own league: its past editions never show in a real event's month.
DEMO_LEAGUE = "Демо"


@cache
def demo_pack() -> Pack:
    """Parsed once per process (the import only reads it)."""
    return load_native(DEMO_PACK.read_bytes(), DEMO_PACK.name)


def create_demo_event(password: str | None = None, *, month: bool = False) -> tuple[Event, str]:
    """Create the demo evening with the BG programme and the demo pack.

    With ``month`` the evening is the 4th edition of this month in the demo's own
    league, after three played editions (BG-M), so the month table has content.
    """
    event, password = create_event(
        "Демо куиз вечер", date=dt.date.today(), format="bg", password=password
    )
    add_sample_questions(event)
    if month:
        create_demo_month(event)
    return event, password


def add_sample_questions(event: Event) -> None:
    """The demo pack as the event's programme (also used by tests and benchmarks)."""
    import_pack(event, demo_pack(), actor="demo")


# Three played editions: each team's share of right answers, best first. Сови win all
# three, so they start the 4th edition with -4 game points (BG-M3).
PAST_EDITIONS: tuple[dict[str, float], ...] = (
    {"сови": 1.0, "Бухали": 0.8, "Орли": 0.6, "Лъвове": 0.5, "Котки": 0.3},
    {"СОВИ": 0.95, "Орли": 0.85, "Бухали": 0.7, "Мечки": 0.5, "Котки": 0.5},
    {"Сови": 0.9, "Бухали": 0.8, "Лъвове": 0.6, "Орли": 0.4, "Мечки": 0.2},
)


def create_demo_month(current: Event) -> None:
    """Three played editions of this month before ``current``, and ``current`` as the 4th,
    all in the demo's own league."""
    month = league.month_of(current.date)
    for index, shares in enumerate(PAST_EDITIONS):
        past, _ = create_event(
            f"Демо куиз вечер #{index + 1}",
            date=current.date - dt.timedelta(days=7 * (len(PAST_EDITIONS) - index)),
        )
        add_sample_questions(past)
        play_sample(past, shares)
        league.add_to_month(past, month, actor="demo", league_name=DEMO_LEAGUE)
    league.add_to_month(current, month, actor="demo", league_name=DEMO_LEAGUE)


def play_sample(event: Event, shares: dict[str, float]) -> None:
    """A played evening without the checker: each team right on its share of questions."""
    questions = [q for rnd in event.rounds for q in rnd.questions]
    for name, share in shares.items():
        team = Team(event=event, name=name, name_key=team_name_key(name), players=4,
                    token_hash=secrets.token_hex(32))
        db.session.add(team)
        right = round(share * len(questions))
        for index, question in enumerate(questions):
            correct = index < right
            answer = Answer(team=team, question=question,
                            text=question.shown_answer if correct else "—")
            answer.verdict = Verdict(outcome="correct" if correct else "wrong",
                                     fraction=1.0 if correct else 0.0, reason="demo")
            db.session.add(answer)
    played = dt.datetime.combine(event.date, dt.time(20))
    for rnd in event.rounds:
        rnd.state = RoundState.REVEALED
        rnd.opened_at = played + dt.timedelta(minutes=15 * rnd.number)
        rnd.locked_at = rnd.revealed_at = rnd.opened_at + dt.timedelta(minutes=10)
    event.status = "finished"
    db.session.flush()
