"""Packs into an event and back: every shared pack, the native round trip, and
malformed files refused with where they are wrong and nothing half-imported."""

from __future__ import annotations

import dataclasses
import io
import re
import zipfile
from pathlib import Path

import pytest
from sqlalchemy import func

from answerdesk import media
from answerdesk.core.events import create_event
from answerdesk.extensions import db
from answerdesk.models import Answer, AuditEntry, Event, Question, Round
from answerdesk.packs import Pack, PackError, QuestionSpec, RoundSpec, dump_native, parse_pack
from answerdesk.packs.importer import export_pack, import_pack, preview

PACKS = Path(__file__).resolve().parent / "data" / "packs"
ALL_FILES = sorted(p for p in PACKS.glob("*/*") if p.is_file())

# file → (round, question, an accepted answer, a rejected one or None), read off
# the sources: "Ответ:" lines, numbered Своя игра answers, <right>/<wrong> in content.xml.
SPOT_CHECKS = {
    "ingush16.txt": [(1, 1, "Магас", None), (4, 15, "Диоклетиана", None)],
    "rusch16.txt": [(6, 15, "Капабланка", None)],
    "ruch17st.txt": [(6, 15, "Блеск золота", None)],
    "wc13.txt": [(1, 1, "Рыбаки", None), (10, 1, "Циклопы", None)],
    "enot03sv.txt": [(1, 1, "Африканка", None), (5, 20, "Из золотого", None)],
    "leti05sv.txt": [(3, 15, "Симург", None)],
    "si-data-1-v5.siq": [(1, 1, "«Игры разума»", "«Слабое звено»"),
                         (4, 7, "Лорелея", "Русалка")],
    "si-resources-1-v3.siq": [(1, 1, "«Игры разума»", "«Самый умный»")],
    "si-2010-12-v5.siq": [(1, 1, "Памир", None)],
    "si-gametest-v4-media.siq": [(1, 1, "А это правильный ответ", None)],
    "si-test-v5.siq": [(1, 1, "Answer", None)],
}


def source_question_count(path: Path) -> int:
    """Questions counted straight from the source text, independently of the parsers."""
    if path.suffix == ".siq":
        with zipfile.ZipFile(path) as zf:
            xml = zf.read("content.xml").decode("utf-8")
        skipped = xml.count('price="-1"') + xml.count('<param name="knows">never</param>')
        return len(re.findall(r"<question[ >]", xml)) - skipped
    text = path.read_text(encoding="utf-8")
    blocks = re.split(r"^Вопрос \d+:\n", text, flags=re.MULTILINE)[1:]
    if re.search(r"^Вид:\s*\n?Я", text, re.MULTILINE):
        return sum(len(re.findall(r"^\s+\d+\. ", b.split("\nОтвет:")[0], re.MULTILINE))
                   for b in blocks)
    return len(blocks)


def counts() -> dict[str, int]:
    return {model.__tablename__: db.session.scalar(db.select(func.count()).select_from(model))
            for model in (Round, Question, AuditEntry)}


def new_event(code: str = "PACK01") -> Event:
    event, _ = create_event("Пъб куиз", code=code)
    db.session.commit()  # as the organiser's request would
    return event


def media_files(app) -> list[Path]:
    return sorted((Path(app.instance_path) / "media").rglob("*"))


def test_every_shared_pack_has_spot_checks() -> None:
    assert {p.name for p in ALL_FILES} == set(SPOT_CHECKS)


@pytest.mark.parametrize("path", ALL_FILES, ids=lambda p: p.name)
def test_shared_pack_imports_into_an_event(app, path: Path) -> None:
    with app.app_context():
        event = new_event()
        pack = parse_pack(path.read_bytes(), path.name)
        report = import_pack(event, pack, actor="test")
        db.session.commit()
        db.session.expire_all()
        rounds = db.session.scalars(
            db.select(Round).where(Round.event_id == event.id).order_by(Round.number)).all()
        assert [r.number for r in rounds] == [r.number for r in pack.rounds] == report.rounds
        stored = sum(len(r.questions) for r in rounds)
        assert stored == report.question_count == source_question_count(path)
        for rnd, q, accepted, rejected in SPOT_CHECKS[path.name]:
            question = next(x for x in rounds[rnd - 1].questions if x.number == q)
            assert accepted in question.key["accept"]
            if rejected:
                assert rejected in question.key["reject"]
        if pack.format in ("siq", "svoyak"):
            assert all(q.points for r in rounds[:-1] for q in r.questions)


