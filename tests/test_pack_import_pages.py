"""The host's programme page and the import-pack/export-pack commands."""

from __future__ import annotations

import io
from pathlib import Path

from sqlalchemy import func

from answerdesk.extensions import db
from answerdesk.models import Event, Question, Round
from answerdesk.packs import load_native

PACKS = Path(__file__).resolve().parent / "data" / "packs"
CSV = "round;question;answer;alternatives\n2;Кой е авторът на „Под игото“?;Иван Вазов;Вазов\n"


def login(client, app, code: str) -> None:
    with app.app_context():
        event_id = db.session.scalar(db.select(Event.id).where(Event.code == code))
    with client.session_transaction() as sess:
        sess["desk"] = {str(event_id): ["host", 0, 2**40]}  # web.desk_login, a new event


def question_count(app) -> int:
    with app.app_context():
        return db.session.scalar(db.select(func.count()).select_from(Question))


def upload(client, code: str, data: bytes, name: str, mode: str = "replace",
           lang: str | None = None):
    headers = {"Accept-Language": lang} if lang else {}
    return client.post(f"/host/{code}/programme/preview", data={
        "pack": (io.BytesIO(data), name), "mode": mode}, content_type="multipart/form-data",
        headers=headers)


def test_upload_preview_then_confirm_imports(app, client, demo) -> None:
    code, _ = demo
    login(client, app, code)
    page = client.get(f"/host/{code}/programme?lang=en")
    assert page.status_code == 200 and b"Import a question pack" in page.data
    assert b"<svg" in page.data  # the join QR code
    before = question_count(app)
    path = PACKS / "svoyak/leti05sv.txt"
    resp = upload(client, code, path.read_bytes(), path.name)
    html = resp.get_data(as_text=True)
    assert resp.status_code == 200 and 'id="pack-preview"' in html
    assert "65 questions" in html or "65" in html
    assert question_count(app) == before  # a preview writes nothing
    upload_id = html.split('name="upload" value="')[1].split('"')[0]
    done = client.post(f"/host/{code}/programme/import",
                       data={"upload": upload_id, "filename": path.name, "mode": "replace"})
    assert done.status_code == 302
    with app.app_context():
        event = db.session.scalar(db.select(Event).where(Event.code == code))
        assert [len(r.questions) for r in event.rounds] == [25, 25, 15]
    again = client.post(f"/host/{code}/programme/import",
                        data={"upload": upload_id, "filename": path.name})
    assert again.status_code == 400  # the upload is used up


def test_a_malformed_upload_shows_where_and_imports_nothing(app, client, demo) -> None:
    code, _ = demo
    login(client, app, code)
    before = question_count(app)
    resp = upload(client, code, b"round;question;answer;alternatives\n2;Q;A;\n2;Q\n",
                  "bad.csv", lang="en")
    html = resp.get_data(as_text=True)
    assert resp.status_code == 422
    assert "row 2 (line 3)" in html and "2 columns, expected 4" in html
    assert question_count(app) == before


def test_a_malformed_file_is_explained_in_bulgarian_by_default(app, client, demo) -> None:
    """Issue 7: the refusal and its location speak the host's language; English on request."""
    code, _ = demo
    login(client, app, code)
    bad = "Тур:\n1\n\nВопрос 1:\nТекст.\n\nКомментарий:\nнет ответа\n".encode()
    bulgarian = upload(client, code, bad, "bad.txt")
    html = bulgarian.get_data(as_text=True)
    assert bulgarian.status_code == 422 and '<html lang="bg">' in html
    assert "<code>ред 4</code>" in html and "&#39;Вопрос 1:&#39; няма &#39;Ответ:&#39;" in html
    assert "has no" not in html
    russian = upload(client, code, bad, "bad.txt", lang="ru").get_data(as_text=True)
    assert "<code>строка 4</code>" in russian and "у &#39;Вопрос 1:&#39; нет" in russian
    english = upload(client, code, bad, "bad.txt", lang="en").get_data(as_text=True)
    assert "<code>line 4</code>" in english
    assert "&#39;Вопрос 1:&#39; has no &#39;Ответ:&#39;" in english


