"""Look-alike letters across a whole text (BG-R5.6, issue 16 §1/§2)."""

from __future__ import annotations

import pytest

from answerdesk.checker.normalize import normalize


@pytest.mark.parametrize(
    "text,expected",
    [
        ("АС/DC", "ac dc"),  # Cyrillic А, С in a Latin band name
        ("Бони M", "бони м"),  # Latin M in a Cyrillic name
        ("Мама Mia", "mama mia"),
        ("Карл Х", "карл х"),  # a single Cyrillic letter stays a letter
        ("XXI век", "xxi век"),  # a Roman numeral is no evidence of script
        ("Pink Флойд", "pink флойд"),  # two scripts, no look-alike word: unchanged
    ],
)
def test_lookalike_words_take_the_texts_script(text: str, expected: str) -> None:
    assert normalize(text) == expected
