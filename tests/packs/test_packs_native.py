"""The native YAML/JSON pack: the documented example, round trips, refusals."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pytest

from answerdesk.packs import (
    Pack,
    PackError,
    QuestionSpec,
    RoundSpec,
    dump_native,
    load_native,
    parse_pack,
)

REPO = Path(__file__).resolve().parents[2]
PACKS = REPO / "tests" / "data" / "packs"


def _docs_examples() -> list[str]:
    doc = (REPO / "docs/packs.md").read_text(encoding="utf-8")
    return re.findall(r"```yaml\n(.*?)```", doc, re.DOTALL)


def _docs_example() -> str:
    """The full example (the last one; the one before shows the wildcard sets)."""
    blocks = _docs_examples()
    assert len(blocks) == 2
    return blocks[-1]


def test_bg_r5_documented_wildcard_example_loads():
    pack = load_native(_docs_examples()[0], "wildcard.yaml")
    assert sorted(pack.scenarios) == ["5.1", "5.4", "5.5"]
    assert [q.key for q in pack.scenarios["5.4"]] == [[1], [2]]
    assert pack.scenarios["5.5"][0].key == {"1": "Б", "2": "А"}


def _full_pack() -> Pack:
    """A pack that sets every field of every dataclass, media bytes included."""
    return Pack(
        title="Пъб куиз",
        format="native",
        rounds=[
            RoundSpec(number=1, name="R1", kind="choice", points=1, check_mode="choice",
                      themes=["Реки"], questions=[QuestionSpec(
                          number=1, text="Най-дългата река?", key=["А"], hint="И", points=2,
                          comment="к", source="и", author="а",
                          media=[{"kind": "image", "ref": "img/r.png"},
                                 {"kind": "audio", "ref": "https://x.org/a.mp3",
                                  "stage": "answer"}],
                          answer="А) Искър", note="н", theme="Реки", check_mode="choice",
                          options={"А": "Искър", "Б": "Марица"}, variant="stake")]),
            RoundSpec(number=4, name="R4", kind="media", points=3, check_mode="song",
                      questions=[QuestionSpec(number=1, text="Песен", key={
                          "title": ["Bohemian Rhapsody"], "artists": [["Queen", "Куин"]]})]),
            RoundSpec(number=5, name="All-in", kind="wildcard", points=5, check_mode="pairs",
                      questions=[QuestionSpec(number=3, text="Свържете",
                                              key={"1": "В", "2": "А", "3": "Б", "4": "Г"}),
                                 QuestionSpec(number=4, text="Число", key=[7],
                                              check_mode="number"),
                                 QuestionSpec(number=5, text="Да", key=["yes", "2016-05-07"],
                                              check_mode="exact")]),
            RoundSpec(number=2, name="R2", kind="open", points=2, check_mode="typo3",
                      questions=[QuestionSpec(number=1, text="", key={
                          "accept": ["Вазов"], "reject": ["Ботев"]})]),
        ],
        media={"img/r.png": b"\x89PNG\r\n\x1a\n\x00\xff binary"},
        warnings=["made by hand"],
        scenarios={"5.4": [QuestionSpec(number=1, text="Колко", key=[3], hint="3")],
                   "5.5": [QuestionSpec(number=2, text="Свържете",
                                        key={"1": "Б", "2": "А"})]},
    )


@pytest.mark.parametrize("fmt", ["yaml", "json"])
def test_round_trip_keeps_every_field(fmt: str) -> None:
    pack = _full_pack()
    text = dump_native(pack, fmt)
    again = load_native(text, f"pack.{fmt}")
    assert again == pack
    assert dataclasses.asdict(again) == dataclasses.asdict(pack)
    assert load_native(text.encode("utf-8"), f"pack.{fmt}") == pack
    assert parse_pack(text.encode("utf-8"), f"saved.{fmt}") == pack


@pytest.mark.parametrize("name", ["sigame/si-gametest-v4-media.siq", "chgk/wc13.txt",
                                  "svoyak/enot03sv.txt"])
def test_imported_packs_survive_saving_as_native(name: str) -> None:
    path = PACKS / name
    pack = parse_pack(path.read_bytes(), path.name)
    for fmt in ("yaml", "json"):
        assert load_native(dump_native(pack, fmt), f"saved.{fmt}") == pack


def test_documented_example_loads_with_bg_defaults() -> None:
    pack = load_native(_docs_example(), "example.yaml")
    assert pack.title == "Пъб куиз — 12 март" and pack.format == "native"
    by_number = {r.number: r for r in pack.rounds}
    assert [r.number for r in pack.rounds] == [1, 2, 3, 4, 5, 7, 6]
    r1 = by_number[1]
    assert (r1.kind, r1.points, r1.check_mode) == ("choice", 1, "choice")
    assert r1.questions[1].options["А"] == "Искър" and r1.questions[1].key == ["А"]
    r2 = by_number[2]
    assert (r2.kind, r2.points, r2.check_mode) == ("open", 2, "typo3")
    assert r2.questions[0].key == {"accept": ["Иван Вазов", "Вазов"], "reject": ["Христо Ботев"]}
    assert r2.questions[1].key == {"accept": ["Канбера"], "reject": ["Австрия"]}
    assert by_number[3].questions[0].media == [{"kind": "image", "ref": "stills/vchera.jpg"}]
    r4 = by_number[4]
    assert r4.check_mode == "song" and r4.points == 3
    assert r4.questions[0].key == {"title": ["Bohemian Rhapsody", "Бохемска рапсодия"],
                                   "artists": [["Queen", "Куин"]]}
    assert r4.mode_for(r4.questions[1]) == "typo5"
    assert r4.questions[1].media == [{"kind": "video", "ref": "clips/tobacco.mp4"}]
    assert by_number[5].questions[0].key == [8]
    assert by_number[7].questions[0].key == {"1": "В", "2": "А", "3": "Б", "4": "Г"}
    assert (by_number[6].kind, by_number[6].points) == ("final", 5)
    assert pack.missing_media() == ["clips/tobacco.mp4", "stills/vchera.jpg"]


def test_json_and_yaml_of_the_same_document_agree() -> None:
    import yaml

    doc = yaml.safe_load(_docs_example())
    as_json = json.dumps(doc, ensure_ascii=False)
    assert load_native(as_json, "example.json") == load_native(_docs_example(), "example.yaml")


# -- refusals name the line --------------------------------------------------------

BAD_SONG = """\
answerdesk_pack: 1
title: Test
rounds:
  - number: 4
    check_mode: song
    questions:
      - text: Песен
        key: [Bohemian Rhapsody, Queen]
