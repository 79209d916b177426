"""The house's layers point down: no import of a higher layer from a lower one, no import cycle.

Every ``import`` of ``ikviz`` in ``ikviz/`` counts, those inside functions too
(a lazy import is still a dependency). ``app/`` sits above all of it.
"""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1] / "ikviz"

#: lowest first; a package may import its own layer's or lower layers' packages only
LAYERS = (
    ("ikviz._validation", "ikviz._sklearn", "ikviz._dask", "ikviz._limits", "ikviz.runner"),
    ("ikviz", "ikviz.kernels"),
    ("ikviz.registry", "ikviz.features", "ikviz.data", "ikviz.store"),
    ("ikviz.measures", "ikviz.learn", "ikviz.clustering", "ikviz.embedding"),
    ("ikviz.scale", "ikviz.params", "ikviz.html", "ikviz.verdicts"),
    ("ikviz.experiments",),
    ("ikviz.plots",),
    ("ikviz.reproduce", "ikviz.views"),
    ("ikviz.export", "ikviz.claims", "ikviz.tours", "ikviz.bench", "ikviz.bench_classification"),
    ("ikviz.cli",),
)
RANK = {group: rank for rank, groups in enumerate(LAYERS) for group in groups}


def _module(path: Path) -> str:
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports() -> dict[str, set[str]]:
    """module -> the ikviz modules (or names in them) it imports, anywhere in its code."""
    found = {}
    for path in ROOT.rglob("*.py"):
        module = _module(path)
        package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
        targets = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                base = package.split(".")[:len(package.split(".")) - node.level + 1] if node.level else []
                target = ".".join(base + ([node.module] if node.module else []))
                if target.startswith("ikviz"):
                    targets |= {target} | {f"{target}.{a.name}" for a in node.names}
            elif isinstance(node, ast.Import):
                targets |= {a.name for a in node.names if a.name.startswith("ikviz")}
        found[module] = targets
    modules = set(found)

    def resolve(name: str) -> str:
        while name not in modules and "." in name:
            name = name.rsplit(".", 1)[0]
        return name

    return {m: {resolve(t) for t in ts} - {m} for m, ts in found.items()}


def _group(module: str) -> str:
    return ".".join(module.split(".")[:2])


GRAPH = _imports()


def test_every_package_has_a_layer():
    assert {_group(m) for m in GRAPH} <= set(RANK), "a new package: give it its place in LAYERS"


@pytest.mark.parametrize("module", sorted(GRAPH))
def test_imports_point_down(module):
    upward = [t for t in GRAPH[module] if RANK[_group(t)] > RANK[_group(module)]]
    assert not upward, f"{module} imports {upward} from a higher layer"


def test_no_import_cycle():
    index, low, stack, on, cycles = {}, {}, [], set(), []

    def visit(v):  # Tarjan's strongly connected components
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in GRAPH.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for v in GRAPH:
        if v not in index:
            visit(v)
    assert not cycles, cycles


def test_the_check_can_fail():
    """An edge from the engine up to the experiments is reported as upward."""
    assert RANK[_group("ikviz.kernels.isolation")] < RANK[_group("ikviz.experiments.density")]
