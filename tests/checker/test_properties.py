"""Property tests (hypothesis) for the checker contract."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from answerdesk.checker import MODES, check

KEYS = {
    "exact": ["Наполеон"],
    "typo3": {"accept": ["Васил Левски"], "reject": ["Левски"]},
    "typo5": ["The Beatles", "Бийтълс"],
    "song": {"title": ["Hotel California"], "artists": [["Eagles"]]},
    "pairs": {"1": "В", "2": "А", "3": "Б", "4": "Г"},
    "number": [7],
    "choice": ["Б"],
}
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
words = st.text(
    alphabet=st.characters(whitelist_categories=("Lu", "Ll")), min_size=1, max_size=12
).filter(lambda w: w.strip())


@SETTINGS
@given(text=st.text(max_size=60), mode=st.sampled_from(MODES))
def test_any_unicode_never_raises(text: str, mode: str) -> None:
    v = check(text, KEYS[mode], mode)
    assert v.outcome in ("correct", "partial", "wrong", "review")
    assert (v.fraction is None) == (v.outcome == "review")


@SETTINGS
@given(answer=st.lists(words, min_size=1, max_size=3).map(" ".join))
def test_answer_equal_to_key_is_correct(answer: str) -> None:
    for mode in ("exact", "typo3", "typo5"):
        assert check(answer, [answer], mode).outcome == "correct"


@SETTINGS
@given(key=words, answer=words, mode=st.sampled_from(("exact", "typo3", "typo5")))
def test_letter_case_never_changes_outcome(key: str, answer: str, mode: str) -> None:
    base = check(answer, [key], mode).outcome
    assert check(answer.upper(), [key], mode).outcome == base
    assert check(answer.lower(), [key], mode).outcome == base
