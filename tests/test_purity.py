"""The checker and the scoring rules are pure: importing them pulls in no web or DB code."""

from __future__ import annotations

import subprocess
import sys

import pytest


@pytest.mark.parametrize(
    "module", ["answerdesk.checker", "answerdesk.formats.bg.scoring", "answerdesk.core.formats",
               "answerdesk.formats.chgk.rules",
               "answerdesk.formats.buzzer.timing", "answerdesk.formats.si.rules",
               "answerdesk.formats.oq.rules", "answerdesk.formats.oq.types",
               "answerdesk.formats.oq.room", "answerdesk.formats.oq.timers"]
)
def test_pure_module_imports_no_flask_or_sqlalchemy(module):
    code = (
        f"import sys, {module}; "
        "bad = [m for m in ('flask', 'sqlalchemy', 'flask_sqlalchemy') if m in sys.modules]; "
        "print(','.join(bad))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
