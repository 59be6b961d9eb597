"""No import cycles among minister's modules (issue 9).

The layer contracts (pyproject.toml, run by ``lint-imports``) forbid arrows up the layers and
up the domain's flow, but not two modules of one package importing each other. This test builds
the import graph with grimp (import-linter's graph library) — every import, including those made
inside a function or under ``TYPE_CHECKING`` — and fails on any strongly connected component
of more than one module, naming the modules and the imports that close the loop.
"""

from __future__ import annotations

from collections.abc import Iterable

import grimp

PACKAGES = ("domain", "application", "projections", "tui")


def cycles(imports: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(imports):
        if root in index:
            continue
        work: list[tuple[str, Iterable[str]]] = []
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        work.append((root, iter(sorted(imports[root]))))
        while work:
            module, targets = work[-1]
            for target in targets:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(imports.get(target, ())))))
                    break
                if target in on_stack:
                    low[module] = min(low[module], index[target])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[module])
                if low[module] == index[module]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == module:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return found


def test_the_cycle_finder_finds_a_loop_and_only_a_loop() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": {"e"}, "e": set(), "f": {"f"}}
    assert cycles(graph) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_module_imports_itself_back() -> None:
    graph = grimp.build_graph(*PACKAGES)
    imports = {module: {target for target in graph.find_modules_directly_imported_by(module)
                        if target.split(".")[0] in PACKAGES}
               for module in graph.modules if module.split(".")[0] in PACKAGES}
    loops = cycles(imports)
    described = []
    for loop in loops:
        members = set(loop)
        edges = sorted(f"{a} -> {b}" for a in loop for b in imports[a] if b in members)
        described.append(", ".join(edges))
    assert not loops, "import cycles: " + "; ".join(described)
