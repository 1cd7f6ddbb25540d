"""No circles of files: the import graph of ``dbdeck`` has no loop.

Every import counts, those under ``TYPE_CHECKING`` and those inside a function
too: a circle a type checker walks is still a circle a reader has to hold in
mind. import-linter leaves type-only imports out of its layers, so this test is
the proof that the layers also hold with them in.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import dbdeck

ROOT = Path(dbdeck.__file__).parent
#: The packages whose files must stand in no circle at all: all of dbdeck.
STRICT = ("dbdeck",)


def module_name(path: Path) -> str:
    """The dotted name of the module at ``path`` under the package root."""
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    """Every module of ``dbdeck``, by dotted name."""
    return {module_name(path): path for path in sorted(ROOT.rglob("*.py"))}


def imported(name: str, path: Path, known: set[str]) -> Iterator[str]:
    """The ``dbdeck`` modules that the module ``name`` imports, at any depth of its code."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield from _nearest(alias.name, known)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base_parts = package.split(".")
                base_parts = base_parts[: len(base_parts) - (node.level - 1)]
                base = ".".join(base_parts + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            for alias in node.names:
                # ``from package import module`` names a module, not a symbol.
                whole = f"{base}.{alias.name}"
                if whole in known:
                    yield whole
                else:
                    yield from _nearest(base, known)


def _nearest(dotted: str, known: set[str]) -> Iterator[str]:
    """The deepest known module that ``dotted`` names or sits inside."""
    parts = dotted.split(".")
    while parts:
        candidate = ".".join(parts)
        if candidate in known:
            yield candidate
            return
        parts.pop()


def graph() -> dict[str, set[str]]:
    """The import graph of ``dbdeck``: each module to the modules it imports.

    Only the imports written down count: ``from a.b.c import X`` is an edge to
    ``a.b.c`` alone, not to the packages ``a`` and ``a.b`` whose ``__init__``
    Python runs first (a package gathering its modules would otherwise stand
    in a circle with each of them); ``from a.b import X`` is an edge to
    ``a.b`` when ``X`` is no module of it.
    """
    found = modules()
    known = set(found)
    edges: dict[str, set[str]] = {name: set() for name in found}
    for name, path in found.items():
        for target in imported(name, path, known):
            if target != name:
                edges[name].add(target)
    return edges


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[list[str]] = []
    counter = 0
    for start in sorted(edges):
        if start in index:
            continue
        work: list[tuple[str, Iterator[str]]] = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            advanced = False
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges[child]))))
                    advanced = True
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component: list[str] = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_the_graph_sees_type_only_and_late_imports() -> None:
    """The graph is built from every import, or the test below proves nothing."""
    edges = graph()
    assert "dbdeck.games.deckbuilding.engine.state" in edges
    assert any(edges.values())


def test_no_file_stands_in_a_circle_of_imports() -> None:
    """No file of dbdeck (the engine, the CCG, the shared layers, the
    screens, the commands) stands in a circle of imports."""
    strict = [
        component
        for component in circles(graph())
        if any(member == p or member.startswith(p + ".") for member in component for p in STRICT)
    ]
    assert strict == [], "\n".join(" -> ".join(component) for component in strict)


if __name__ == "__main__":
    for component in circles(graph()):
        print(len(component), " ".join(component))
