"""A ЧГК evening in the test's database: two games of 12 sectors from a db.chgk.info pack.

The pack text is written here (the format of db.chgk.info, see docs/packs.md);
each game's question N has the one-word answer ANSWERS[game][N-1].
"""

from __future__ import annotations

import datetime as dt

import pytest

ANSWERS = {
    1: ["Пушкин", "Лермонтов", "Гоголь", "Толстой", "Чехов", "Тургенев", "Бунин", "Блок",
        "Есенин", "Маяковский", "Ахматова", "Цветаева"],
    2: ["Волга", "Днепр", "Нева", "Енисей", "Байкал", "Ладога", "Амур", "Кама", "Иртыш",
        "Урал", "Терек", "Кубань"],
}
REJECTED = {(1, 1): "Александр"}
ACCEPTED = {(1, 2): "Михаил Юрьевич"}
COMMENTS = {(1, 2): "Автор «Героя нашего времени»."}


def chgk_pack() -> bytes:
    lines = ["Чемпионат:", "Тестовый вечер ЧГК", ""]
    for game, answers in ANSWERS.items():
        lines += ["Тур:", f"Игра {game}", ""]
        for n, answer in enumerate(answers, start=1):
            lines += [f"Вопрос {n}:", f"Сектор {n} игры {game}: кто или что это?", "",
                      "Ответ:", f"{answer}.", ""]
            if (game, n) in ACCEPTED:
                lines += ["Зачет:", f"{ACCEPTED[game, n]}.", ""]
            if (game, n) in REJECTED:
                lines += ["Незачет:", f"{REJECTED[game, n]}.", ""]
            if (game, n) in COMMENTS:
                lines += ["Комментарий:", COMMENTS[game, n], ""]
    return "\n".join(lines).encode()


def new_chgk_event(app, *, seconds: int | None = None, grace: int | None = None):
    """(code, host password) of a ЧГК event with the pack imported."""
    from answerdesk.core.events import create_event
    from answerdesk.extensions import db
    from answerdesk.packs import parse_pack
    from answerdesk.packs.importer import import_pack

    with app.app_context():
        event, password = create_event("ЧГК вечер", format="chgk")
        event.question_seconds, event.question_grace = seconds, grace
        db.session.commit()
        import_pack(event, parse_pack(chgk_pack(), "chgk.txt"), "test")
        db.session.commit()
        return event.code, password


class ChgkDesk:
    """Shortcuts over the JSON API for a ЧГК evening, as phones and the host call it."""

    answers = ANSWERS

    def __init__(self, client, code: str, password: str) -> None:
        self.client, self.code, self.password = client, code, password
        self.logged_in = False

    def log_in(self) -> None:
        """Log the host in (a session): each password check costs the server ~0.5 s."""
        resp = self.client.post(f"/host/{self.code}/login", data={"password": self.password})
        assert resp.status_code == 302
        self.logged_in = True

    def host_headers(self, password: str | None = None) -> dict[str, str]:
        if self.logged_in and password is None:
            return {}
        return {"Authorization": f"Bearer {password or self.password}"}

    def _host(self, password: str | None) -> dict[str, str]:
        return self.host_headers(password)

    def join(self, name: str, players: int = 4) -> str:
        resp = self.client.post(f"/api/events/{self.code}/teams",
                                json={"name": name, "players": players})
        assert resp.status_code == 201, resp.get_json()
        return resp.get_json()["token"]

    def save(self, token: str, rnd: int, q: int, text: str):
        return self.client.put(f"/api/events/{self.code}/answers/{rnd}/{q}", json={"text": text},
                               headers={"Authorization": f"Bearer {token}"})

    def sheet(self, token: str):
        return self.client.get(f"/api/events/{self.code}/sheet",
                               headers={"Authorization": f"Bearer {token}"})

    def start(self, rnd: int, q: int, password: str | None = None, **body):
        return self.client.post(
            f"/api/host/events/{self.code}/rounds/{rnd}/questions/{q}/start",
            json=body or None, headers=self._host(password))


@pytest.fixture
def make_chgk(app, client):
    """make_chgk(seconds=None, grace=None) → a ChgkDesk over a fresh ЧГК event."""
    def make(seconds: int | None = None, grace: int | None = None) -> ChgkDesk:
        return ChgkDesk(client, *new_chgk_event(app, seconds=seconds, grace=grace))
    return make


@pytest.fixture
def chgk(make_chgk) -> ChgkDesk:
    return make_chgk()


@pytest.fixture
def chgk_pack_bytes() -> bytes:
    return chgk_pack()


@pytest.fixture
def chgk_event(app) -> tuple[str, str]:
    """A ЧГК event in the test's database: (code, host password)."""
    return new_chgk_event(app)


class FakeClock:
    """The server's time for the question clock, moved by the test: an hour in the past
    at first (so what the live checker and the review queue see by the real time has
    all arrived), then forward by ``advance``; nobody closes a question by hand."""

    def __init__(self) -> None:
        self.now = dt.datetime.now(dt.UTC).replace(tzinfo=None) - dt.timedelta(hours=1)

    def __call__(self) -> dt.datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += dt.timedelta(seconds=seconds)


@pytest.fixture
def fake_clock(monkeypatch) -> FakeClock:
    """Every reader of the question clock's time (the save, the start, the sheet, the
    ЧГК records) asks the FakeClock."""
    fake = FakeClock()
    for module in ("answerdesk.core.answers", "answerdesk.core.answer_optimistic",
                   "answerdesk.core.clock",
                   "answerdesk.core.sheets", "answerdesk.formats.chgk.game",
                   "answerdesk.formats.chgk.sheet"):
        monkeypatch.setattr(f"{module}.utcnow", fake)
    return fake
