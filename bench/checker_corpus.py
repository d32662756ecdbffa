"""Checker quality on a labelled corpus, split into a tuning half and a held-out half (issue 16).

Usage: python bench/checker_corpus.py CORPUS.jsonl [CORPUS.jsonl ...] [-v tune|held]

Each case goes to a half by a hash of its mode, key and answer (not its id, not its
line), so the split is the same on every machine and for every copy of the corpus.
Rules are tuned by looking at the failures of the tuning half only (``-v tune``);
the held-out half is reported beside it, so a rule fitted to the cases it was tuned
on shows as a gap between the two columns. Scoring follows the corpus's own scorer:
right (the expected outcome, or review where review is allowed), false accept (more
credit than expected), false reject (less), needless review.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from answerdesk.checker import check  # noqa: E402

RANK = {"wrong": 0, "partial": 1, "correct": 2}
HALVES = ("tune", "held")


def half_of(case: dict) -> str:
    """'tune' or 'held' by a hash of what is checked (mode, key, answer)."""
    text = json.dumps([case["mode"], case["key"], case["given"]], ensure_ascii=False,
                      sort_keys=True)
    return HALVES[hashlib.sha256(text.encode("utf-8")).digest()[0] & 1]


def classify(case: dict) -> tuple[str, str, str]:
    """(kind, outcome, reason) of one case: kind is right, false_accept, false_reject,
    needless_review or error."""
    try:
        v = check(case["given"], case["key"], case["mode"])
    except Exception as exc:  # a crash is a defect: count it, as the scorer does
        return "error", "error", repr(exc)
    if v.outcome == "review":
        return ("right" if case.get("review_ok") else "needless_review"), v.outcome, v.reason
    if v.outcome == case["expect"]:
        return "right", v.outcome, v.reason
    if RANK[v.outcome] > RANK[case["expect"]]:
        return "false_accept", v.outcome, v.reason
    return "false_reject", v.outcome, v.reason


def score(path: Path, verbose: str | None = None) -> dict[str, dict[str, int]]:
    """Counts per half; prints the failures of the half named by ``verbose``."""
    counts = {h: dict.fromkeys(("cases", "right", "false_accept", "false_reject",
                                "needless_review", "error", "review"), 0) for h in HALVES}
    for line in path.open(encoding="utf-8"):
        if not line.strip():
            continue
        case = json.loads(line)
        h = half_of(case)
        kind, outcome, reason = classify(case)
        c = counts[h]
        c["cases"] += 1
        c[kind] += 1
        c["review"] += outcome == "review"
        if verbose == h and kind != "right":
            print(f"{kind:16} {case.get('id', '')} {case['mode']:6} "
                  f"key={json.dumps(case['key'], ensure_ascii=False)} "
                  f"given={case['given']!r} -> {outcome} ({reason})")
    return counts


def line(name: str, c: dict[str, int]) -> str:
    n = max(c["cases"], 1)
    return (f"{name:5} cases={c['cases']} right={c['right']} ({100 * c['right'] / n:.1f}%) "
            f"false_accept={c['false_accept']} false_reject={c['false_reject']} "
            f"needless_review={c['needless_review']} errors={c['error']} "
            f"review_rate={100 * c['review'] / n:.1f}%")


def main(argv: list[str]) -> int:
    verbose = None
    args = list(argv[1:])
    if "-v" in args:
        i = args.index("-v")
        verbose = args[i + 1] if i + 1 < len(args) else "tune"
        del args[i:i + 2]
    if not args:
        print(__doc__)
        return 2
    bad = 0
    for p in args:
        counts = score(Path(p), verbose)
        print(p)
        for h in HALVES:
            print("  " + line(h, counts[h]))
            bad += counts[h]["false_accept"] + counts[h]["false_reject"] + counts[h]["error"]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
