"""Bulgarian (default), Russian and English: complete catalogues, the phone's choice,
the projector's language, localised numbers and plurals."""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po

from answerdesk.extensions import db
from answerdesk.i18n import TRANSLATIONS
from answerdesk.models import Event

ROOT = Path(__file__).resolve().parents[1]
LOCALES = ("bg", "ru", "en")
# The error classes are keywords as in the Makefile: a refusal's first argument is its msgid
# (a pack's PackError too); N_ marks a pack's warnings and locations (answerdesk/packs/model.py).
ERROR_CLASSES = ("DeskError", "NotFound", "Conflict", "RoundLocked", "NameTaken", "Unauthorized",
                 "NotAllowed", "TooLarge", "RateLimited", "PackError", "NotInvited", "BadPack",
                 "BidRefused", "WrongTeam",
                 "AlreadyPressed", "BuzzerNotArmed", "WindowClosed", "TeamIsOut", "OnlyFirstCounts",
                 "QuestionNotOpen", "PlayerRemoved", "NotYourTurn", "BetRefused",
                 "ChoiceRefused", "StakeRefused", "SecretRefused", "WrongQuestionType",
                 "LateJoinClosed", "JoinBetweenQuestions", "AuthorsTheme", "ProtestRefused",
                 "ProtestWindowClosed", "ProtestPending",
                 "GameFull", "Banned", "NotCaptain", "PlayerRequired", "GamePaused",
                 "GameStopped", "PauseRefused",
                 "InvitationRequired", "NotReserved", "Busy", "WriterBusy")
KEYWORDS = {"_": None, "gettext": None, "ngettext": (1, 2), "lazy_gettext": None,
            "_l": None, "lazy_ngettext": (1, 2), "N_": None,
            "NP_": (1, 2)} | dict.fromkeys(ERROR_CLASSES)


def extracted_msgids() -> dict[str | tuple[str, str], str]:
    """Every msgid in the code and templates now, extracted fresh as `make messages`
    does: a string another engineer adds tomorrow is checked tomorrow."""
    with (ROOT / "babel.cfg").open() as cfg:
        method_map, options_map = parse_mapping_cfg(cfg)
    found: dict[str | tuple[str, str], str] = {}
    for filename, _lineno, message, _comments, _context in extract_from_dir(
            str(ROOT), method_map, options_map, keywords=KEYWORDS):
        if isinstance(message, tuple):
            message = message[:2] if message[1] else message[0]
        if message:
            found.setdefault(message, filename)
    return found


def catalogue(locale: str):
    with (TRANSLATIONS / locale / "LC_MESSAGES" / "messages.po").open("rb") as f:
        return read_po(f, locale=locale)


def test_extraction_finds_the_templates_and_the_code() -> None:
    found = extracted_msgids()
    assert "Join" in found and found["Join"].startswith("templates")
    assert ("%(num)d question", "%(num)d questions") in found
    assert len(found) > 100


@pytest.mark.parametrize("locale", LOCALES)
def test_every_msgid_is_translated(locale: str) -> None:
    """No missing msgid, no empty msgstr (any plural form), no fuzzy entry, and the
    placeholders of each translation match its msgid."""
    cat = catalogue(locale)
    problems = []
    for msgid, where in sorted(extracted_msgids().items(), key=str):
        key = msgid[0] if isinstance(msgid, tuple) else msgid
        msg = cat.get(key)
        if msg is None:
            problems.append(f"missing: {msgid!r} ({where})")
        elif msg.fuzzy:
            problems.append(f"fuzzy: {msgid!r}")
        elif isinstance(msgid, tuple) != msg.pluralizable:
            problems.append(f"plural forms differ from the code: {msgid!r}")
        elif not (all(msg.string) if msg.pluralizable else msg.string):
            problems.append(f"empty msgstr: {msgid!r} ({where})")
    for msg, errors in cat.check():
        problems += [f"{msg.id!r}: {e}" for e in errors]
    assert not problems, f"{locale}: {len(problems)} problems:\n" + "\n".join(problems)


def test_russian_plurals_have_three_forms() -> None:
    cat = catalogue("ru")
    assert cat.num_plurals == 3
    assert cat.get("%(num)d question").string == (
        "%(num)d вопрос", "%(num)d вопроса", "%(num)d вопросов")


def test_phone_speaks_bulgarian_by_default(client, demo) -> None:
    code, _ = demo
    html = client.get(f"/e/{code}").get_data(as_text=True)
    assert '<html lang="bg">' in html and "Влез" in html and "Име на отбора" in html


