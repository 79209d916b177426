"""The one place ikviz touches scikit-learn's private API.

scikit-learn declares and checks estimator parameters with private helpers
(``sklearn.base._fit_context``, ``sklearn.utils._param_validation``) that its
own estimators use but that may change in any release without a deprecation.
ikviz uses them for the same job, declared once per estimator in
``_parameter_constraints`` (or once per function in ``@validate_params``),
because they give the exact messages scikit-learn's estimator checks expect.

Every other module imports them from here, never from scikit-learn, and
``tests/test_sklearn_private.py`` exercises each name as ikviz relies on it,
so that a scikit-learn release that changes one fails that test first, with
this file the only one to adapt. Everything else (``check_array``,
``check_is_fitted``, ``validate_data``, ``check_random_state``...) is public
scikit-learn API and is imported from scikit-learn directly.

Names
-----
fit_context
    Decorator of ``fit`` / ``partial_fit`` / ``fit_transform``: checks the
    estimator's parameters against its ``_parameter_constraints`` before the
    method runs (``sklearn.base._fit_context``).
validate_params
    Decorator of a function: checks its arguments against a constraints dict.
Interval, StrOptions, HasMethods
    Constraint types used in those dicts.
Hidden
    Wraps a constraint that is accepted but not advertised in messages (the
    ``"deprecated"`` default of a renamed parameter).
InvalidParameterError
    The error both raise (a subclass of ``ValueError`` and ``TypeError``).
"""

from __future__ import annotations

from sklearn.base import _fit_context as fit_context
from sklearn.utils._param_validation import (HasMethods, Hidden, Interval, InvalidParameterError, StrOptions,
                                            validate_params)

__all__ = ["HasMethods", "Hidden", "Interval", "InvalidParameterError", "StrOptions", "fit_context", "validate_params"]
