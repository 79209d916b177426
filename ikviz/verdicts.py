"""The verdict rules of :mod:`ikviz.claims`, in one place: what makes a paper's claim hold.

A reviewer's rules, each a small function a claim's check combines:

* :func:`direction`: a claim of direction ("beats", "lower", "higher") holds
  only in that direction, by more than a tolerance; at least half the
  paper's own gap is **holds**, less is **holds, smaller**.
* :func:`faster` and :func:`lower`: the same rule for "faster" (a time ratio
  below 1) and "lower" (a rate below the peer's): a slower "faster" fails.
* :func:`faster_repeats`: "faster" from interleaved repeats on a shared
  machine: the median ratio decides, beyond a margin of ``TIME_TOLERANCE``
  plus the repeats' own spread; a median inside that margin is **too close
  to call on this machine** (never "holds"), so load on other cores cannot
  flip "holds" and "does not reproduce".
* :func:`interleaved_seconds` records such repeats (the timed tasks run
  A, B, A, B ... on the same data and fitted state) and :func:`faster_rounds`
  judges one task against its peers round by round; :func:`judged_parts`
  combines such parts as :func:`all_parts` does, keeping each failing part's
  median and margin in the note.
* :func:`all_parts`: a claim made of several parts ("lower than RBF *and*
  Laplacian", "beats RAW and RBF", "at ratio 10 and 20") holds only when
  every part holds; the note names each part that fails.
* :func:`paper_settings`: only the paper's own settings decide a verdict;
  results under other settings are returned apart, to be shown and
  labelled, never counted.
* :func:`readings`: where the paper leaves a deciding detail out (the
  Gaussian bandwidth, the IK variant, the data generator), the verdict under
  each reasonable reading; if they disagree the verdict is **protocol
  unspecified**, and the note names the detail and each reading's verdict.
* **data not available here**: a claim on data this machine cannot obtain
  gets this verdict rather than one from a stand-in (:func:`unavailable`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable

import numpy as np

#: every verdict, best first; the order is the one :func:`all_parts` takes the worst of
VERDICTS = ("holds", "holds, smaller", "protocol unspecified", "too close to call on this machine",
            "does not reproduce", "data not available here")
#: the verdict of a timing whose median lies within its margin of the claim's threshold (see :func:`faster_repeats`)
TOO_CLOSE = "too close to call on this machine"
#: differences smaller than this (in the claim's own unit: accuracy, AMI, rate) count as no difference
TOLERANCE = 0.01
#: a time ratio within this of 1 is no speed-up (timings on a shared machine move by a few per cent)
TIME_TOLERANCE = 0.05
#: interleaved timing rounds (:func:`interleaved_seconds`) at most
TIMING_REPEATS = 5
#: ... and no new round once the rounds so far took this many seconds (a paper-size round of minutes runs once)
TIMING_BUDGET_S = 60.0

_RANK = {v: i for i, v in enumerate(VERDICTS)}


@dataclass(frozen=True)
class Judgement:
    """A verdict and the note that explains it (which part fails, which reading gives what).

    Examples
    --------
    >>> Judgement("holds").note
    ''
    """

    verdict: str
    note: str = ""

    def __post_init__(self):
        check_verdict(self.verdict)


def check_verdict(verdict: str) -> str:
    """``verdict`` if it is one of :data:`VERDICTS`; ``ValueError`` naming them otherwise.

    Examples
    --------
    >>> check_verdict("holds")
    'holds'
    """
    if verdict not in VERDICTS:
        raise ValueError(f"verdict must be one of {VERDICTS}; got {verdict!r}.")
    return verdict


def direction(gap: float, paper_gap: float | None = None, tol: float = TOLERANCE) -> str:
    """Verdict for a claimed advantage ``gap`` (> 0: the paper's direction), against the paper's own gap.

    Parameters
    ----------
    gap : float
        ikviz's advantage in the claim's direction (e.g. IK's accuracy minus the peer's).
    paper_gap : float, optional
        The paper's own advantage; at least half of it is "holds", less is "holds, smaller".
    tol : float
        A gap of at most ``tol`` is no advantage.

    Examples
    --------
    >>> direction(0.30, 0.5), direction(0.1, 0.5), direction(0.0, 0.5), direction(-0.3, 0.5)
    ('holds', 'holds, smaller', 'does not reproduce', 'does not reproduce')
    """
    if gap is None or not np.isfinite(gap) or gap <= tol:
        return "does not reproduce"
    if paper_gap is None or gap >= 0.5 * paper_gap:
        return "holds"
    return "holds, smaller"


def lower(value: float, peer: float, paper_gap: float | None = None, tol: float = TOLERANCE) -> str:
    """Verdict for "``value`` is lower than ``peer``": :func:`direction` of ``peer - value``.

    Examples
    --------
    >>> lower(0.05, 0.08), lower(0.09, 0.08)
    ('holds', 'does not reproduce')
    """
    return direction(peer - value, paper_gap, tol)


def faster(seconds: float, peer_seconds: float, paper_ratio: float | None = None,
           tol: float = TIME_TOLERANCE) -> str:
    """Verdict for "this is faster than its peer": the time ratio must be below ``1 - tol``.

    ``paper_ratio`` is the paper's own ratio (its time over its peer's); a
    speed-up of less than half the paper's is "holds, smaller". A ratio near 1
    (a tie) or above it (slower) never holds.

    Examples
    --------
    >>> faster(50, 100), faster(98, 100), faster(2300, 100)
    ('holds', 'does not reproduce', 'does not reproduce')
    >>> faster(90, 100, paper_ratio=0.5)
    'holds, smaller'
    """
    if not (seconds is not None and peer_seconds and np.isfinite(seconds) and np.isfinite(peer_seconds)):
        return "does not reproduce"
    ratio = float(seconds) / float(peer_seconds)
    return direction(1.0 - ratio, None if paper_ratio is None else 1.0 - paper_ratio, tol)


def faster_repeats(ratios, paper_ratio: float | None = None, tol: float = TIME_TOLERANCE) -> Judgement:
    """Verdict for "faster" from paired, interleaved repeats: each ratio is one repeat's time over its peer's.

    On a shared machine one timing moves with the load on the other cores, so a
    single ratio near the threshold ``1 - tol`` decides by chance. Here the
    median ratio decides, against a margin of ``tol`` plus the repeats' spread
    (half their interquartile range; half their range below four repeats):

    * median below ``1 - tol - spread``: faster, judged by :func:`direction`
      against the paper's ratio at the margin's slow end, ``median + spread``
      (**holds** only when even that is at least half the paper's speed-up,
      else **holds, smaller**: the grade does not flip with the load either);
    * median above ``1 - tol + spread``: **does not reproduce** (a tie or slower);
    * in between: **too close to call on this machine** (never "holds").

    Parameters
    ----------
    ratios : sequence of float
        Time over the peer's time, one per repeat (the two timed alternately).
    paper_ratio : float, optional
        The paper's own ratio; a speed-up under half the paper's is "holds, smaller".
    tol : float
        The smallest speed-up that counts (the threshold is ``1 - tol``).

    Examples
    --------
    >>> faster_repeats([0.50, 0.52, 0.49]).verdict
    'holds'
    >>> faster_repeats([1.01, 0.99, 1.00, 0.98, 1.02]).verdict
    'does not reproduce'
    >>> faster_repeats([0.90, 0.99, 0.94, 0.97, 0.92]).verdict
    'too close to call on this machine'
    >>> faster_repeats([0.45, 0.50, 0.55], paper_ratio=0.1).verdict   # 0.50 + 0.05 is under half 0.9's speed-up
    'holds, smaller'
    >>> faster_repeats([0.92, 0.94, 0.93]).note
    'median ratio 0.93 over 3 interleaved repeats (0.92-0.94); margin 1 - 0.05 ± 0.01'
    """
    r = np.asarray([float(v) for v in ratios], dtype=float)
    r = r[np.isfinite(r) & (r > 0)]
    if r.size == 0:
        return Judgement("does not reproduce", "no finite timing")
    median = float(np.median(r))
    if r.size >= 4:
        q1, q3 = np.percentile(r, [25, 75])
        spread = float(q3 - q1) / 2
    else:
        spread = float(r.max() - r.min()) / 2
    threshold = 1.0 - tol
    note = (f"median ratio {median:.2f} over {r.size} interleaved repeat{'s' if r.size > 1 else ''} "
            f"({r.min():.2f}-{r.max():.2f}); margin 1 - {tol:g} ± {spread:.2f}")
    if median < threshold - spread:
        return Judgement(direction(1.0 - median - spread, None if paper_ratio is None else 1.0 - paper_ratio, tol),
                         note)
    if median > threshold + spread:
        return Judgement("does not reproduce", note)
    return Judgement(TOO_CLOSE, note)


def all_parts(parts: dict[str, str]) -> Judgement:
    """One verdict for a claim made of several parts: the worst part's, naming every part that fails.

    A part "fails" when its verdict is not "holds" (a "holds, smaller" part
    makes the claim "holds, smaller").

    Examples
    --------
    >>> all_parts({"vs RBF": "holds", "vs Laplacian": "does not reproduce"})
    Judgement(verdict='does not reproduce', note='fails: vs Laplacian (does not reproduce)')
    >>> all_parts({"ACC": "holds", "NMI": "holds"}).verdict
    'holds'
    """
    if not parts:
        raise ValueError("a claim needs at least one part to judge.")
    worst = max(parts.values(), key=lambda v: _RANK[check_verdict(v)])
    failing = [f"{name} ({v})" for name, v in parts.items() if v != "holds"]
    return Judgement(worst, "fails: " + "; ".join(failing) if failing else "")


def stopwatch(fn: Callable, *args, **kwargs) -> float:
    """Seconds ``fn(*args, **kwargs)`` takes (wall clock); its result is dropped.

    Examples
    --------
    >>> stopwatch(sum, range(10)) >= 0.0
    True
    """
    start = time.perf_counter()
    fn(*args, **kwargs)
    return time.perf_counter() - start


def interleaved_seconds(tasks: dict, repeats: int = TIMING_REPEATS, budget_s: float = TIMING_BUDGET_S) -> dict:
    """Each task's seconds over up to ``repeats`` rounds, every task once per round, in alternating order.

    A claim "A is faster than B" timed once each on a shared machine compares
    two moments of the load; timed A, B, A, B ... each round's ratio compares
    the two under the same load, and :func:`faster_rounds` judges the rounds'
    median. Each task returns its own seconds, timing only the part the paper
    times (e.g. ``lambda: stopwatch(model.fit, X, y)``), on data and fitted
    state prepared before the first round. The order reverses every other
    round (A, B, C then C, B, A) so that no task always runs first. Rounds stop
    at ``repeats``, or once the rounds so far took ``budget_s`` seconds (at
    least one round: a paper-size round of minutes runs once).

    Parameters
    ----------
    tasks : dict
        Name -> callable with no arguments returning the seconds it measured.
    repeats : int
        Rounds at most (at least 1).
    budget_s : float
        No new round once the rounds so far took this long.

    Returns
    -------
    dict
        Name -> list of seconds, one per round (the same length for every task).

    Examples
    --------
    >>> got = interleaved_seconds({"A": lambda: 1.0, "B": lambda: 2.0}, repeats=3)
    >>> got
    {'A': [1.0, 1.0, 1.0], 'B': [2.0, 2.0, 2.0]}
    >>> faster_rounds(got, "A", ["B"]).verdict
    'holds'
    """
    if not tasks:
        raise ValueError("interleaved_seconds needs at least one task to time.")
    if repeats < 1:
        raise ValueError(f"repeats must be at least 1; got {repeats}.")
    names = list(tasks)
    out = {name: [] for name in names}
    start = time.perf_counter()
    for r in range(int(repeats)):
        for name in (names if r % 2 == 0 else names[::-1]):
            out[name].append(float(tasks[name]()))
        if time.perf_counter() - start >= budget_s:
            break
    return out


def round_ratios(seconds: dict, name: str, peers) -> list[float]:
    """Per round: ``name``'s seconds over the fastest of ``peers``' seconds in that round.

    Examples
    --------
    >>> round_ratios({"A": [1.0, 2.0], "B": [2.0, 2.0], "C": [4.0, 1.0]}, "A", ["B", "C"])
    [0.5, 2.0]
    """
    peers = list(peers)
    if not peers:
        raise ValueError("round_ratios needs at least one peer.")
    mine = seconds[name]
    rounds = min(len(mine), *(len(seconds[p]) for p in peers))
    out = []
    for i in range(rounds):
        peer = min(float(seconds[p][i]) for p in peers)
        out.append(float(mine[i]) / peer if peer > 0 else float("inf"))
    return out


def faster_rounds(seconds: dict, name: str, peers, paper_ratio: float | None = None,
                  tol: float = TIME_TOLERANCE) -> Judgement:
    """"``name`` is faster than each of ``peers``": :func:`faster_repeats` of the rounds' ratios.

    ``seconds`` is :func:`interleaved_seconds`'s record (name -> seconds per
    round); each round's ratio is ``name``'s time over its fastest peer's in
    that round (:func:`round_ratios`).

    Examples
    --------
    >>> faster_rounds({"A": [1.0, 1.1, 0.9], "B": [2.0, 2.1, 1.9]}, "A", ["B"]).verdict
    'holds'
    >>> faster_rounds({"A": [2.0, 2.2, 1.8], "B": [1.0, 1.1, 0.9]}, "A", ["B"]).verdict
    'does not reproduce'
    >>> faster_rounds({"A": [0.96, 0.92, 0.95, 0.93], "B": [1.0, 1.0, 1.0, 1.0]}, "A", ["B"]).verdict
    'too close to call on this machine'
    """
    return faster_repeats(round_ratios(seconds, name, peers), paper_ratio, tol)


def judged_parts(parts: dict) -> Judgement:
    """:func:`all_parts` of several parts, each a verdict or a :class:`Judgement`; a failing part's note is kept.

    Examples
    --------
    >>> j = judged_parts({"A": "holds", "B": faster_repeats([1.2, 1.3, 1.25])})
    >>> j.verdict
    'does not reproduce'
    >>> for line in j.note.split(" | "):
    ...     print(line)
    fails: B (does not reproduce)
    B: median ratio 1.25 over 3 interleaved repeats (1.20-1.30); margin 1 - 0.05 ± 0.05
    """
    verdicts = {k: v.verdict if isinstance(v, Judgement) else v for k, v in parts.items()}
    judged = all_parts(verdicts)
    notes = [f"{k}: {v.note}" for k, v in parts.items()
             if isinstance(v, Judgement) and v.verdict != "holds" and v.note]
    return Judgement(judged.verdict, " | ".join([judged.note, *notes]) if notes else judged.note)


def _key(setting) -> str:
    try:
        return f"{float(setting):g}"
    except (TypeError, ValueError):
        return str(setting)


def paper_settings(results: dict, allowed) -> tuple[dict, dict]:
    """Split ``results`` (setting -> value) into those under the paper's settings and the others.

    Only the first part may decide a verdict; the second is to be shown,
    labelled as not the paper's, and never counted. Numeric settings compare
    by value (``"30"`` and ``30.0`` are one setting).

    Examples
    --------
    >>> counted, shown = paper_settings({"5": 0.99, "30": 0.5, "800": 0.6}, (5, 20, 40, 800))
    >>> counted, shown
    ({'5': 0.99, '800': 0.6}, {'30': 0.5})
    """
    keep = {_key(a) for a in allowed}
    counted = {k: v for k, v in results.items() if _key(k) in keep}
    shown = {k: v for k, v in results.items() if _key(k) not in keep}
    return counted, shown


def readings(detail: str, verdicts: dict[str, str]) -> Judgement:
    """The verdict when the paper leaves ``detail`` out: the same under every reading, or "protocol unspecified".

    Parameters
    ----------
    detail : str
        What the paper does not give (e.g. "the Gaussian kernel's bandwidth").
    verdicts : dict
        Reading -> the verdict under it.

    Examples
    --------
    >>> readings("the IK variant", {"Voronoi": "does not reproduce", "iForest": "holds"})
    Judgement(verdict='protocol unspecified', note='the paper does not give the IK variant: Voronoi: does not reproduce; iForest: holds')
    >>> readings("the IK variant", {"Voronoi": "holds", "iForest": "holds"}).verdict
    'holds'
    """
    if not verdicts:
        raise ValueError("readings need at least one reading to judge.")
    found = {check_verdict(v) for v in verdicts.values()}
    listing = "; ".join(f"{r}: {v}" for r, v in verdicts.items())
    if len(found) == 1:
        return Judgement(found.pop(), f"the same under every reading of {detail} ({listing})")
    return Judgement("protocol unspecified", f"the paper does not give {detail}: {listing}")


def unavailable(dataset: str, url: str) -> Judgement:
    """The verdict of a claim whose data this machine cannot obtain: no stand-in decides it.

    Examples
    --------
    >>> unavailable("covtype", "https://example.org/covtype").verdict
    'data not available here'
    """
    return Judgement("data not available here", f"{dataset} is not obtainable here (source: {url})")


# ------------------------------------------------------------------ what the rules judge
@dataclass(frozen=True)
class Finding:
    """What ikviz found for one claim: its number (text and headline value), the verdict and why.

    ``note`` says which part fails, or what each reading of an unspecified
    detail gives; ``shown`` holds results under settings the paper did not
    use, labelled, never counted.

    Examples
    --------
    >>> Finding("GK 0.48, IK 1.00", direction(0.52, 0.38), 1.0).verdict
    'holds'
    """

    ikviz: str
    verdict: str
    value: float | None = None
    note: str = ""
    shown: str = ""

    def __post_init__(self):
        check_verdict(self.verdict)

    @classmethod
    def judged(cls, ikviz: str, judgement: Judgement, value: float | None = None, shown: str = "") -> "Finding":
        """A finding from a :class:`ikviz.verdicts.Judgement` (its verdict and note)."""
        return cls(ikviz, judgement.verdict, value, judgement.note, shown)


@dataclass(frozen=True)
class Claim:
    """One claim of a paper and how ikviz tests it.

    ``data`` and ``settings`` say what the row ran: ``data`` is formatted with
    the reproduction's params (``{max_rows}``...), ``settings`` names the
    params stated beside it. A claim on data not obtainable here has no
    reproduction and names the missing set in ``unavailable``.

    Examples
    --------
    >>> from ikviz.claims import CLAIMS
    >>> claim = next(c for c in CLAIMS if c.key == "ting2021-table4")
    >>> claim.paper, claim.reproduction, claim.paper_number
    ('ting2021', 'svm-wgaussians', 'LK .49, IK 1.00, GK .62')
    """

    key: str
    paper: str              # ting2018, ting2021, lu2016, wang2017
    where: str              # table / figure and cell
    statement: str          # the paper's words
    paper_number: str       # the paper's number(s) as printed
    reproduction: str       # the ikviz.reproduce entry that tests it ("" for data not available here)
    check: Callable[[dict], Finding] | None
    condition: str          # the one condition that explains a difference
    page: str               # app page and settings that show it (a relative link)
    data: str = ""          # the data and its size, formatted with the reproduction's params
    settings: tuple[str, ...] = ()   # the params stated in the row
    unavailable: str = ""   # a key of ikviz.data.fetch.UNAVAILABLE: the data is not obtainable here


def fmt(x, digits: int = 2) -> str:
    """``x`` with ``digits`` decimals, "n/a" for None or a non-finite number.

    Examples
    --------
    >>> fmt(0.8467), fmt(None)
    ('0.85', 'n/a')
    """
    return "n/a" if x is None or not np.isfinite(x) else f"{x:.{digits}f}"


def number(numbers: dict, *path):
    """``numbers[path[0]][path[1]]...`` with JSON's string keys; a clear error naming the missing key.

    Examples
    --------
    >>> number({"acc": {"10": 0.9}}, "acc", 10)
    0.9
    """
    node = numbers
    for key in path:
        if not isinstance(node, dict) or str(key) not in node:
            raise KeyError(f"{numbers.get('experiment', 'the reproduction')} has no {'/'.join(map(str, path))}")
        node = node[str(key)]
    return node
