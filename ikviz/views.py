"""The app's pages and the views each shows: a page path, and per view its ``run`` and its ``Params``.

A view is one computation, ``run(params)``, drawn by one part of a page (a
page with sections shows one view at a time). This registry is what the app,
the guided tours (:mod:`ikviz.tours`) and ``app/prepare.py`` share: a tour
step names a page, a view and the settings that differ from the view's
defaults; preparing a lecture computes each view's ``run(params)`` directly,
from the ``Params`` alone. Experiments are imported when a page is looked up,
not with this module.

Examples
--------
>>> from ikviz.views import page, view_of
>>> page("kernel-shapes").views[0].run.__module__
'ikviz.experiments.kernel_shapes'
>>> view_of("curse-of-dimensionality", "hubness").params.__name__
'HubnessParams'
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["PAGES", "SECTION_KEY", "Page", "View", "page", "view_of"]

#: the link key of a page's section (the view it shows)
SECTION_KEY = "section"


@dataclass(frozen=True)
class View:
    """One view: ``key`` its section's value in a link (None on a page with one view), ``title`` as the page
    offers it, ``run`` its computation and ``params`` the class of its settings.

    Examples
    --------
    >>> from ikviz.views import page
    >>> v = page("tsne").views[0]
    >>> v.key, v.params.__name__
    (None, 'Params')
    """

    key: str | None
    title: str
    run: Callable
    params: type
    shows: tuple[str, ...] | None = None   # the settings its controls show (None: all of ``params``)


@dataclass(frozen=True)
class Page:
    """A page of the app: its URL path and its views, the first one the page opens on.

    Examples
    --------
    >>> from ikviz.views import page
    >>> [v.key for v in page("density").views][:2]
    ['Four quadrants', 'Margin vs ψ']
    """

    path: str
    views: tuple[View, ...]

    def view(self, key: str | None) -> View:
        """The view ``key`` names (the first view for None or a key the page does not have)."""
        return next((v for v in self.views if v.key == key), self.views[0])


# path -> (module, [(section key, title, run name, Params name[, settings shown])]); section key None: a page
# of one view. Views of one page may share a Params class, each showing the settings it uses.
_PAGES: dict[str, tuple[str, tuple]] = {
    "how-ik-is-built": ("build_up", ((None, "How IK is built", "run", "Params"),)),
    "kernel-shapes": ("kernel_shapes", ((None, "Kernel shapes", "run", "Params"),)),
    "density": ("density", (
        ("Four quadrants", "Four quadrants", "run_quadrants", "Params",
         ("psi", "t", "gamma", "seed", "n_dense", "n_medium", "n_sparse", "cells", "ref_x", "ref_y",
          "s1x", "s1y", "s2x", "s2y", "d1x", "d1y", "d2x", "d2y")),
        ("Margin vs ψ", "Margin vs ψ", "run_margins", "Params",
         ("seed", "n_dense", "n_medium", "n_sparse", "s1x", "s1y", "s2x", "s2y", "d1x", "d1y", "d2x", "d2y")),
        ("Similarity vs density", "Similarity vs density", "run_similarity_vs_density", "Params",
         ("psi", "t", "seed", "n_dense", "n_medium", "n_sparse", "pair_distance", "density_k")),
        ("Real data", "Real data", "run_real_data", "Params", ("psi", "t", "gamma", "seed", "dataset", "ref_rx", "ref_ry")),
        ("IK ≈ Laplacian (Fig. 2)", "IK ≈ Laplacian (Fig. 2)", "run_grid", "GridParams"),
        ("Sharpness (Fig. 3)", "Sharpness (Fig. 3)", "run_sharpness", "Params", ("psi", "t", "seed")),
    )),
    "curse-of-dimensionality": ("dimensionality", (
        ("instability", "Instability", "run_instability", "InstabilityParams"),
        ("hubness", "Hubness", "run_hubness", "HubnessParams"),
        ("indexing", "Indexing", "indexing:run", "indexing:Params"),
    )),
    "tsne": ("tsne", ((None, "t-SNE", "run", "Params"),)),
    "classification": ("classification", (
        ("SVM", "SVM", "run", "Params"),
        ("Online learning", "Online learning", "online:run", "online:Params"),
    )),
    "clustering": ("clustering", ((None, "Clustering lab", "run", "Params"),)),
}


def _attribute(module: str, name: str):
    """``name`` of ``ikviz.experiments.<module>`` (``other:name`` reaches into another experiments module)."""
    if ":" in name:
        module, name = name.split(":")
    return getattr(importlib.import_module(f"ikviz.experiments.{module}"), name)


#: every page path that has views (Your data and Claims compute on request and are not listed)
PAGES: tuple[str, ...] = tuple(_PAGES)


def page(path: str) -> Page:
    """The page at URL path ``path`` (e.g. ``"density"``), its experiments imported.

    Examples
    --------
    >>> from ikviz.views import page
    >>> page("kernel-shapes").path
    'kernel-shapes'
    """
    if path not in _PAGES:
        raise ValueError(f"no page {path!r}; pages: {', '.join(PAGES)}")
    module, views = _PAGES[path]  # built on each call: Python holds the imported modules already
    return Page(path, tuple(View(key, title, _attribute(module, run), _attribute(module, params), *shows)
                            for key, title, run, params, *shows in views))


def view_of(path: str, key: str | None = None) -> View:
    """The view ``key`` of page ``path`` (its first view when ``key`` is None).

    Examples
    --------
    >>> from ikviz.views import view_of
    >>> v = view_of("density", "Real data")
    >>> v.run.__name__, v.shows[-1]
    ('run_real_data', 'ref_ry')
    """
    return page(path).view(key)
