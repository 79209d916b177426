"""Learners on kernels and explicit feature maps, as scikit-learn estimators.

Online (one pass, hinge-loss OGD, ``partial_fit`` over chunks of a stream):
:class:`FOGDClassifier`, :class:`NOGDClassifier`, :class:`IKOGDClassifier`,
:class:`RandLocalOGDClassifier`. Kernel SVMs: :class:`KernelGram` (rows to kernel
values for ``SVC(kernel="precomputed")``) and the helpers of :mod:`ikviz.learn.svm`.
"""

from .online import FOGDClassifier, IKOGDClassifier, NOGDClassifier, RandLocalOGDClassifier
from .svm import KernelGram

__all__ = ["FOGDClassifier", "NOGDClassifier", "IKOGDClassifier", "RandLocalOGDClassifier", "KernelGram"]
