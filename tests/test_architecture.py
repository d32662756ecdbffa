"""The architecture's import rules (issue 32; docs/ARCHITECTURE.md "Layers") are
import-linter contracts in pyproject.toml, read from the source with imports inside
functions included (grimp). This runs them, and shows each one refuses the import
that would break it, so a contract cannot pass by checking nothing."""

from __future__ import annotations

from pathlib import Path

import grimp
import pytest
from import_contracts import AcyclicModulesContract, cycles
from importlinter.api import read_configuration
from importlinter.cli import lint_imports
from importlinter.contracts.forbidden import ForbiddenContract
from importlinter.contracts.layers import LayersContract
from importlinter.contracts.protected import ProtectedContract

PYPROJECT = Path(__file__).resolve().parents[1] / "pyproject.toml"
CONFIG = read_configuration(str(PYPROJECT))
TYPES = {"layers": LayersContract, "forbidden": ForbiddenContract,
         "protected": ProtectedContract, "acyclic_modules": AcyclicModulesContract}


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    return grimp.build_graph("answerdesk", cache_dir=None, exclude_type_checking_imports=True)


def _contract(contract_id: str):
    options = next(c for c in CONFIG["contracts_options"] if c.get("id") == contract_id)
    return TYPES[options["type"]](name=options["name"], session_options=CONFIG["session_options"],
                                  contract_options=options)


def test_every_contract_holds() -> None:
    assert lint_imports(config_filename=str(PYPROJECT), no_cache=True, no_logo=True) == 0


def test_the_graph_holds_imports_made_inside_functions(graph) -> None:
    """BgNight.standings imports standings.py when called, not when the package loads."""
    assert graph.direct_import_exists(importer="answerdesk.formats.bg",
                                      imported="answerdesk.formats.bg.standings")


@pytest.mark.parametrize(("contract_id", "importer", "imported"), [
    ("layers", "answerdesk.core.rounds", "answerdesk.formats.bg.standings"),
    ("layers", "answerdesk.checker.text", "answerdesk.core.answers"),
    ("formats", "answerdesk.formats.si.game", "answerdesk.formats.oq.game"),
    ("formats", "answerdesk.formats.bg.standings", "answerdesk.formats.chgk.game"),
    ("formats", "answerdesk.formats.buzzer.presses", "answerdesk.formats.oq.control"),
    ("registry", "answerdesk.host.desk", "answerdesk.formats.bg.standings"),
    ("registry", "answerdesk.api.openapi", "answerdesk.formats.si.api"),
    ("core-below-requests", "answerdesk.core.organiser", "answerdesk.i18n"),
    ("core-below-requests", "answerdesk.checker.core", "answerdesk.web"),
    ("acyclic", "answerdesk.core.audit", "answerdesk.core.review"),
    ("acyclic", "answerdesk.formats.chgk.game", "answerdesk.formats.chgk"),
])
def test_a_contract_refuses_the_import_that_breaks_it(graph, contract_id, importer,
                                                      imported) -> None:
    contract = _contract(contract_id)
    assert contract.check(graph, verbose=False).kept
    graph.add_import(importer=importer, imported=imported)
    try:
        assert not contract.check(graph, verbose=False).kept
    finally:
        graph.remove_import(importer=importer, imported=imported)


def test_the_cycle_finder_finds_a_circle() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"a"}}) == [["a"]]
    assert cycles({"a": {"b"}, "b": set()}) == []