"""


def test_bad_key_shape_in_yaml_names_the_line() -> None:
    with pytest.raises(PackError) as err:
        load_native(BAD_SONG, "bad.yaml")
    assert err.value.location == "line 8 (rounds[0].questions[0].key)"
    assert "song key must be {title: [...], artists: [[...], ...]}" in str(err.value)
    assert str(err.value).startswith("line 8 ")


@pytest.mark.parametrize(("replace", "location", "message"), [
    ("key: [Bohemian Rhapsody, Queen]", "line 8 (rounds[0].questions[0].key.artist)",
     "unknown field 'artist'"),
    ("check_mode: song", "line 5 (rounds[0].check_mode)", "check_mode must be one of"),
    ("text: Песен", "line 7 (rounds[0].questions[0].anwser)", "unknown field 'anwser'"),
])
def test_other_yaml_mistakes_name_their_line(replace: str, location: str, message: str) -> None:
    fixes = {
        "key: [Bohemian Rhapsody, Queen]": "key: {title: [X], artist: [[Y]]}",
        "check_mode: song": "check_mode: fuzzy",
        "text: Песен": "anwser: Песен",
    }
    with pytest.raises(PackError) as err:
        load_native(BAD_SONG.replace(replace, fixes[replace]), "bad.yaml")
    assert err.value.location == location
    assert message in err.value.message


def test_unquoted_yes_is_refused_with_advice() -> None:
    text = BAD_SONG.replace("number: 4\n    check_mode: song", "number: 2").replace(
        "key: [Bohemian Rhapsody, Queen]", "key: [yes]")
    with pytest.raises(PackError, match=r"^line 7 \(rounds\[0\]\.questions\[0\]\.key\[0\]\): "
                                        r"expected text, got a yes/no value \(put it in quotes\)"):
        load_native(text, "yes.yaml")


def test_yaml_syntax_error_and_duplicate_field() -> None:
    with pytest.raises(PackError, match=r"^line 4, column 3: not valid YAML"):
        load_native("answerdesk_pack: 1\ntitle: x\nrounds: [\n  - a: 1\n", "syntax.yaml")
    with pytest.raises(PackError, match=r"^line 3: 'title' appears twice"):
        load_native("answerdesk_pack: 1\ntitle: x\ntitle: y\nrounds: []\n", "dup.yaml")


def test_json_errors_name_line_and_path() -> None:
    with pytest.raises(PackError, match=r"^line 2, column \d+: not valid JSON"):
        load_native('{"title": "x",\n "rounds": [}\n', "bad.json")
    doc = {"answerdesk_pack": 1, "title": "x", "rounds": [
        {"number": 1, "questions": [{"text": "a", "key": ["А"]},
                                    {"text": "b", "key": ["Д"], "options": {"А": "1"}}]}]}
    text = json.dumps(doc, ensure_ascii=False, indent=2)
    with pytest.raises(PackError) as err:
        load_native(text, "opt.json")
    line = next(i for i, s in enumerate(text.split("\n"), 1) if '"Д"' in s)
    assert err.value.location == f"line {line} (rounds[0].questions[1].key[0])"
    assert "'Д' is not one of the options А" in str(err.value)


def test_number_and_pairs_keys_are_checked() -> None:
    base = ("answerdesk_pack: 1\ntitle: x\nrounds:\n  - number: 5\n    check_mode: {mode}\n"
            "    questions:\n      - text: q\n        key: {key}\n")
    with pytest.raises(PackError, match=r"^line 8 .*number key must hold numbers"):
        load_native(base.format(mode="number", key="[седем]"), "n.yaml")
    with pytest.raises(PackError, match=r"^line 8 .*pair 'x' must be a number"):
        load_native(base.format(mode="pairs", key="{x: В}"), "p.yaml")
    ok = load_native(base.format(mode="pairs", key="{1: В, 2: А}"), "p.yaml")
    assert ok.rounds[0].questions[0].key == {"1": "В", "2": "А"}


def test_a_foreign_json_file_is_not_taken_for_a_pack() -> None:
    with pytest.raises(PackError, match=r"^line 1 \(answerdesk_pack\): not an answerdesk pack"):
        parse_pack(b'{"title": "x", "rounds": []}', "other.json")
