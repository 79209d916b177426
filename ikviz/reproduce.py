"""The registry of paper reproductions behind ``ikviz reproduce``.

Each entry ties an experiment (``Params`` -> ``run`` -> result) to its plot
builder and to the paper figure it reproduces. ``reproduce`` writes the
numbers as JSON and the figures as one standalone HTML file.
"""

from __future__ import annotations

import dataclasses
import json
import math
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import numpy as np


@dataclass(frozen=True)
class Entry:
    """One registered reproduction."""

    name: str
    source: str                      # the paper figure or table it reproduces
    description: str
    params: type                     # frozen dataclass of parameters
    run: Callable[[Any], Any]
    figures: Callable[[Any], list]   # result -> Plotly figures
    numbers: Callable[[Any], dict]   # result -> the JSON payload
    quick: dict = dataclasses.field(default_factory=dict)  # overrides for --quick


def _kernel_shapes() -> Entry:
    from .experiments import kernel_shapes as exp
    from .plots import kernel_shapes as plots

    def numbers(result):
        return {"summary": exp.summary(result), "axis": result.axis, "surfaces": result.surfaces,
                "sharpness": result.sharpness}

    return Entry("kernel-shapes", "ting2018 Fig. 1, Fig. 3",
                 "IK (Voronoi, iForest), L_psi and RBF contours on uniform 2-D data; sharpness vs psi",
                 exp.Params, exp.run, plots.figures, numbers,
                 quick={"n": 1100, "t": 100, "grid": 41})


# name -> factory; factories import lazily so `ikviz --help` stays fast
_FACTORIES: dict[str, Callable[[], Entry]] = {"kernel-shapes": _kernel_shapes}


def names() -> list[str]:
    """Registered experiment names."""
    return list(_FACTORIES)


def get(name: str) -> Entry:
    """The registry entry for ``name``; ``ValueError`` listing the choices if unknown."""
    if name not in _FACTORIES:
        raise ValueError(f"unknown experiment {name!r}; choose one of: {', '.join(names())}.")
    return _FACTORIES[name]()


def to_jsonable(obj):
    """Convert results (dataclasses, arrays, dicts with non-string keys, NaN) to JSON-ready values."""
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: to_jsonable(getattr(obj, f.name)) for f in dataclasses.fields(obj)}
    if isinstance(obj, dict):
        return {str(k): to_jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [to_jsonable(v) for v in obj]
    if isinstance(obj, np.ndarray):
        return to_jsonable(obj.tolist())
    if isinstance(obj, np.generic):
        return to_jsonable(obj.item())
    if isinstance(obj, float) and not math.isfinite(obj):
        return None
    return obj


def reproduce(name: str, out_dir: str | Path, quick: bool = False, **overrides) -> dict[str, Path]:
    """Run experiment ``name`` and write ``NAME.json`` and ``NAME.html`` into ``out_dir``."""
    entry = get(name)
    params = entry.params(**{**(entry.quick if quick else {}), **overrides})
    start = time.perf_counter()
    result = entry.run(params)
    seconds = time.perf_counter() - start
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    payload = {"experiment": name, "source": entry.source, "quick": quick, "seconds": seconds,
               "params": dataclasses.asdict(params), **entry.numbers(result)}
    json_path = out / f"{name}.json"
    json_path.write_text(json.dumps(to_jsonable(payload), indent=1))
    html_path = out / f"{name}.html"
    parts = [f"<h1>{name}</h1><p>{entry.description} — reproduces {entry.source}.</p>"]
    for i, fig in enumerate(entry.figures(result)):
        parts.append(fig.to_html(full_html=False, include_plotlyjs=(i == 0)))
    html_path.write_text("<!DOCTYPE html><html><head><meta charset='utf-8'>"
                         f"<title>ikviz · {name}</title></head><body>{''.join(parts)}</body></html>")
    return {"json": json_path, "html": html_path}
