"""The libraries the suite runs on are the ones the lock files name (issue 32).

The code reaches into a few libraries' internals (SQLAlchemy in lean.py,
Flask-Talisman, Flask-Limiter and Werkzeug in security.py, the text of msgspec's
ValidationError in bodies.py, gunicorn's threaded worker and request reader in
serving.py, its Logger's access handler in access_log.py), each listed in
docs/ARCHITECTURE.md ("Libraries' internals") with the version it was checked
against and a test that runs it; their caps in pyproject.toml
keep a new minor release out, and this test fails as soon as any installed version
differs from the lock, so a library changed underneath is seen before a night, not
during one.
"""

from __future__ import annotations

import re
import tomllib
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent
TOUCHED = ("flask", "werkzeug", "sqlalchemy", "flask-sqlalchemy", "flask-limiter",
           "flask-talisman", "msgspec", "gunicorn")


def pins(lock: str) -> dict[str, str]:
    text = (ROOT / lock).read_text(encoding="utf-8")
    return {canonicalize_name(name): pinned
            for name, pinned in re.findall(r"^([A-Za-z0-9_.\-]+)==(\S+)", text, re.M)}


def test_installed_versions_are_the_locked_ones():
    locked = pins("requirements-test.lock")
    differ = {}
    for name, pinned in locked.items():
        try:
            installed = version(name)
        except PackageNotFoundError:
            continue  # a platform's extra (e.g. greenlet) that this machine does without
        if installed != pinned:
            differ[name] = (installed, pinned)
    assert not differ, f"installed differs from requirements-test.lock: {differ}"


def test_runtime_lock_is_within_the_test_lock():
    runtime, test = pins("requirements.lock"), pins("requirements-test.lock")
    assert runtime, "requirements.lock names no package"
    assert {name: test.get(name) for name in runtime} == runtime


def test_touched_libraries_are_capped_and_locked_within_the_cap():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    requirements = {canonicalize_name(r.name): r
                    for r in map(Requirement, project["project"]["dependencies"])}
    locked = pins("requirements.lock")
    for name in TOUCHED:
        spec = requirements[name].specifier
        assert any(s.operator == "<" for s in spec), f"{name} has no upper bound"
        assert spec.contains(locked[name]), f"{name} {locked[name]} outside {spec}"


def test_every_declared_dependency_is_locked():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    declared = project["project"]["dependencies"] + project["project"][
        "optional-dependencies"]["test"]
    locked = pins("requirements-test.lock")
    missing = [r for r in map(Requirement, declared)
               if canonicalize_name(r.name) not in locked
               or not r.specifier.contains(locked[canonicalize_name(r.name)])]
    assert not missing, f"declared but not locked (run make lock): {missing}"


def internals_table() -> list[dict[str, str]]:
    """docs/ARCHITECTURE.md's "Libraries' internals": one row per reach into a library."""
    doc = (ROOT / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8")
    section = doc[doc.index("## Libraries' internals"):]
    rows = [[cell.strip() for cell in line.strip().strip("|").split("|")]
            for line in section.splitlines() if line.startswith("| `")]
    return [dict(zip(("module", "reaches", "checked", "why", "test"), row, strict=True))
            for row in rows]


def test_the_internals_table_names_the_locked_versions_and_real_tests():
    """Each private part the code reaches into is listed with the version it was checked
    against, which is the locked one (a `make lock` that moves it makes this fail until
    the row, and the code, are checked again), and with a test of the suite that runs it."""
    rows = internals_table()
    locked = pins("requirements.lock")
    assert len(rows) >= 8
    for row in rows:
        name, checked = row["checked"].split()
        assert name in TOUCHED, row
        assert locked[name] == checked, f"{name} is locked at {locked[name]}, checked at {checked}"
        path, test = row["test"].strip("`").split("::")
        source = (ROOT / path).read_text(encoding="utf-8")
        assert f"def {test}(" in source, row["test"]
        module = row["module"].strip("`").split("`")[0].strip()
        assert (ROOT / "answerdesk" / module).exists(), module
    libraries = {row["checked"].split()[0] for row in rows}
    # flask and flask-sqlalchemy are capped beside werkzeug and sqlalchemy, released with
    # them; what the rows above use of them (the request hook lists, db.engine) is public
    assert set(TOUCHED) - libraries == {"flask", "flask-sqlalchemy"}
