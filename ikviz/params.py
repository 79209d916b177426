"""A view's settings, said once: each field of an experiment's ``Params`` carries its control.

Every experiment describes one view with a frozen dataclass ``Params``
(see :mod:`ikviz.runner`). A field declared with :func:`setting` carries,
beside its default, everything the app and the tools need to know about it:
the label and help of its control, its choices or its range and step, and
its key in a link. The page draws its controls from the class
(``ui.controls(exp.Params)``), links and guided tours are written from an
instance (:func:`to_query`) and read back into one (:func:`from_query`),
``app/prepare.py`` enumerates the views one press away from a tour step
(:func:`nearby`), and an export's snippet recomputes ``run(params)``: no
default, option list or label is written a second time anywhere.

A plain field (no :func:`setting`) is not a control: it keeps its default
in the app and in links (a contour grid's resolution, a paper's fixed
protocol), and a script may still set it.

Convention for a new view (one experiments module, one plots module and
one line in :data:`ikviz.reproduce`'s registry)::

    @dataclass(frozen=True)
    class Params:
        psi: int = setting(64, "ψ (points per partitioning)", choices=(8, 16, 32, 64, 128),
                           help="Cells per partitioning: larger ψ, a sharper kernel.")
        ref_x: float = setting(0.0, "reference x", low=-1.0, high=1.0, step=0.05)
        seed: int = setting(0, "seed", low=0, high=10_000)
        grid: int = 81          # not a control

Examples
--------
>>> from dataclasses import dataclass
>>> from ikviz.params import from_query, nearby, setting, settings, to_query
>>> @dataclass(frozen=True)
... class Params:
...     psi: int = setting(16, "ψ", choices=(4, 16, 64))
...     ref_x: float = setting(0.0, "reference x", low=-1.0, high=1.0, step=0.5)
...     grid: int = 50
>>> [s.name for s in settings(Params)]
['psi', 'ref_x']
>>> to_query(Params(psi=64))
{'psi': '64'}
>>> from_query(Params, {"psi": "70", "ref_x": "0.5"})
(Params(psi=64, ref_x=0.5, grid=50), ['`psi=70` → `psi=64` (not one of the choices)'])
>>> [p.psi for p in nearby(Params(), "psi")]
[4, 64]
"""

from __future__ import annotations

import dataclasses
import math
import numbers
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["Setting", "dataset_format", "field_of", "field_of_name", "from_query", "hidden", "nearby", "parse", "setting", "settings", "to_query", "to_url"]

_KEY = "ikviz"
_TRUE, _FALSE = ("1", "true", "yes", "on"), ("0", "false", "no", "off")
# Streamlit's number widgets refuse integers beyond JavaScript's safe range
_JS_SAFE_INT = 2 ** 53 - 1


@dataclass(frozen=True)
class Setting:
    """What a control needs to know about one field of a ``Params`` (see :func:`setting`).

    Examples
    --------
    >>> from ikviz.params import Setting
    >>> Setting("psi", 16, "ψ", choices=(4, 16)).url
    'psi'
    """

    name: str
    default: Any
    label: str
    help: str | None = None
    choices: tuple | None = None
    low: float | None = None
    high: float | None = None
    step: float | None = None
    url_key: str | None = None
    widget: str | None = None          # "radio", "selectbox", "select_slider", "slider", "number", "toggle"
    format: Callable | None = None     # how a choice is shown (e.g. a data set's long name)
    group: str | None = None           # settings of one group are drawn together, folded under this title

    @property
    def url(self) -> str:
        """The field's key in a link (its name unless said otherwise)."""
        return self.url_key or self.name


def setting(default, label: str, *, help: str | None = None, choices=None, low=None, high=None, step=None,
            url: str | None = None, widget: str | None = None, format: Callable | None = None,
            group: str | None = None):
    """A dataclass field that is a control: its default and how to show, bound and link it.

    Parameters
    ----------
    default
        The field's default value; its type is the control's type (bool, int, float or str).
    label, help : str
        The control's label and tooltip.
    choices : sequence, optional
        The values a user may pick (numbers: a select slider; words: a list).
    low, high, step : number, optional
        The range and step of a numeric control without choices.
    url : str, optional
        The field's key in a link, when not its name (kept so that old links still open).
    widget : str, optional
        Overrides the widget chosen from the type: ``"radio"``, ``"selectbox"``, ``"number"``, ...
    format : callable, optional
        How a choice is shown, e.g. ``ikviz.data.dataset_label``.
    group : str, optional
        Consecutive settings of one group are drawn together, folded under this title (details most
        viewers leave alone).

    Examples
    --------
    >>> from dataclasses import dataclass, fields
    >>> from ikviz.params import setting
    >>> @dataclass(frozen=True)
    ... class Params:
    ...     t: int = setting(200, "t (partitionings)", choices=(100, 200, 500))
    >>> Params().t, fields(Params)[0].metadata["ikviz"].label
    (200, 't (partitionings)')
    """
    if choices is not None:
        choices = tuple(choices)
        if default not in choices:
            raise ValueError(f"default {default!r} of {label!r} is not one of its choices {choices}")
    spec = Setting("", default, label, help, choices, low, high, step, url, widget, format, group)
    return dataclasses.field(default=default, metadata={_KEY: spec})


