"""The Своя игра phone page as served (issue 15): the format picks the page a joined
phone gets (core's answer sheet by default), the page's words, those its script shows
included, come from the reader's catalogue, and its script is a file (CSP)."""

from __future__ import annotations

import re

import pytest
from buzzgame import make_event
from test_i18n_crawl import LOCALES, PageText, foreign_words

# The game's own calls (SI-2.2b, SI-2.4, SI-3), said as in the rules in every language.
GAME_CALLS = re.compile(r"ВСЁ|СТОП|СТОЮ|ПРОПУСТИЛИ")


def test_the_format_decides_which_page_a_phone_gets(app, client):
    si_code, _ = make_event(app, "si", {1: 25})
    bg_code, _ = make_event(app, "bg", {})
    si_page = client.get(f"/e/{si_code}/sheet").get_data(as_text=True)
    bg_page = client.get(f"/e/{bg_code}/sheet").get_data(as_text=True)
    assert 'id="si"' in si_page and "si_phone.js" in si_page and "sheet.js" not in si_page
    assert 'id="sheet"' in bg_page and "sheet.js" in bg_page and "si_phone.js" not in bg_page
    # SI-1.2: a player joins with a name; the one-player team size goes without asking.
    join = client.get(f"/e/{si_code}").get_data(as_text=True)
    assert re.search(r'<input type="hidden" name="players" id="players" value="1">', join)
    assert 'type="number"' in client.get(f"/e/{bg_code}").get_data(as_text=True)


@pytest.mark.parametrize("locale", LOCALES)
def test_the_si_phone_speaks_the_readers_language(app, client, locale: str):
    code, _ = make_event(app, "si", {1: 25})
    html = client.get(f"/e/{code}/sheet",
                      headers={"Accept-Language": locale}).get_data(as_text=True)
    page = PageText()
    page.feed(html)
    assert page.lang == locale
    shown = page.parts + re.findall(r'data-t-[\w-]+="([^"]*)"', html)
    user_data = re.compile(rf"{code}|si night")  # the event's own code and name
    placeholders = re.compile(r"\{\w+\}")  # filled in by the script: {round}, {answer}
    text = GAME_CALLS.sub(" ", user_data.sub(" ", placeholders.sub(" ", "\n".join(shown))))
    assert not foreign_words(text, locale), foreign_words(text, locale)
    # CSP: every script is a file of static/, none inline.
    scripts = re.findall(r"<script([^>]*)>", html)
    assert scripts and all("src=" in s for s in scripts)


def test_the_scripts_texts_come_from_one_table_translated_with_named_placeholders(
        app, client):
    """The phone's script texts are formats/si/phone.TEXTS, one data-t-<name> attribute
    each (templates/si/_texts.html), translated, with {name} where the msgid has
    %(name)s — the names the script's fill() gets."""
    from answerdesk.formats.si.phone import TEXTS

    code, _ = make_event(app, "si", {1: 25})
    html = client.get(f"/e/{code}/sheet", headers={"Accept-Language": "ru"}).get_data(
        as_text=True)
    root = re.search(r'<main[^>]*id="si"[^>]*>', html).group(0)
    texts = dict(re.findall(r'data-t-([\w-]+)="([^"]*)"', root))
    assert list(texts) == list(TEXTS)
    assert texts["where"] == "Раунд {round} · {theme}"
    assert texts["stop-which"] == "Раунд {round} · {theme} · вопрос за {value}"
    assert texts["warnings"] == "Предупреждения: {count} из 2"
    for name, msgid in TEXTS.items():
        wanted = sorted(re.findall(r"%\((\w+)\)s", msgid))
        assert sorted(re.findall(r"\{(\w+)\}", texts[name])) == wanted, name
        assert "%(" not in texts[name]
    script = (app.static_folder + "/si_phone.js")
    with open(script, encoding="utf-8") as f:
        source = f.read()
    for name in TEXTS:  # each text is used by the script, by its dataset name
        camel = "t" + "".join(part.title() for part in name.split("-"))
        assert f"t.{camel}" in source, camel
