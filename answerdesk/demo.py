"""A demo evening so that a newcomer can play at once (`flask --app answerdesk demo`)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from .events import create_event
from .extensions import db
from .models import Event, Question

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


def create_demo_event(password: str | None = None) -> tuple[Event, str]:
    """Create the demo evening with the BG programme and sample questions."""
    event, password = create_event(
        "Демо куиз вечер", date=dt.date.today(), format="bg", password=password
    )
    for rnd in event.rounds:
        for number, (text, key, hint, mode) in enumerate(SAMPLE.get(rnd.number, []), start=1):
            db.session.add(
                Question(round=rnd, number=number, text=text, key=key, hint=hint, check_mode=mode)
            )
    db.session.commit()
    return event, password