def test_phone_follows_the_browser_language(client, demo) -> None:
    code, _ = demo
    html = client.get(f"/e/{code}", headers={"Accept-Language": "ru-RU,ru;q=0.9"}).get_data(
        as_text=True)
    assert '<html lang="ru">' in html and "Войти" in html and "Название команды" in html
    english = client.get(f"/e/{code}", headers={"Accept-Language": "en-GB"}).get_data(
        as_text=True)
    assert "Team name" in english


def test_the_switcher_keeps_the_choice_in_the_session(client, demo) -> None:
    code, _ = demo
    resp = client.get(f"/lang/en?next=/e/{code}/sheet")
    assert resp.status_code == 302 and resp.headers["Location"].endswith(f"/e/{code}/sheet")
    html = client.get(f"/e/{code}/sheet", headers={"Accept-Language": "ru"}).get_data(
        as_text=True)
    assert 'data-t-saved="saved"' in html
    page = client.get(f"/e/{code}").get_data(as_text=True)
    assert f'href="/lang/ru?next=/e/{code}"' in page and 'aria-current="true">EN' in page
    assert client.get("/lang/ru?next=//evil.example").headers["Location"] == "/"


def test_the_projector_speaks_the_events_language(app, client, demo) -> None:
    code, _ = demo
    with app.app_context():
        event = db.session.scalar(db.select(Event).where(Event.code == code))
        assert event.screen_locale == "bg"
    html = client.get(f"/e/{code}/screen", headers={"Accept-Language": "en"}).get_data(
        as_text=True)
    assert "Класиране" in html
    with client.session_transaction() as sess:
        sess["desk"] = {str(event.id): ["host", 0, 2**40]}  # web.desk_login, a new event
    resp = client.post(f"/host/{code}/programme/screen-language", data={"locale": "ru"})
    assert resp.status_code == 302
    html = client.get(f"/e/{code}/screen", headers={"Accept-Language": "bg"}).get_data(
        as_text=True)
    assert '<html lang="ru">' in html and "Турнирная таблица" in html
    assert client.post(f"/host/{code}/programme/screen-language",
                       data={"locale": "xx"}).status_code == 400


def test_numbers_dates_and_plurals_follow_the_language(app, client, demo) -> None:
    code, _ = demo
    with app.app_context():
        event = db.session.scalar(db.select(Event).where(Event.code == code))
        date = event.date
    with client.session_transaction() as sess:
        sess["desk"] = {str(event.id): ["host", 0, 2**40]}  # web.desk_login, a new event
    from babel.dates import format_date

    for lang, rounds in (("bg", "6 кръга"), ("ru", "6 раундов"), ("en", "6 rounds")):
        html = client.get(f"/host/{code}/programme?lang={lang}").get_data(as_text=True)
        assert rounds in html
        assert format_date(date, "long", locale=lang) in html


@pytest.mark.parametrize(
    "lang,given,key,expected",
    [
        ("bg", "Напалеон", ["Наполеон"], "1 правописна грешка"),
        ("ru", "Напалеон", ["Наполеон"], "1 орфографическая ошибка"),
        ("ru", "Напалеонн", ["Наполеон"], "2 орфографические ошибки"),
        ("en", "Австралия", ["Австрия"], "different name: Австралия"),
        ("bg", "А или Б", ["А"], "два отговора в един"),
    ],
)
def test_checker_reasons_render_in_the_page_language(app, lang, given, key, expected) -> None:
    """Issue 16 §8: a reason is a code plus values, rendered through the catalogues."""
    from answerdesk.checker import check
    from answerdesk.i18n import reason_text

    mode = "choice" if key == ["А"] else "typo3"
    v = check(given, key, mode)
    with app.test_request_context(f"/?lang={lang}"):
        assert reason_text(v.code, v.params, v.reason) == expected


def test_final_round_reason_wraps_the_checkers(app) -> None:
    from answerdesk.formats.bg.final import host_judges
    from answerdesk.i18n import reason_text

    values = host_judges({"outcome": "wrong", "fraction": 0.0, "reason": "does not match",
                          "reason_code": "no_match", "reason_params": None}, "Дунав")
    assert values["outcome"] == "review" and values["reason_code"] == "final_round"
    with app.test_request_context("/?lang=bg"):
        text = reason_text(values["reason_code"], values["reason_params"], values["reason"])
    assert text == "финален кръг: решава водещият (не съвпада)"


def test_a_reason_without_a_code_keeps_its_stored_text(app) -> None:
    from answerdesk.i18n import reason_text

    with app.test_request_context("/?lang=ru"):
        assert reason_text(None, None, "demo") == "demo"
        assert reason_text("no_such_code", {}, "old text") == "old text"
