"""Learners on kernels and explicit feature maps, as scikit-learn estimators.

Online (one pass, hinge-loss OGD, ``partial_fit`` over chunks of a stream):
:class:`FOGDClassifier`, :class:`NOGDClassifier`, :class:`IKOGDClassifier`,
:class:`RandLocalOGDClassifier`; the kernel learners lu2016 compares them with, in
:mod:`ikviz.learn.budget` (Perceptron, OGD, RBP, Forgetron, Projectron(++), BPA-S, BOGD, BSGD). Kernel SVMs: :class:`KernelGram` (rows to kernel
values for ``SVC(kernel="precomputed")``) and the helpers of :mod:`ikviz.learn.svm`.
"""

from .budget import (BOGDClassifier, BPASClassifier, BSGDClassifier, ForgetronClassifier, KernelOGDClassifier,
                     KernelPerceptronClassifier, ProjectronClassifier, ProjectronPPClassifier, RBPClassifier)
from .online import FOGDClassifier, IKOGDClassifier, NOGDClassifier, RandLocalOGDClassifier
from .svm import KernelGram

__all__ = ["FOGDClassifier", "NOGDClassifier", "IKOGDClassifier", "RandLocalOGDClassifier", "KernelGram",
           "KernelPerceptronClassifier", "KernelOGDClassifier", "RBPClassifier", "ForgetronClassifier",
           "ProjectronClassifier", "ProjectronPPClassifier", "BPASClassifier", "BOGDClassifier", "BSGDClassifier"]