def settings(params) -> tuple[Setting, ...]:
    """The controls of a ``Params`` class (or instance), in field order, each named after its field.

    Examples
    --------
    >>> from ikviz.experiments.kernel_shapes import Params
    >>> from ikviz.params import settings
    >>> [s.url for s in settings(Params)][:3]
    ['psi', 't', 'gamma']
    """
    cls = params if isinstance(params, type) else type(params)
    return tuple(dataclasses.replace(f.metadata[_KEY], name=f.name)
                 for f in dataclasses.fields(cls) if _KEY in f.metadata)


def field_of(params, url_key: str) -> Setting | None:
    """The setting of ``params`` whose link key is ``url_key`` (None if it has none).

    Examples
    --------
    >>> from ikviz.experiments.kernel_shapes import Params
    >>> from ikviz.params import field_of
    >>> field_of(Params, "psi").name
    'psi'
    """
    return next((s for s in settings(params) if s.url == url_key), None)


def hidden(params, values: Mapping) -> set[str]:
    """The settings of ``params`` that do not apply, given ``values`` (those decided so far, by name).

    A ``Params`` class says so with a static method ``hidden(values)`` (the
    number of points per cluster does not apply to real data); its controls
    are then not drawn and its link leaves them out.

    Examples
    --------
    >>> from ikviz.experiments.tsne import Params
    >>> from ikviz.params import hidden
    >>> sorted(hidden(Params, {"dataset": "iris"}))
    ['n_per_cluster', 'w']
    """
    cls = params if isinstance(params, type) else type(params)
    rule = getattr(cls, "hidden", None)
    return set(rule(dict(values))) if rule is not None else set()


def dataset_format(own: Mapping[str, str]) -> Callable[[str], str]:
    """How a data set choice is shown: an experiment's own sets (``own``: name -> label) by their label, a
    bundled set as every page shows it (:func:`ikviz.data.dataset_label`).

    Examples
    --------
    >>> from ikviz.params import dataset_format
    >>> show = dataset_format({"gaussians": "Gaussians (Fig. 1 data)"})
    >>> show("gaussians"), show("iris")
    ('Gaussians (Fig. 1 data)', 'iris — Iris (scikit-learn), 150×4')
    """
    def label(name: str) -> str:
        from .data import dataset_label

        return own[name] if name in own else dataset_label(name)

    return label


def field_of_name(params, name: str) -> Setting | None:
    """The setting of ``params`` named ``name`` (None if that field is no setting).

    Examples
    --------
    >>> from ikviz.experiments.tsne import Params
    >>> from ikviz.params import field_of_name
    >>> field_of_name(Params, "n_per_cluster").url
    'n'
    """
    return next((s for s in settings(params) if s.name == name), None)


def to_url(value) -> str:
    """A value as a link writes it (booleans as 1 and 0).

    Examples
    --------
    >>> from ikviz.params import to_url
    >>> to_url(True), to_url(0.5)
    ('1', '0.5')
    """
    if isinstance(value, bool):
        return "1" if value else "0"
    return str(value)


def to_query(params, *, every: bool = False) -> dict[str, str]:
    """The link values of ``params``: those that differ from the defaults (all of them with ``every``).

    Examples
    --------
    >>> from ikviz.experiments.kernel_shapes import Params
    >>> from ikviz.params import to_query
    >>> to_query(Params(psi=16))
    {'psi': '16'}
    """
    skip = hidden(params, dataclasses.asdict(params))
    return {s.url: to_url(getattr(params, s.name)) for s in settings(params)
            if s.name not in skip and (every or getattr(params, s.name) != s.default)}


def from_query(cls, query: Mapping[str, str], **fixed):
    """``cls`` with the values a link gives, corrected where needed; and the corrections, as text.

    A value a control could not hold is corrected as :func:`parse` says;
    ``fixed`` sets fields directly (values the caller knows already).

    Examples
    --------
    >>> from ikviz.experiments.kernel_shapes import Params
    >>> from ikviz.params import from_query
    >>> p, notes = from_query(Params, {"psi": "64", "ref_x": "banana"})
    >>> p.psi, p.ref_x, notes
    (64, 0.0, ['`ref_x=banana` → `ref_x=0.0` (not a number)'])
    """
    values, notes = dict(fixed), []
    for spec in settings(cls):
        raw = query.get(spec.url)
        if raw is None or spec.name in values:
            continue
        values[spec.name], problem = parse(spec, raw)
        if problem:
            notes.append(correction(spec.url, raw, values[spec.name], problem))
    return cls(**values), notes


