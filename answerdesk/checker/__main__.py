"""Batch mode: JSON lines {"given", "key", "mode"} in, {"outcome", "fraction", "reason"} out."""

from __future__ import annotations

import json
import sys
from typing import TextIO

from answerdesk.checker.core import check


def run(stdin: TextIO, stdout: TextIO) -> int:
    """Check every input line; a bad line gets outcome "error" with its message
    (docs/checker.md)."""
    bad = 0
    for line in stdin:
        if not line.strip():
            continue
        try:
            case = json.loads(line)
            v = check(case.get("given", ""), case["key"], case.get("mode", "typo3"))
            out = {"outcome": v.outcome, "fraction": v.fraction, "reason": v.reason}
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            bad += 1
            out = {"outcome": "error", "fraction": None, "reason": str(exc)}
        stdout.write(json.dumps(out, ensure_ascii=False) + "\n")
        stdout.flush()
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(run(sys.stdin, sys.stdout))
