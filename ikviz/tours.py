"""Guided tours of the four papers: a lecture as a list of app links, one step at a time.

A :class:`Tour` is a paper's argument told through the app's pages: each
:class:`Step` names a page (its URL path), the URL values that set it up, a
title and two or three sentences to say, the one control the lecturer moves
(kept visible in presentation mode), the paper's number with its table or
figure, and the id of the claim in :mod:`ikviz.claims` that checks it, so that
the app can show ikviz's live number beside the paper's.

Every tour opens with the same step, how Isolation Kernel is built. The
values are ones the pages accept (``tests/test_tours.py`` opens every step),
and every step's own settings compute in well under half a minute on two
cores; the papers' heavy settings stay one slider away.

No Streamlit here: ``app/prepare.py`` computes every step ahead from
:func:`step_url`, and ``app/tour.py`` draws the bar.

Examples
--------
>>> from ikviz.tours import TOURS, step_url
>>> TOURS["ting2018"].steps[0].page
'how-ik-is-built'
>>> step_url("ting2018", 1).endswith("&fig=3&figs=3%2C5%2C6&tour=ting2018&step=1&present=1")
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from urllib.parse import parse_qsl, urlencode, urlsplit

__all__ = ["PRESENT_KEY", "STEP_KEY", "TOURS", "TOUR_KEY", "Step", "Tour", "find_step", "parse_step", "step_url"]

#: URL keys: presentation mode (the same key as ``app/ui.py``'s ``PRESENT_KEY``), the tour and its step
PRESENT_KEY, TOUR_KEY, STEP_KEY = "present", "tour", "step"


@dataclass(frozen=True)
class Step:
    """One step of a tour: a page's view with its settings, what to say, and the paper's number.

    ``settings`` are values of the view's ``Params`` fields (see
    :mod:`ikviz.views` and :mod:`ikviz.params`), by field name: the step's
    view is ``run(params)`` exactly, and its link is written from ``params``.
    ``section`` names the page's view (None: its first); ``fig`` the figure
    presentation mode shows first (see ``app/figures.py``); ``move`` is the
    field the lecturer moves; ``published`` the paper's number with its table
    or figure (None when the step shows no number); ``claim`` the key of the
    matching claim of :mod:`ikviz.claims`, if any. A page that is not in
    :mod:`ikviz.views` takes ``settings`` as link values.

    ikviz's own number is never typed: :meth:`number` fills ``says``, a
    template, from the result the page draws (``{r.…}`` the view's result,
    ``{t[name][column]}`` the row of its table for that kernel or method), or,
    without a template, gives the claim's own check of that result where the
    view computes the claim's reproduction (the Claims row's text at the
    settings the page shows).

    Examples
    --------
    >>> from ikviz.tours import TOURS
    >>> step = TOURS["ting2018"].steps[1]
    >>> step.page, step.control, step.params["psi"], step.params["fig"]
    ('kernel-shapes', 'psi', '16', '3')
    """

    page: str
    settings: dict = field(default_factory=dict)
    title: str = ""
    text: str = ""
    move: str | None = None
    published: str | None = None
    claim: str | None = None
    section: str | None = None
    fig: int | None = None
    says: str | None = None
    figs: tuple = ()  # the figures a step compares, side by side in presentation mode (``figs=3,5,6``)

    def number(self, result, params=None) -> str | None:
        """ikviz's number at this step, from ``result``: the step's view computed at ``params`` (the page's
        settings; the step's own by default). None when the step has no number to say.

        Examples
        --------
        >>> from types import SimpleNamespace
        >>> step = Step("density", says="IK {r.pairs[ik][sparse]:.2f} vs {r.pairs[ik][dense]:.2f}")
        >>> step.number(SimpleNamespace(pairs={"ik": {"sparse": 0.382, "dense": 0.294}}))
        'IK 0.38 vs 0.29'
        """
        if self.says:
            table = result.table() if callable(getattr(result, "table", None)) else []
            rows = {row.get("kernel", row.get("method")): row for row in table if isinstance(row, dict)}
            return self.says.format(r=result, t=rows)
        row = self.row(result, params)
        return None if row is None else row.ikviz

    def row(self, result, params=None):
        """The step's claim checked on ``result`` (its :class:`ikviz.claims.Row`), where the step's view is the
        claim's reproduction; else None."""
        from . import claims, reproduce

        claim = next((c for c in claims.CLAIMS if c.key == self.claim), None)
        run, own = self.run_params()
        if claim is None or run is None or not claim.reproduction or reproduce.get(claim.reproduction).run is not run:
            return None
        numbers = reproduce.numbers_of(run, own if params is None else params, result, quick=True)
        return next((r for r in claims.rows_for(numbers) if r.key == claim.key), None) if numbers else None

    def view(self):
        """The :class:`ikviz.views.View` the step shows (None for a page outside :mod:`ikviz.views`)."""
        from . import views

        return views.view_of(self.page, self.section) if self.page in views.PAGES else None

    def run_params(self):
        """``(run, params)``: the step's view, computed exactly as the page computes it (None, None off the registry)."""
        view = self.view()
        return (None, None) if view is None else (view.run, view.params(**self.settings))

    @property
    def params(self) -> dict[str, str]:
        """The step's link values: its section, every setting of its view (so that values a viewer set before
        do not carry over into the step), its figure."""
        from . import views
        from .params import to_query, to_url

        run, params = self.run_params()
        values = ({k: to_url(v) for k, v in self.settings.items()} if params is None
                  else to_query(params, every=True))
        return {**({views.SECTION_KEY: self.section} if self.section else {}), **values,
                **({"fig": str(self.fig)} if self.fig is not None else {}),
                **({"figs": ",".join(map(str, self.figs))} if self.figs else {})}

    @property
    def control(self) -> str | None:
        """The link key of the control the lecturer moves (kept visible in presentation mode)."""
        from .params import field_of_name

        view = self.view()
        spec = field_of_name(view.params, self.move) if view is not None and self.move else None
        return spec.url if spec is not None else self.move


@dataclass(frozen=True)
class Tour:
    """A paper's guided tour: ``name`` is the URL value, ``paper`` the paper's key in :mod:`ikviz.claims`.

    Examples
    --------
    >>> from ikviz.tours import TOURS
    >>> tour = TOURS["ting2021"]
    >>> tour.paper, tour.steps[0].page
    ('ting2021', 'how-ik-is-built')
    """

    name: str
    paper: str
    title: str
    steps: tuple[Step, ...]


def _built(method: str, why: str) -> Step:
    """The opening step of every tour: how IK is built, with the paper's partitioning."""
    return Step(
        "how-ik-is-built", {"method": method, "psi": 16, "t": 20},
        "How Isolation Kernel is built",
        "Draw ψ points from the data, cut the plane into ψ cells around them, and repeat t times: the "
        "similarity of two points is the fraction of the t partitionings in which they share a cell. "
        f"{why} Press ▶ and watch the contour emerge as the partitionings add up.",
        move="t")


#: ikviz's number in an online-learning step: each learner's final mistake rate, from the step's result
_MISTAKES = ("final mistake rate: FOGD {t[FOGD][mistake rate]:.1%}, NOGD {t[NOGD][mistake rate]:.1%}, "
             "IK + OGD {t[IK+OGD][mistake rate]:.1%}")


TOURS: dict[str, Tour] = {t.name: t for t in (
    Tour("ting2018", "ting2018", "Isolation Kernel and its effect on SVM (Ting et al. 2018)", (
        _built("iforest", "Ting and colleagues (2018) cut with isolation trees, grown to height log₂ ψ."),
        Step("kernel-shapes", {"psi": 16}, "Kernel shapes: IK looks like a Laplacian",
             "On uniform data IK's contours are diamonds, like the Laplacian L_ψ and unlike the round RBF. "
             "Raise ψ: smaller cells, so IK falls off faster with distance.",
             move="psi", published="Fig. 3: contours become sharper as ψ increases (figure only)",
             claim="ting2018-fig3", fig=3, figs=(3, 5, 6)),  # IK (iForest), L_ψ, RBF
        Step("density", {"psi": 32, "t": 500},
             "Density adaptivity: sparse pairs are more similar",
             "Four quadrants of different density. The pairs S and D are equally far apart, yet IK rates the "
             "sparse pair S more similar than the dense pair D; L_ψ and RBF cannot tell them apart. Raise ψ and "
             "the difference shrinks.",
             move="psi", published="Fig. 4(a)–(b): IK higher at the sparse pair than at the dense pair; "
                                   "Laplacian equal (figure only)", claim="ting2018-fig4",
             section="Four quadrants", fig=6,
             says="IK (iForest) {r.pairs[ik_iforest][sparse]:.3f} at the sparse pair vs "
                  "{r.pairs[ik_iforest][dense]:.3f} at the dense pair; L_ψ {r.pairs[laplacian_psi][sparse]:.3f} vs "
                  "{r.pairs[laplacian_psi][dense]:.3f}"),
        Step("density", {"t": 200}, "IK ≈ L_ψ on uniform data",
             "Breiman's analysis of completely random trees says IK built with iForest approximates the "
             "Laplacian L_ψ. Compute the grid: RMSE between IK and L_ψ for d from 10 to 50 and ψ from 16 to 256.",
             move="t", published="Fig. 2: RMSE(IK, L_ψ) small for all ψ and d (figure only)",
             claim="ting2018-fig2", section="IK ≈ Laplacian (Fig. 2)"),
        Step("classification", {"dataset": "density-ratio", "ratio": 10, "tuning": "fixed", "psi": 16, "gamma": 1.0},
             "SVM on data of two densities",
             "A dense class inside a sparse one. IK's cells are small where data are dense, so the dense class "
             "spills less into the sparse one: a lower false-positive rate than RBF and Laplacian. Move the "
             "density ratio; switch parameters to 5-fold CV for the paper's protocol.",
             move="ratio", published="Table 1 (data_10): FPR IK .064, Laplacian .070, RBF .082",
             claim="ting2018-table1", section="SVM", figs=(1, 2, 3),  # RBF, Laplacian, IK: the FPRs it compares
             says="FPR IK {t[ik][FPR]:.4f}, Laplacian {t[laplacian][FPR]:.4f}, RBF {t[rbf][FPR]:.4f}"),
    )),
    Tour("ting2021", "ting2021", "Breaking the curse of dimensionality with Isolation Kernel (Ting et al. 2021)", (
        _built("anne", "Ting and colleagues (2021) use Voronoi cells around the ψ points (aNNE)."),
        Step("curse-of-dimensionality", {"d_max": 1000},
             "Instability of the nearest neighbour",
             "N_eps counts the points almost as near as the nearest neighbour. As d grows, Gaussian-type "
             "measures see every point about equally far, so N_eps explodes; IK keeps telling points apart. "
             "Move ε: the paper's 0.005 hides what 0.05 shows.",
             move="eps", published="Fig. 1(c)–(d), Table 1: GK's N_eps grows with d, IK's stays small "
                                   "(figure only)", claim="ting2021-fig1-neps", section="instability", fig=3),
        Step("curse-of-dimensionality", {"d3": 100}, "Hubness",
             "O_k counts how often a point is among the others' k nearest neighbours. In high dimensions a few "
             "points become everyone's neighbour under the Gaussian kernel; under IK much less so. Raise d in the "
             "third panel.",
             move="d3", published="App. E, Fig. 5: GK's O_5 skews with d, IK's less (figure only)",
             claim="ting2021-appE", section="hubness"),
        Step("curse-of-dimensionality", {"n_max": 1000}, "Indexing",
             "Exact 5-nearest-neighbour search, brute force against a ball tree, on the points and on IK's "
             "feature map. On IK's sparse map scikit-learn's ball tree quietly runs brute force.",
             move="n_max", published="Table 2 (Ijcnn1): IK brute 706 s, ball tree 654 s (ratio 0.93)",
             claim="ting2021-table2", section="indexing"),
        Step("tsne", {"dataset": "w-gaussians", "w": 100, "n_per_cluster": 250}, "t-SNE with IK affinities",
             "Two w-dimensional Gaussian clusters that share only the origin. With Gaussian affinities t-SNE "
             "merges them as w grows; with IK it keeps them apart. Raise w towards the paper's 5,000.",
             move="w", published="Table 5 (w = 5,000): GK mixes the clusters, IK separates them (figure only)",
             claim="ting2021-table5", figs=(1, 2),  # GK's embedding beside IK's
             says="5-NN accuracy at w = {r.params.w}: GK {r.embeddings[gk].scores[knn_accuracy]:.3f}, "
                  "IK {r.embeddings[ik].scores[knn_accuracy]:.3f}"),
        Step("clustering", {"dataset": "w-gaussians", "w": 1, "algorithm": "spectral"}, "Spectral clustering",
             "The same two clusters at w = 1: two lines crossing at the origin. Spectral clustering with the "
             "Gaussian or adaptive Gaussian kernel cuts them wrongly; with IK it recovers them. Raise w.",
             move="w", published="Fig. 2 (w = 1): SC AMI IK .91, AG .29", claim="ting2021-fig2",
             figs=(2, 3, 4),  # the clusters found with iForest IK, GK and AG, side by side
             says="spectral clustering AMI at w = {r.params.w}: iForest IK {r.evaluations[ik_iforest].ami:.3f}, "
                  "AG {r.evaluations[ag].ami:.3f}, GK {r.evaluations[gk].ami:.3f}"),
    )),
    Tour("lu2016", "lu2016", "Online kernel learning: FOGD and NOGD against IK + OGD (Lu et al. 2016)", (
        _built("anne", "Its sparse feature map gives a linear online learner a kernel."),
        Step("classification", {"dataset": "german", "n": 2000},
             "Online learning on german",
             "One pass over a stream: each example is predicted before its label "
             "is used. FOGD uses random Fourier features, NOGD a Nyström map of a budget of support vectors, "
             "IK + OGD the Isolation Kernel's feature map.",
             move="dataset", published="Table 5 (german): mistake rate FOGD 29.9 ± 0.7%, NOGD 30.4 ± 0.8%",
             claim="lu2016-table5-german", section="Online learning",
             says=_MISTAKES),
        Step("classification", {"dataset": "spambase", "n": 5000, "D": 400},
             "Online learning on spambase",
             "The same on spambase. Move D, FOGD's number of Fourier components: more "
             "components, a better approximation of the Gaussian kernel, and a slower learner.",
             move="D", published="Table 5 (spambase): mistake rate FOGD 26.9 ± 1.0%, NOGD 29.1 ± 0.4%",
             claim="lu2016-table5-spambase", section="Online learning",
             says=_MISTAKES),
        Step("classification", {"dataset": "a9a", "n": 10000, "psi": 64},
             "Online learning on a9a",
             "A larger stream (the paper: 48,842 rows; raise the stream length). Move ψ: the sharpness of IK's "
             "feature map, and the number of features per partitioning.",
             move="psi", published="Table 5 (a9a): mistake rate FOGD 17.4 ± 0.1%, NOGD 17.4 ± 0.2%",
             claim="lu2016-table5-a9a", section="Online learning",
             says=_MISTAKES),
    )),
    Tour("wang2017", "wang2017", "RandLocal: random local features (Wang et al. 2017)", (
        _built("anne", "RandLocal (Wang and colleagues, 2017) builds features from the same kind of local random cells."),
        Step("classification", {"dataset": "ijcnn1-10k", "n": 10000, "n_sets": 100},
             "RandLocal features for an online learner",
             "RandLocal + OGD learns on features from T sets of random anchors, "
             "each point coded by its nearest anchor: close to IK's Voronoi map. Move T.",
             move="n_sets", published="Table 3 (IJCNN): Micro-F1 RAW 92.08, RBF 97.06, RandLocal 98.84",
             claim="wang2017-table3", section="Online learning",
             says="final mistake rate: RandLocal + OGD {t[RandLocal+OGD][mistake rate]:.1%}, "
                  "IK + OGD {t[IK+OGD][mistake rate]:.1%}, FOGD {t[FOGD][mistake rate]:.1%}"),
        Step("clustering", {"dataset": "digits", "algorithm": "kmeans", "max_points": 1000},
             "k-means on RandLocal features",
             "k-means on the raw digits, on IK's feature map and on RandLocal's. The paper's MNIST is not "
             "shipped; scikit-learn's 8×8 digits stand in. Move the number of points.",
             move="max_points", published="Tables 5–6 (MNIST): ACC RAW .4642, RandLocal .6872",
             claim="wang2017-tables5-6", figs=(2, 3, 4),  # k-means on raw, IK and RandLocal features, side by side
             says="k-means NMI: raw features {r.evaluations[raw].nmi:.3f}, "
                  "RandLocal {r.evaluations[randlocal].nmi:.3f}, "
                  "iForest IK {r.evaluations[ik_iforest].nmi:.3f}"),
    )),
)}


def step_url(name: str, i: int, *, present: bool = True) -> str:
    """The relative link of step ``i`` (0-based) of tour ``name``: its page, its values, the tour and step.

    ``present=False`` leaves presentation mode off (the link for the class, who explore the controls).

    Examples
    --------
    >>> step_url("ting2018", 1, present=False)[:40]
    'kernel-shapes?psi=16&t=200&gamma=1.0&ref'
    """
    tour = TOURS[name]
    if not 0 <= int(i) < len(tour.steps):
        raise ValueError(f"tour {name!r} has steps 0 to {len(tour.steps) - 1}; got {i!r}.")
    step = tour.steps[int(i)]
    query = {**step.params, TOUR_KEY: name, STEP_KEY: str(int(i))}
    if present:
        query[PRESENT_KEY] = "1"
    return f"{step.page}?{urlencode(query)}"


def parse_step(url: str) -> tuple[str, dict]:
    """``(page, query values)`` of a relative step link (the inverse of :func:`step_url`).

    Examples
    --------
    >>> parse_step(step_url("ting2021", 4))[1]["w"]
    '100'
    """
    parts = urlsplit(url)
    return parts.path.strip("/"), dict(parse_qsl(parts.query))


def find_step(query: dict) -> tuple[Tour, int] | None:
    """The tour and step index a page's URL values name, or None when they name none (or a wrong one).

    Examples
    --------
    >>> tour, i = find_step({"tour": "ting2021", "step": "2"})
    >>> tour.name, i
    ('ting2021', 2)
    >>> find_step({"tour": "ting2021", "step": "99"}) is None
    True
    """
    tour = TOURS.get(str(query.get(TOUR_KEY, "")))
    try:
        i = int(str(query.get(STEP_KEY, "")))
    except ValueError:
        return None
    if tour is None or not 0 <= i < len(tour.steps):
        return None
    return tour, i