def test_pack_warnings_are_translated_with_their_location(app, client, demo) -> None:
    code, _ = demo
    login(client, app, code)
    data = "round;question;answer;alternatives\nКино;Q;A;\n".encode()
    html = upload(client, code, data, "films.csv").get_data(as_text=True)
    assert "запис 1 (ред 2): кръг &#39;Кино&#39; не е номер на БГ кръг 1-6" in html
    english = upload(client, code, data, "films.csv", lang="en").get_data(as_text=True)
    assert "row 1 (line 2): round &#39;Кино&#39; is not a BG round number 1-6" in english


def test_preview_in_bulgarian_by_default(app, client, demo) -> None:
    code, _ = demo
    login(client, app, code)
    html = upload(client, code, CSV.encode(), "evening.csv").get_data(as_text=True)
    assert "Внос" in html or "въпрос" in html


def test_export_downloads_a_native_pack(app, client, demo) -> None:
    code, _ = demo
    login(client, app, code)
    resp = client.get(f"/host/{code}/programme/export.yaml")
    assert resp.status_code == 200
    assert "attachment" in resp.headers["Content-Disposition"]
    pack = load_native(resp.data, "x.yaml")
    assert [r.number for r in pack.rounds] == [1, 2, 3, 4, 5, 6]
    assert client.get(f"/host/{code}/programme/export.json").status_code == 200


def test_programme_page_needs_the_host(client, demo) -> None:
    code, _ = demo
    assert client.get(f"/host/{code}/programme").status_code == 302


def test_cli_dry_run_previews_and_writes_nothing(app, demo) -> None:
    code, _ = demo
    path = PACKS / "sigame/si-data-1-v5.siq"
    before = question_count(app)
    result = app.test_cli_runner().invoke(
        args=["import-pack", str(path), "--event", code, "--dry-run"])
    assert result.exit_code == 0, result.output
    assert "97 questions" in result.output and "round 4:" in result.output
    assert "Dry run" in result.output
    assert question_count(app) == before


def test_cli_imports_and_exports(app, demo, tmp_path) -> None:
    code, _ = demo
    pack = tmp_path / "evening.yaml"
    (tmp_path / "stills").mkdir()
    (tmp_path / "stills" / "vchera.jpg").write_bytes(b"\xff\xd8 jpeg")
    pack.write_text("answerdesk_pack: 1\ntitle: Вечер\nrounds:\n  - number: 3\n    questions:\n"
                    "      - text: Кой филм?\n        media: stills/vchera.jpg\n"
                    "        key: [Вчера]\n", encoding="utf-8")
    runner = app.test_cli_runner()
    result = runner.invoke(args=["import-pack", str(pack), "--event", code])
    assert result.exit_code == 0, result.output
    assert "Imported 1 questions into rounds 3." in result.output
    with app.app_context():
        assert db.session.scalar(db.select(func.count()).select_from(Round)) == 1
    out = runner.invoke(args=["export-pack", "--event", code, "--format", "json"])
    assert out.exit_code == 0
    exported = load_native(out.output, "x.json")
    assert exported.rounds[0].questions[0].key == ["Вчера"]
    assert exported.media == {"stills/vchera.jpg": b"\xff\xd8 jpeg"}


def test_cli_refuses_a_malformed_file_with_its_line(app, demo, tmp_path) -> None:
    code, _ = demo
    bad = tmp_path / "bad.txt"
    bad.write_text("Тур:\n1\n\nВопрос 1:\nТекст.\n\nКомментарий:\nнет ответа\n",
                   encoding="utf-8")
    before = question_count(app)
    result = app.test_cli_runner().invoke(args=["import-pack", str(bad), "--event", code])
    assert result.exit_code == 1
    assert "line 4" in result.output and "Ответ" in result.output
    assert question_count(app) == before
