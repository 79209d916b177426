"""Sphinx configuration of the ikviz API reference.

Build it with ``python -m sphinx -W -b html docs docs/_build/html`` (``-W``:
any warning fails the build). Docstrings are numpydoc; every public name of
the packages listed in ``api.rst`` gets its own page (autosummary), and the
build fails when a name in a package's ``__all__`` is missing from
``api.rst`` or when a public function or class of the modules checked below
has no ``Examples`` section.
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import ikviz

project = "ikviz"
author = "the ikviz authors"
copyright = "the ikviz authors"  # noqa: A001 - Sphinx's name
release = version = ikviz.__version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "numpydoc",
]

exclude_patterns = ["_build", "**/__pycache__"]
html_theme = "alabaster"
html_static_path: list[str] = []

# one page per public object, generated from api.rst at every build
autosummary_generate = True
autosummary_imported_members = False
autodoc_default_options = {"members": True}
autodoc_typehints = "none"  # the numpydoc Parameters sections already give the types
autoclass_content = "class"

# numpydoc: the docstrings list their own Attributes; no automatic member tables (they would
# duplicate the autodoc members and need a page per inherited scikit-learn method)
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_attributes_as_param_list = True
numpydoc_xref_param_type = False

# every public function and class needs an Examples section (EX01) and a summary (SS01); methods and
# properties are exempt. Names whose owners have not written their examples yet are listed in
# PENDING_EXAMPLES: remove a name from it once its docstring has Examples.
numpydoc_validation_checks = {"EX01", "SS01"}
PENDING_EXAMPLES: set[str] = set()
numpydoc_validation_exclude = {r"\.[A-Z]\w*\.\w+$", r"\.__init__$", *PENDING_EXAMPLES}

#: the packages whose __all__ api.rst must cover
PACKAGES = ("kernels", "features", "learn", "clustering", "embedding", "measures", "data", "scale")


def _missing_from_api() -> list[str]:
    listed, package = set(), None
    for line in (Path(__file__).parent / "api.rst").read_text(encoding="utf-8").splitlines():
        found = re.match(r"\.\. automodule:: (ikviz\.\w+)", line)
        if found:
            package = found.group(1)
        elif package and re.fullmatch(r"   \w+", line):
            listed.add(f"{package}.{line.strip()}")
    missing = []
    for package in PACKAGES:
        module = importlib.import_module(f"ikviz.{package}")
        for name in getattr(module, "__all__", ()):
            if callable(getattr(module, name)) and f"ikviz.{package}.{name}" not in listed:
                missing.append(f"ikviz.{package}.{name}")
    return missing


def _check_api(app):
    from sphinx.util import logging

    for name in _missing_from_api():
        logging.getLogger("ikviz.docs").warning(f"{name} is public (in __all__) but not listed in docs/api.rst")


# ---------------------------------------------------------------- docstring conventions
# The docstrings follow scikit-learn's habits, which plain reST misreads: fitted attributes end
# with an underscore (``psi_``: reST takes ``name_`` for a hyperlink reference) and norms are
# written with bars (``||x||``: reST takes ``|x|`` for a substitution). After numpydoc has
# turned a docstring into reST, such words outside inline markup, literal and doctest blocks are
# quoted as literals.
_INLINE = re.compile(r"(``.+?``|:\w+:`[^`]*`|`[^`]*`_{0,2}|\*\*.+?\*\*|\*[^*\s][^*]*\*)")
_TRAILING_UNDERSCORE = re.compile(r"(?<![\w`*|.])([A-Za-z][\w.]*_)(?![\w`])")
_BARS = re.compile(r"(?<![\w`])(\S*\|[^|\s][^|]*\|\S*)")


def _quote(text: str) -> str:
    parts = _INLINE.split(text)
    for i in range(0, len(parts), 2):  # even parts lie outside inline markup
        part = _TRAILING_UNDERSCORE.sub(r"``\1``", parts[i])
        parts[i] = _BARS.sub(lambda m: "``" + m.group(1) + "``" if "``" not in m.group(1) else m.group(1), part)
    return "".join(parts)


def _quote_docstring(app, what, name, obj, options, lines):
    literal_indent = None  # inside a literal block (after "::") or a doctest block
    for i, line in enumerate(lines):
        stripped = line.lstrip()
        indent = len(line) - len(stripped)
        if literal_indent is not None:
            if not stripped or indent > literal_indent:
                continue
            literal_indent = None
        if stripped.startswith(">>>"):
            literal_indent = indent - 1  # until the next blank line at most this indented
            continue
        lines[i] = _quote(line)
        if stripped.endswith("::"):
            literal_indent = indent


def _own_members_only(app, what, name, obj, skip, options):
    """Skip members defined outside ikviz (scikit-learn's score, set_*_request...): their docstrings
    point at scikit-learn's own documentation and have their own pages there."""
    module = getattr(obj, "__module__", None) or ""
    if callable(obj) and module and not module.startswith("ikviz") and name != "__init__":
        return True
    return None


def setup(app):
    app.connect("builder-inited", _check_api)
    app.connect("autodoc-process-docstring", _quote_docstring, priority=600)  # after numpydoc (500)
    app.connect("autodoc-skip-member", _own_members_only)
