"""One transaction rule (issue 32): services flush; the request (web.register_transaction),
a CLI command or the live checker's loop commits. The few commits that must stay inside
are listed here and in docs/ARCHITECTURE.md, each with its reason; a new ``commit()``
anywhere else in answerdesk/ fails this test."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from answerdesk.extensions import db
from answerdesk.models import Event

PACKAGE = Path(__file__).resolve().parents[1] / "answerdesk"
ARCHITECTURE = PACKAGE.parent / "docs" / "ARCHITECTURE.md"

# (module, function) -> how many commit() calls it holds. Reasons: docs/ARCHITECTURE.md.
ALLOWED = {
    ("web.py", "end_transaction"): 1,  # the request boundary (after_request, lean_routes.py)
    ("web.py", "committed"): 1,  # the request boundary, for a view that needs it early
    ("cli.py", "demo"): 1,  # a CLI command is its own boundary
    ("cli.py", "new_event"): 1,
    ("packs/commands.py", "import_pack_command"): 1,
    ("formats/bg/champions.py", "champions_quiz"): 1,
    ("livecheck.py", "check_open_rounds"): 1,  # the live checker's loop
    ("core/answers.py", "_save"): 2,  # the phone's save: acknowledged once durable
    ("lean.py", "commit"): 1,  # the lean executor's end of the save's transaction
    ("database/readonly.py", "read_write"): 1,  # leaving a read-only block ends what it read
    ("core/rounds.py", "check_arrived"): 2,  # checking outside the caller's transaction
    ("formats/oq/control.py", "settle_due"): 1,  # a poll applies a due timer
    ("formats/buzzer/stream.py", "_settle"): 1,  # the stream's timer, outside any request
}


def _commits() -> dict[tuple[str, str], int]:
    found: dict[tuple[str, str], int] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        module = path.relative_to(PACKAGE).as_posix()

        def visit(node: ast.AST, function: str, module: str = module) -> None:
            for child in ast.iter_child_nodes(node):
                name = function
                if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                    name = child.name
                if (isinstance(child, ast.Call) and isinstance(child.func, ast.Attribute)
                        and child.func.attr == "commit"):
                    key = (module, function)
                    found[key] = found.get(key, 0) + 1
                visit(child, name)

        visit(tree, "<module>")
    return found


def test_commits_only_where_listed():
    """A service that commits splits the request's work in two (a refusal after it can
    no longer undo the first half): flush, and let the boundary commit."""
    assert _commits() == ALLOWED


def test_each_inner_commit_is_documented():
    text = ARCHITECTURE.read_text(encoding="utf-8")
    for module, function in ALLOWED:
        assert f"`{function}`" in text and module in text, (module, function)


@pytest.fixture()
def boundary_app(app):
    @app.post("/_txn/<outcome>")
    def flush_then(outcome: str):
        from answerdesk.core.events import create_event
        from answerdesk.errors import DeskError

        create_event("Boundary " + outcome, format="bg")
        if outcome == "refuse":
            raise DeskError("Unknown language '%(locale)s'", locale="xx")
        if outcome == "crash":
            raise RuntimeError("boom")
        return {"ok": True}

    return app


def _names(app) -> list[str]:
    with app.app_context():
        return list(db.session.scalars(db.select(Event.name).order_by(Event.name)))


def test_the_request_commits_what_a_service_flushed(boundary_app):
    app = boundary_app
    app.test_client().post("/_txn/ok")
    assert _names(app) == ["Boundary ok"]


def test_a_refusal_or_an_error_changes_nothing(boundary_app):
    app = boundary_app
    app.config["PROPAGATE_EXCEPTIONS"] = False
    client = app.test_client()
    assert client.post("/_txn/refuse").status_code == 400
    assert client.post("/_txn/crash").status_code == 500
    assert _names(app) == []