def test_siq_media_are_stored_and_served(app, client) -> None:
    path = PACKS / "sigame/si-gametest-v4-media.siq"
    with app.app_context():
        event = new_event()
        import_pack(event, parse_pack(path.read_bytes(), path.name), actor="test")
        db.session.commit()
        items = [m for r in event.rounds for q in r.questions for m in (q.media or [])]
        stored = [m for m in items if "file" in m]
        assert {m["kind"] for m in stored} == {"image", "audio", "video"}
        with zipfile.ZipFile(path) as zf:
            boat = zf.read("Images/sample-boat-400x300.png")
        item = next(m for m in stored if m["ref"].endswith("sample-boat-400x300.png"))
        assert media.SAFE_NAME.fullmatch(item["file"])
    resp = client.get(f"/e/PACK01/media/{item['file']}")
    assert resp.status_code == 200 and resp.data == boat
    assert resp.mimetype == "image/png"
    assert client.get("/e/PACK01/media/..%2Fsecret_key").status_code == 404
    assert client.get("/e/PACK01/media/0000.png").status_code == 404


def full_pack() -> Pack:
    """Every field the native format knows, media bytes included."""
    return Pack(title="Пъб куиз", format="native", rounds=[
        RoundSpec(number=1, name="Тука има, тука нема", kind="choice", points=1,
                  check_mode="choice", themes=["Реки"], questions=[QuestionSpec(
                      number=1, text="Най-дългата река?", key=["А"], hint="И", points=2,
                      comment="к", source="и", author="а", answer="А) Искър", note="н",
                      theme="Реки", check_mode="choice", options={"А": "Искър", "Б": "Марица"},
                      variant="stake",
                      media=[{"kind": "image", "ref": "img/r.png"},
                             {"kind": "audio", "ref": "https://x.org/a.mp3", "stage": "answer"}],
                  )]),
        RoundSpec(number=2, name="Я, това го знам бре!", kind="open", points=2,
                  check_mode="typo3", questions=[
                      QuestionSpec(number=1, text="Кой е авторът на „Под игото“?",
                                   key={"accept": ["Иван Вазов", "Вазов"],
                                        "reject": ["Христо Ботев"]}),
                      QuestionSpec(number=2, text="", key=["Канбера"],
                                   media=[{"kind": "image", "ref": "stills/missing.jpg"}])]),
        RoundSpec(number=4, name="БНР и БНТ", kind="media", points=3, check_mode="song",
                  partial_points=1, questions=[QuestionSpec(
                      number=1, text="Песен", key={"title": ["Bohemian Rhapsody"],
                                                   "artists": [["Queen", "Куин"]]},
                      media=[{"kind": "audio", "ref": "clips/queen.mp3"}])]),
        RoundSpec(number=5, name="All-in", kind="pairs", points=5, check_mode="pairs",
                  questions=[QuestionSpec(number=3, text="Свържете",
                                          key={"1": "В", "2": "А", "3": "Б", "4": "Г"}),
                             QuestionSpec(number=4, text="Число", key=[7],
                                          check_mode="number")]),
    ], media={"img/r.png": b"\x89PNG\r\n\x1a\n\x00\xff binary",
              "clips/queen.mp3": b"ID3 not really an mp3"})


def test_native_round_trip_through_the_database_loses_nothing(app) -> None:
    with app.app_context():
        original = full_pack()
        event = new_event()
        import_pack(event, original, actor="test")
        db.session.commit()
        db.session.expire_all()
        exported = export_pack(db.session.get(Event, event.id))
        assert exported == dataclasses.replace(original, title=event.name)
        for fmt in ("yaml", "json"):
            text = dump_native(exported, fmt)
            again = parse_pack(text.encode("utf-8"), f"saved.{fmt}")
            second, _ = create_event("Втора вечер", code=f"AGAIN{fmt[0].upper()}")
            import_pack(second, again, actor="test")
            db.session.commit()
            db.session.expire_all()
            assert export_pack(db.session.get(Event, second.id)) == dataclasses.replace(
                original, title="Втора вечер")


def test_default_programme_exports_and_imports_the_same(app) -> None:
    """An event made from the BG programme (R4 partial points, BG-R4.1) survives a save."""
    with app.app_context():
        event = new_event()
        before = export_pack(event)
        other, _ = create_event("Друга", code="OTHER1")
        import_pack(other, parse_pack(dump_native(before).encode(), "x.yaml"), actor="t")
        db.session.commit()
        assert dataclasses.replace(export_pack(other), title=before.title) == before
        assert other.round(4).partial_points == 1


def test_preview_tells_what_the_import_will_do(app) -> None:
    with app.app_context():
        event = new_event()
        summary = preview(full_pack(), event)
        assert [(r.number, r.questions, r.media) for r in summary.rounds] == [
            (1, 1, 2), (2, 2, 1), (4, 1, 1), (5, 2, 0)]
        assert summary.question_count == 6 and summary.media_files == 2
        assert summary.missing_media == ["stills/missing.jpg"]
        assert summary.replaces == [1, 2, 3, 4, 5, 6] and summary.blocked is None
        appended = preview(full_pack(), event, mode="append")
        assert [r.number for r in appended.rounds] == [7, 8, 9, 10]


