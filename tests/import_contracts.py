"""An import-linter contract type the package's contracts use (pyproject.toml): no
module imports itself around a circle, imports inside functions included.

import-linter's own ``acyclic_siblings`` compares packages as wholes, so a cycle
between modules of one package (chgk's ``__init__`` and ``game``) or across packages
at module level would pass it; this one walks the module graph grimp built.
"""

from __future__ import annotations

import grimp
from importlinter.application import output
from importlinter.domain.contract import Contract, ContractCheck


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected group of more than one module, or a self-import (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1 or node in graph.get(node, ()):
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return groups


class AcyclicModulesContract(Contract):
    """Kept when the root package's modules import one another along no circle."""

    type_name = "acyclic_modules"

    def check(self, graph: grimp.ImportGraph, verbose: bool) -> ContractCheck:
        modules = {m: set(graph.find_modules_directly_imported_by(m)) for m in graph.modules}
        found = cycles(modules)
        lines = []
        for group in found:
            members = set(group)
            for importer in group:
                for imported in sorted(modules[importer] & members):
                    where = graph.get_import_details(importer=importer, imported=imported)
                    lines.append((importer, imported, [d["line_number"] for d in where]))
        return ContractCheck(kept=not found, warnings=[], metadata={"lines": lines,
                                                                    "groups": found})

    def render_broken_contract(self, check: ContractCheck) -> None:
        for group in check.metadata["groups"]:
            output.print_error(f"Import cycle: {', '.join(group)}", bold=False)
        for importer, imported, lines in check.metadata["lines"]:
            output.print_error(f"  {importer} -> {imported} (l.{lines})", bold=False)
        output.new_line()
