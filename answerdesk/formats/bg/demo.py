"""A demo evening so that a newcomer can play at once (`flask --app answerdesk demo`)."""

from __future__ import annotations

import datetime as dt
import secrets
from typing import Any

from ...core.events import create_event
from ...core.states import RoundState
from ...core.text import team_name_key
from ...extensions import db
from ...models import Answer, Event, Question, Team, Verdict
from . import league, wildcard

# Round number -> questions as (text, key, hint, own check mode or None).
SAMPLE: dict[int, list[tuple[str, Any, str | None, str | None]]] = {
    1: [
        ("Вярно или невярно: Рила е най-високата планина на Балканския полуостров.",
         ["вярно"], None, None),
        ("Коя е столицата на Австралия? А) Сидни Б) Канбера В) Мелбърн Г) Пърт", ["Б"],
         None, None),
        ("Вярно или невярно: Дунав се влива в Черно море на българска територия.",
         ["невярно"], None, None),
        ("Кой е написал „Под игото“? А) Алеко Константинов Б) Христо Ботев "
         "В) Иван Вазов Г) Елин Пелин", ["В"], None, None),
    ],
    2: [
        ("Кой е наричан „Апостола на свободата“?", ["Васил Левски", "Левски"], None, None),
        ("Коя река минава през Пловдив?", ["Марица"], None, None),
        ("В коя държава е град Залцбург?", {"accept": ["Австрия"], "reject": ["Австралия"]},
         None, None),
        ("Как се казва най-дългият роман на Лев Толстой?", ["Война и мир"], None, None),
    ],
    3: [
        ("Коя сграда е на снимката? (Рим, амфитеатър)", ["Колизеум", "Колизеума"], None, None),
        ("Кой връх е на снимката? (най-високият в България)", ["Мусала"], None, None),
        ("Коя катедрала е на снимката? (София)", ["Александър Невски",
                                                  "Храм-паметник „Свети Александър Невски“"],
         None, None),
    ],
    4: [
        ("Аудио 1: назовете песента и изпълнителя.",
         {"title": ["Bohemian Rhapsody"], "artists": [["Queen"]]}, "Q", "song"),
        ("Аудио 2: назовете песента и изпълнителя.",
         {"title": ["Billie Jean"], "artists": [["Michael Jackson"]]}, "M", "song"),
        ("Видео 1: от кой филм е откъсът?", ["Титаник", "Titanic"], "Т", None),
    ],
    5: [
        ("Коя е най-голямата планета в Слънчевата система?", ["Юпитер"], None, None),
        ("Кой химичен елемент има символ O?", ["кислород"], None, None),
    ],
    6: [
        ("Кой български хан приема християнството през IX век?", ["Борис I", "Борис",
                                                                  "Княз Борис"], None, None),
        ("Кое е най-дълбокото езеро в света?", ["Байкал"], None, None),
    ],
}


# BG-R5: the question set of each wildcard scenario; round 5 takes the chosen one.
WILDCARD_BANK: dict[str, list[dict[str, Any]]] = {
    "5.1": [
        {"text": "Коя е най-голямата планета в Слънчевата система?", "key": ["Юпитер"]},
        {"text": "Кой химичен елемент има символ O?", "key": ["кислород"]},
    ],
    "5.2": [
        {"text": "Кой град е на снимката? (Айфеловата кула)", "key": ["Париж"]},
        {"text": "Кой мост е на снимката? (Сан Франциско)", "key": ["Голдън Гейт"]},
    ],
    "5.3": [
        {"text": "Аудио: назовете песента и изпълнителя.",
         "key": {"title": ["Yesterday"], "artists": [["The Beatles", "Beatles"]]},
         "check_mode": "song"},
        {"text": "Видео: от кой филм е откъсът?", "key": ["Кръстникът", "The Godfather"]},
    ],
    "5.4": [
        {"text": f"Въпрос {n}: {text}", "key": [n]} for n, text in (
            (1, "Колко луни има Земята?"), (2, "Колко крака има щъркелът?"),
            (3, "Колко са цветовете на българското знаме?"), (4, "Колко сезона има годината?"),
            (5, "Колко пръста има ръката?"), (6, "Колко крака има насекомото?"),
            (7, "Колко дни има седмицата?"), (8, "Колко крака има паякът?"),
            (9, "Колко играчи има бейзболният отбор на терена?"),
            (10, "Колко години има едно десетилетие?"),
        )
    ],
    "5.5": [
        {"text": "Свържете: 1 Рим, 2 Париж, 3 Берлин, 4 Мадрид — "
                 "А) Франция Б) Германия В) Италия Г) Испания",
         "key": {"1": "В", "2": "А", "3": "Б", "4": "Г"}},
    ],
}


def create_demo_event(password: str | None = None, *, month: bool = False) -> tuple[Event, str]:
    """Create the demo evening with the BG programme and sample questions.

    With ``month`` the evening is the 4th edition of this month's league, after
    three played editions (BG-M), so the month table has content.
    """
    event, password = create_event(
        "Демо куиз вечер", date=dt.date.today(), format="bg", password=password
    )
    add_sample_questions(event)
    wildcard.set_bank(event, WILDCARD_BANK)
    if month:
        create_demo_month(event)
    return event, password


def add_sample_questions(event: Event) -> None:
    """The SAMPLE questions in the event's rounds (also used by tests and benchmarks)."""
    for rnd in event.rounds:
        for number, (text, key, hint, mode) in enumerate(SAMPLE.get(rnd.number, []), start=1):
            db.session.add(
                Question(round=rnd, number=number, text=text, key=key, hint=hint, check_mode=mode)
            )
    db.session.commit()


# Three played editions: each team's share of right answers, best first. Сови win all
# three, so they start the 4th edition with -4 game points (BG-M3).
PAST_EDITIONS: tuple[dict[str, float], ...] = (
    {"сови": 1.0, "Бухали": 0.8, "Орли": 0.6, "Лъвове": 0.5, "Котки": 0.3},
    {"СОВИ": 0.95, "Орли": 0.85, "Бухали": 0.7, "Мечки": 0.5, "Котки": 0.5},
    {"Сови": 0.9, "Бухали": 0.8, "Лъвове": 0.6, "Орли": 0.4, "Мечки": 0.2},
)


def create_demo_month(current: Event) -> None:
    """Three played editions of this month before ``current``, and ``current`` as the 4th."""
    month = league.month_of(current.date)
    for index, shares in enumerate(PAST_EDITIONS):
        past, _ = create_event(
            f"Демо куиз вечер #{index + 1}",
            date=current.date - dt.timedelta(days=7 * (len(PAST_EDITIONS) - index)),
        )
        add_sample_questions(past)
        play_sample(past, shares)
        league.add_to_month(past, month, actor="demo")
    league.add_to_month(current, month, actor="demo")


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
    db.session.commit()
