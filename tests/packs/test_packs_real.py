"""Every real pack in tests/data/packs imports, with counts read off the source files."""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

import pytest

from answerdesk.packs import Pack, parse_pack
from answerdesk.packs.model import CHECK_MODES, ROUND_KINDS, TEXT_MODES

PACKS = Path(__file__).resolve().parents[1] / "data" / "packs"

# file → (format, questions per round). Counted by hand from the sources:
# db.chgk.info tours have 15 questions (wc13 adds two one-question shoot-outs);
# Своя игра themes have 5 questions, grouped 5 themes a round; SIGame rounds are
# 6 themes × 5 questions plus a 7-theme final (gametest: 12 + 12 - 2 skipped, final 3).
EXPECTED: dict[str, tuple[str, list[int]]] = {
    "ingush16.txt": ("chgk", [15] * 4),
    "ruch17st.txt": ("chgk", [15] * 6),
    "rusch16.txt": ("chgk", [15] * 6),
    "wc13.txt": ("chgk", [15, 15, 15, 15, 1, 15, 15, 15, 15, 1]),
    "enot03sv.txt": ("svoyak", [25, 25, 25, 25, 20]),
    "leti05sv.txt": ("svoyak", [25, 25, 15]),
    "si-2010-12-v5.siq": ("siq", [30, 30, 30, 7]),
    "si-data-1-v5.siq": ("siq", [30, 30, 30, 7]),
    "si-resources-1-v3.siq": ("siq", [30, 30, 30, 7]),
    "si-gametest-v4-media.siq": ("siq", [20, 3]),
    "si-test-v5.siq": ("siq", [2]),
}

ALL_FILES = sorted(p for p in PACKS.glob("*/*") if p.is_file())


def _parse(path: Path) -> Pack:
    return parse_pack(path.read_bytes(), path.name)


def _source_question_count(path: Path) -> int:
    """Count questions straight from the source text, independently of the parser."""
    if path.suffix == ".siq":
        with zipfile.ZipFile(path) as zf:
            xml = zf.read("content.xml").decode("utf-8")
        total = len(re.findall(r"<question[ >]", xml))
        skipped = len(re.findall(r'price="-1"', xml)) + len(re.findall(
            r'<param name="knows">never</param>', xml))
        return total - skipped
    text = path.read_text(encoding="utf-8")
    blocks = re.split(r"^Вопрос \d+:\n", text, flags=re.MULTILINE)[1:]
    if re.search(r"^Вид:\s*\n?Я", text, re.MULTILINE):
        # Своя игра: count the numbered sub-questions before each "Ответ:"
        return sum(len(re.findall(r"^\s+\d+\. ", b.split("\nОтвет:")[0], re.MULTILINE))
                   for b in blocks)
    return len(blocks)


def test_every_shared_pack_has_expectations() -> None:
    assert ALL_FILES, "no packs found in tests/data/packs"
    assert {p.name for p in ALL_FILES} == set(EXPECTED)


@pytest.mark.parametrize("path", ALL_FILES, ids=lambda p: p.name)
def test_shared_pack_imports_with_expected_counts(path: Path) -> None:
    pack = _parse(path)
    fmt, per_round = EXPECTED[path.name]
    assert pack.format == fmt
    assert [len(r.questions) for r in pack.rounds] == per_round
    assert pack.question_count == sum(per_round) == _source_question_count(path)
    assert [r.number for r in pack.rounds] == list(range(1, len(per_round) + 1))
    for rnd in pack.rounds:
        assert rnd.kind in ROUND_KINDS and rnd.check_mode in CHECK_MODES
        assert [q.number for q in rnd.questions] == list(range(1, len(rnd.questions) + 1))
        for q in rnd.questions:
            mode = rnd.mode_for(q)
            if mode in TEXT_MODES:
                assert set(q.key) == {"accept", "reject"}
                assert q.key["accept"], (rnd.name, q.number)
                assert all(isinstance(a, str) and a.strip() for a in q.key["accept"])
            for m in q.media:
                assert m["kind"] in ("image", "audio", "video") and m["ref"]


def test_v3_and_v5_packs_of_the_same_questions_agree() -> None:
    """si-resources-1-v3 and si-data-1-v5 hold the same questions in two schema versions."""
    v3 = _parse(PACKS / "sigame/si-resources-1-v3.siq")
    v5 = _parse(PACKS / "sigame/si-data-1-v5.siq")
    for r3, r5 in zip(v3.rounds, v5.rounds, strict=True):
        assert r3.themes == r5.themes
        assert [q.key for q in r3.questions] == [q.key for q in r5.questions]
        assert [q.points for q in r3.questions] == [q.points for q in r5.questions]
