"""A SIGame secret question's own price ("кот в мешке", issue 15): the .siq importer
reads it from v5's ``<param name="price" type="numberSet">`` and v3/v4's
``<type name="cat|bagcat"><param name="cost">`` (a number, or SIGame's number set
syntax "[100;500]" / "[200;1000]/200"); a number set of 0 is the round's lowest or
highest price, as SIGame plays it. A pack without them keeps the board value; a
malformed price is refused, naming its element, in the host's language.

The packs are built here; their XML follows SIGame's own reader and writer
(VladimirKhil/SI: src/Common/SIPackages/StepParameter.cs, Question.cs,
TypeConverters/NumberSetTypeConverter.cs)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from test_pack_import_pages import login, question_count, upload

from answerdesk.packs import PackError, parse_pack
from answerdesk.packs.model import price_choices

V5_NS = "https://github.com/VladimirKhil/SI/blob/master/assets/siq_5.xsd"
WHERE = "content.xml: <question> #2 in theme 'Котки' of round 'Раунд 1'"


def v5(price: str | None, board: int = 300) -> str:
    """A v5 round: a question for 100, a secret question for ``board`` with the price
    param ``price`` (None: no price param), and one for 500."""
    param = ("" if price is None else
             f'<param name="price" type="numberSet"><numberSet {price} /></param>')

    def question(value: int, text: str, kind: str = "", params: str = "") -> str:
        typed = f' type="{kind}"' if kind else ""
        return (f'<question price="{value}"{typed}><params>{params}'
                f'<param name="question" type="content"><item>{text}</item></param>'
                f"</params><right><answer>отговор</answer></right></question>")

    questions = (question(100, "Първи") + question(
        board, "Котката", "secret", '<param name="theme">Котешко</param>'
        f'<param name="selectionMode">any</param>{param}') + question(500, "Последен"))
    return (f'<?xml version="1.0" encoding="utf-8"?><package name="Котки" version="5" '
            f'xmlns="{V5_NS}"><rounds><round name="Раунд 1"><themes><theme name="Котки">'
            f"<questions>{questions}</questions></theme></themes></round></rounds>"
            "</package>")


def v4(kind: str, cost: str | None) -> str:
    """A v4 round: a question for 100 and a ``kind`` (cat, bagcat) for 200 with ``cost``."""
    param = "" if cost is None else f'<param name="cost">{cost}</param>'
    return ('<?xml version="1.0" encoding="utf-8"?><package name="Котки" version="4" '
            'xmlns="http://vladimirkhil.com/ygpackage3.0.xsd"><rounds><round name="Раунд 1">'
            '<themes><theme name="Котки"><questions>'
            '<question price="100"><scenario><atom>Първи</atom></scenario>'
            "<right><answer>отговор</answer></right></question>"
            f'<question price="200"><type name="{kind}"><param name="theme">Котешко</param>'
            f'{param}<param name="self">true</param><param name="knows">after</param></type>'
            "<scenario><atom>Котката</atom></scenario>"
            "<right><answer>отговор</answer></right></question>"
            "</questions></theme></themes></round></rounds></package>")


def secret(pack) -> tuple[int | None, dict | None]:
    q = pack.rounds[0].questions[1]
    assert q.variant == "secret"
    return q.points, q.price


@pytest.mark.parametrize(("numbers", "price", "choices"), [
    ('minimum="700" maximum="700" step="0"', {"min": 700, "max": 700, "step": 0}, [700]),
    ('minimum="100" maximum="500" step="200"', {"min": 100, "max": 500, "step": 200},
     [100, 300, 500]),
    ('minimum="100" maximum="400" step="200"', {"min": 100, "max": 400, "step": 200},
     [100, 300, 400]),
    ('minimum="200" maximum="600" step="0"', {"min": 200, "max": 600, "step": 0}, [200, 600]),
    ('minimum="200" maximum="600" step="400"', {"min": 200, "max": 600, "step": 400},
     [200, 600]),
    # SIGame: 0 is "the lowest or the highest price of the round"
    ('minimum="0" maximum="0" step="0"', {"min": 100, "max": 500, "step": 400}, [100, 500]),
    ('', {"min": 100, "max": 500, "step": 400}, [100, 500]),
])
def test_a_v5_secret_question_keeps_its_own_price(make_siq: Callable[..., bytes],
                                                 numbers: str, price: dict,
                                                 choices: list[int]) -> None:
    points, found = secret(parse_pack(make_siq(v5(numbers)), "cats.siq"))
    assert (points, found) == (300, price)  # the board value stays the question's points
    assert price_choices(found) == choices


@pytest.mark.parametrize(("kind", "cost", "price"), [
    ("cat", "500", {"min": 500, "max": 500, "step": 0}),
    ("bagcat", "[100;500]", {"min": 100, "max": 500, "step": 400}),
    ("bagcat", " [200;1000]/200 ", {"min": 200, "max": 1000, "step": 200}),
    ("bagcat", "0", {"min": 100, "max": 200, "step": 100}),  # the round's lowest or highest
    ("cat", None, None),
    ("cat", "", None),
])
def test_a_v4_cat_keeps_its_cost(make_siq: Callable[..., bytes], kind: str, cost: str | None,
                                 price: dict | None) -> None:
    assert secret(parse_pack(make_siq(v4(kind, cost)), "cats.siq")) == (200, price)


def test_a_secret_question_without_a_price_keeps_the_board_value(
        make_siq: Callable[..., bytes]) -> None:
    assert secret(parse_pack(make_siq(v5(None)), "cats.siq")) == (300, None)
    ordinary = parse_pack(make_siq(v5(None)), "cats.siq").rounds[0].questions[0]
    assert (ordinary.points, ordinary.price) == (100, None)


@pytest.mark.parametrize(("xml", "where", "message"), [
    (v5('minimum="сто" maximum="500" step="0"'), f'{WHERE}, <param name="price"><numberSet>',
     'the secret question\'s price: minimum="сто" is not a whole number'),
    (v5('minimum="100" maximum="5.5" step="0"'), f'{WHERE}, <param name="price"><numberSet>',
     'the secret question\'s price: maximum="5.5" is not a whole number'),
    (v5('minimum="500" maximum="100" step="0"'), f'{WHERE}, <param name="price"><numberSet>',
     "the price's maximum 100 is below its minimum 500"),
    (v5('minimum="-100" maximum="100" step="0"'), f'{WHERE}, <param name="price"><numberSet>',
     "the price cannot be negative (minimum -100, maximum 100, step 0)"),
    (v4("bagcat", "[100;500"), f'{WHERE}, <param name="cost">',
     "the secret question's price '[100;500' is neither a number nor a range such as "
     "[100;500] or [100;500]/100"),
    (v4("cat", "пет"), f'{WHERE}, <param name="cost">',
     "the secret question's price 'пет' is neither a number nor a range"),
])
def test_a_malformed_price_names_its_element(make_siq: Callable[..., bytes], xml: str,
                                             where: str, message: str) -> None:
    with pytest.raises(PackError) as err:
        parse_pack(make_siq(xml), "bad.siq")
    assert err.value.location == where
    assert err.value.message.startswith(message)


def test_a_malformed_price_is_refused_in_the_hosts_language(
        app, client, demo, make_siq: Callable[..., bytes]) -> None:
    code, _ = demo
    login(client, app, code)
    before = question_count(app)
    bad = make_siq(v5('minimum="500" maximum="100" step="0"'))
    russian = upload(client, code, bad, "cats.siq", lang="ru")
    html = russian.get_data(as_text=True)
    assert russian.status_code == 422
    assert "в теме &#39;Котки&#39; раунда &#39;Раунд 1&#39;, &lt;param name=&#34;price&#34;" in html
    assert "максимум цены 100 меньше её минимума 500" in html
    english = upload(client, code, bad, "cats.siq", lang="en").get_data(as_text=True)
    assert "the price&#39;s maximum 100 is below its minimum 500" in english
    assert question_count(app) == before  # nothing imported


def test_the_price_survives_saving_as_a_native_pack(make_siq: Callable[..., bytes]) -> None:
    from answerdesk.packs.native import dump_native, load_native

    pack = parse_pack(make_siq(v5('minimum="100" maximum="500" step="200"')), "cats.siq")
    for fmt in ("yaml", "json"):
        again = load_native(dump_native(pack, fmt), f"saved.{fmt}")
        assert again == pack
        assert again.rounds[0].questions[1].price == {"min": 100, "max": 500, "step": 200}


@pytest.mark.parametrize(("price", "location", "message"), [
    ("{min: 500, max: 100}", "line 6 (rounds[0].questions[0].price)",
     "the price's maximum 100 is below its minimum 500"),
    ("{min: 100, max: сто}", "line 6 (rounds[0].questions[0].price.max)",
     "expected a whole number"),
    ("{min: 100, top: 500}", "line 6 (rounds[0].questions[0].price.top)", "unknown field 'top'"),
])
def test_a_native_packs_bad_price_names_its_line(price: str, location: str,
                                                 message: str) -> None:
    from answerdesk.packs.native import load_native

    doc = ("answerdesk_pack: 1\ntitle: Котки\nrounds:\n- number: 1\n  questions:\n"
           f"  - {{text: Котка, key: [котка], variant: secret, price: {price}}}\n")
    with pytest.raises(PackError) as err:
        load_native(doc, "cats.yaml")
    assert err.value.location == location
    assert message in err.value.message