def correction(url_key: str, raw: str, value, problem: str) -> str:
    """The notice that a link's value ``raw`` became ``value`` (shown as code, kept short and plain)."""
    given = str(raw)[:40].replace("`", "'")
    return f"`{url_key}={given}` → `{url_key}={to_url(value)}` ({problem})"


def nearby(params, name: str) -> list:
    """``params`` with field ``name`` one press away either way: the neighbouring choices, or ± one step.

    Empty for a field with neither (a list of words has no *next* one in a lecturer's hand: a data set).

    Examples
    --------
    >>> from ikviz.experiments.kernel_shapes import Params
    >>> from ikviz.params import nearby
    >>> [p.psi for p in nearby(Params(psi=64), "psi")]
    [32, 128]
    """
    spec = next(s for s in settings(params) if s.name == name)
    value = getattr(params, name)
    if spec.choices is not None:
        if not all(isinstance(c, numbers.Real) for c in spec.choices) or value not in spec.choices:
            return []
        i = spec.choices.index(value)
        values = [spec.choices[j] for j in (i - 1, i + 1) if 0 <= j < len(spec.choices)]
    elif spec.step is not None and isinstance(value, numbers.Real):
        low = -math.inf if spec.low is None else spec.low
        high = math.inf if spec.high is None else spec.high
        values = [type(value)(round(value + d, 10)) for d in (-spec.step, spec.step)]
        values = [v for v in values if low <= v <= high]
    else:
        return []
    return [dataclasses.replace(params, **{name: v}) for v in values]


def parse(spec: Setting, raw: str):
    """Read the link value ``raw`` as a value ``spec``'s control accepts; never raises.

    Returns ``(value, problem)``. ``problem`` is None when ``raw`` is used as
    given, else a few words on why ``value`` differs: a number out of range
    or not finite is clamped to the nearest allowed one, a number that is not
    a choice becomes the nearest choice, and anything with no sensible
    nearest value (``nan``, ``banana``) becomes the default.

    Examples
    --------
    >>> from ikviz.params import Setting, parse
    >>> parse(Setting("t", 200, "t", choices=(100, 200, 500)), "480")
    (500, 'not one of the choices')
    >>> parse(Setting("x", 0.0, "x", low=-1.0, high=1.0), "7")
    (1.0, 'out of range')
    """
    default = spec.default
    if spec.choices is not None:
        return _pick_option(raw, default, list(spec.choices))
    if isinstance(default, bool):  # before int: bool is a subclass of int
        word = raw.strip().lower()
        if word in _TRUE or word in _FALSE:
            return word in _TRUE, None
        return default, "not on or off"
    if isinstance(default, (int, float)):
        return _clamp_number(raw, default, spec.low, spec.high)
    return raw, None


def _number(raw: str) -> float | None:
    """``raw`` as a float (``inf`` and ``nan`` included), or None if it is no number at all."""
    try:
        return float(raw)
    except (TypeError, ValueError):
        return None


def _pick_option(raw: str, default, options: list):
    """The option ``raw`` names, else the nearest numeric option, else ``default`` (see :func:`parse`)."""
    for option in options:
        # old links spelled data set names with underscores (w_gaussians): one naming scheme now
        if str(option) in (raw, raw.replace("_", "-")):
            return option, None
    x = _number(raw)
    numeric = [o for o in options if isinstance(o, numbers.Real) and not isinstance(o, bool)]
    if x is None or math.isnan(x) or not numeric:
        return default, "not one of the choices"
    for option in numeric:
        if option == x:  # "16.0" or "1.6e1" name the option 16 too
            return option, None
    # clamp first so that inf picks the largest option (every option is infinitely far from it)
    x = min(max(x, min(numeric)), max(numeric))
    return min(numeric, key=lambda o: abs(o - x)), "not one of the choices"


def _clamp_number(raw: str, default, min_value, max_value):
    """``raw`` as a number of ``default``'s type within the bounds (see :func:`parse`)."""
    x = _number(raw)
    if x is None or math.isnan(x):
        return default, "not a number"
    low = -math.inf if min_value is None else min_value
    high = math.inf if max_value is None else max_value
    if isinstance(default, int):
        low, high = max(low, -_JS_SAFE_INT), min(high, _JS_SAFE_INT)
    clamped = min(max(x, low), high)
    if math.isinf(clamped):  # inf with no bound on its side: nothing near it to use
        return default, "not a finite number"
    value = round(clamped) if isinstance(default, int) else float(clamped)
    if value == x:
        return value, None
    if not math.isfinite(x):
        return value, "not a finite number"
    if clamped != x:
        return value, "out of range"
    return value, "not a whole number"
