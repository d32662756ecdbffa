"""Checker benchmark (issue 3): microseconds per check and the re-check after a key change.

Usage: python bench/checker_bench.py [CORPUS.jsonl]
Default corpus: ../shared/corpus/real/sigame-right-wrong.jsonl relative to the repo root.
Each figure is printed beside plain rapidfuzz OSA measured in the same run.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path

from rapidfuzz.distance import OSA

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from answerdesk.checker import check, preload  # noqa: E402

DEFAULT = ROOT.parent / "shared" / "corpus" / "real" / "sigame-right-wrong.jsonl"


def _accepts(key: object) -> list[str]:
    return list(key["accept"]) if isinstance(key, dict) else [str(k) for k in key]  # type: ignore[index]


def _osa(given: str, key: object) -> bool:
    return any(OSA.distance(given.casefold(), a.casefold()) <= 3 for a in _accepts(key))


def _figures(seconds: list[float]) -> str:
    us = sorted(s * 1e6 for s in seconds)
    p90 = us[int(len(us) * 0.9)]
    median, mean = statistics.median(us), statistics.fmean(us)
    return f"median {median:.1f} us, mean {mean:.1f} us, p90 {p90:.1f} us"


def _timed_pass(cases: list[dict]) -> tuple[list[float], list[float]]:
    """Seconds per case for the checker and for plain OSA, measured side by side."""
    ours, plain = [], []
    for c in cases:
        t0 = time.perf_counter()
        check(c["given"], c["key"], c["mode"])
        t1 = time.perf_counter()
        _osa(c["given"], c["key"])
        t2 = time.perf_counter()
        ours.append(t1 - t0)
        plain.append(t2 - t1)
    return ours, plain


def per_check(cases: list[dict]) -> tuple[float, float]:
    """Median microseconds per check: the first pass with cold key/answer caches, then
    a second pass (warm caches), each beside plain rapidfuzz OSA on the same case."""
    t0 = time.perf_counter()
    preload()  # word lists, place names, CMU dictionary: once per process
    print(f"one-off data load (preload): {time.perf_counter() - t0:.2f} s")
    cold, cold_osa = _timed_pass(cases)  # first pass: every key and answer is new
    print(f"first pass (cold key/answer caches): checker {_figures(cold)}")
    print(f"                                     plain rapidfuzz OSA {_figures(cold_osa)}")
    ours, plain = _timed_pass(cases)
    return statistics.median(ours) * 1e6, statistics.median(plain) * 1e6


def recheck(cases: list[dict]) -> tuple[float, float]:
    """Seconds to re-check 6,000 answers (100 teams x 60 questions) after a key gains an
    accepted answer (BG-D1): the new key is seen for the first time."""
    questions: dict[str, dict] = {}
    for c in cases:
        name = json.dumps(c["key"], ensure_ascii=False)
        q = questions.setdefault(name, {"key": c["key"], "g": []})
        q["g"].append(c["given"])
    qs = [q for q in questions.values() if isinstance(q["key"], dict)][:60]
    sheet = []
    for i, q in enumerate(qs):
        answers = q["g"]
        for team in range(100):
            sheet.append((i, answers[team % len(answers)] + ("" if team < len(answers) else " ")))
    for i, g in sheet:  # the answers were checked once already, before the dispute
        check(g, qs[i]["key"], "typo3")
    new_keys = [
        {"accept": list(q["key"]["accept"]) + [f"disputed answer {n}"]} for n, q in enumerate(qs)
    ]
    t0 = time.perf_counter()
    for i, g in sheet:
        check(g, new_keys[i], "typo3")
    ours = time.perf_counter() - t0
    t0 = time.perf_counter()
    for i, g in sheet:
        _osa(g, new_keys[i])
    plain = time.perf_counter() - t0
    return ours, plain


def main(argv: list[str]) -> int:
    path = Path(argv[1]) if len(argv) > 1 else DEFAULT
    cases = [json.loads(line) for line in path.open(encoding="utf-8") if line.strip()]
    us, us_osa = per_check(cases)
    print(f"corpus: {path} ({len(cases)} checks)")
    print(
        f"median per check, second pass (warm caches): checker {us:.1f} us "
        f"| plain rapidfuzz OSA {us_osa:.1f} us "
        f"| ratio {us / us_osa:.1f}x"
    )
    secs, secs_osa = recheck(cases)
    print(
        f"re-check 6000 answers after a key change: checker {secs:.3f} s "
        f"| plain rapidfuzz OSA {secs_osa:.3f} s | ratio {secs / secs_osa:.1f}x"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