def test_append_keeps_the_programme_and_numbers_after_it(app) -> None:
    with app.app_context():
        event = new_event()
        report = import_pack(event, full_pack(), actor="test", mode="append")
        db.session.commit()
        assert report.rounds == [7, 8, 9, 10]
        assert [r.number for r in event.rounds] == list(range(1, 11))


def test_replace_is_refused_once_teams_have_answered(app, desk) -> None:
    token = desk.join("Отбор")
    assert desk.host(2, "open").status_code == 200
    assert desk.save(token, 2, 1, "Левски").status_code == 200
    with app.app_context():
        event = db.session.scalar(db.select(Event).where(Event.code == desk.code))
        before = counts()
        summary = preview(full_pack(), event)
        assert summary.blocked and "round(s) 2" in summary.blocked
        with pytest.raises(Exception, match=r"already answered in round\(s\) 2"):
            import_pack(event, full_pack(), actor="test")
        assert counts() == before
        assert db.session.scalar(db.select(func.count()).select_from(Answer)) == 1
        import_pack(event, full_pack(), actor="test", mode="append")
        db.session.commit()
        assert counts()["question"] == before["question"] + 6


def test_a_failure_mid_import_leaves_nothing_behind(app) -> None:
    """The old programme is deleted and media written before the duplicate question
    number fails at the database: all of it must be undone."""
    with app.app_context():
        event = new_event()
        before = counts()
        programme = [(r.number, r.name) for r in event.rounds]
        broken = full_pack()
        broken.rounds[1].questions[1].number = 1  # two questions numbered 1
        with pytest.raises(Exception, match="(?i)unique|duplicate"):
            import_pack(event, broken, actor="test")
        db.session.expire_all()
        assert counts() == before
        event = db.session.get(Event, event.id)
        assert [(r.number, r.name) for r in event.rounds] == programme
        assert not [p for p in media_files(app) if p.is_file()]


def broken_zip() -> bytes:
    data = io.BytesIO()
    with zipfile.ZipFile(data, "w") as zf:
        zf.writestr("content.xml", "<package/>")
    return data.getvalue()[:40]


def siq(xml: str) -> bytes:
    data = io.BytesIO()
    with zipfile.ZipFile(data, "w") as zf:
        zf.writestr("content.xml", xml)
    return data.getvalue()


CHGK_NO_ANSWER = """Чемпионат:
Тест

Тур:
1 тур

Вопрос 1:
Первый вопрос.

Ответ:
Один.

Вопрос 2:
Второй вопрос без ответа.

Комментарий:
Забыли ответ.

Вопрос 3:
Третий.

Ответ:
Три.
"""

MALFORMED = [
    pytest.param(broken_zip(), "pack.siq", r"zip", id="broken zip"),
    pytest.param(siq('<?xml version="1.0"?>\n<package name="x">\n<rounds><round name="1">\n'
                     "<themes></round></package>"), "pack.siq",
                 r"line 4, column", id="bad xml"),
    pytest.param(CHGK_NO_ANSWER.encode(), "pack.txt", r"line 13: .Вопрос 2:. has no .Ответ:",
                 id="missing Ответ"),
    pytest.param("round;question;answer;alternatives\n2;Кой?;Вазов;\n2;Къде?\n".encode(),
                 "pack.csv", r"row 2 \(line 3\)", id="csv wrong column count"),
    pytest.param(b"answerdesk_pack: 1\ntitle: x\nrounds:\n  - number: 2\n    questions:\n"
                 b"      - text: q\n        kay: [a]\n", "pack.yaml", r"line 7", id="native"),
]


@pytest.mark.parametrize(("data", "name", "where"), MALFORMED)
def test_malformed_packs_are_refused_where_they_are_wrong(app, data, name, where) -> None:
    with app.app_context():
        new_event()
        before = counts()
        with pytest.raises(PackError) as caught:
            parse_pack(data, name)
        assert re.search(where, str(caught.value)), str(caught.value)
        assert caught.value.location
        assert counts() == before


def test_readme_example_imports(app) -> None:
    """The pack shown in README's "Preparing an evening" is a valid pack."""
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Preparing an evening", 1)[1]
    example = section.split("```yaml\n", 1)[1].split("```", 1)[0]
    pack = parse_pack(example.encode("utf-8"), "evening.yaml")
    assert [r.number for r in pack.rounds] == [1, 2, 3, 4, 5, 6]
    assert pack.missing_media() == ["stills/vchera.jpg"]
    with app.app_context():
        event = new_event()
        import_pack(event, pack, actor="test")
        db.session.commit()
        assert event.round(4).partial_points == 1 and event.round(5).kind == "pairs"
