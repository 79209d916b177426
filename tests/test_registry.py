"""The one registry of kernels and measures."""

import numpy as np
import pytest

from ikviz.registry import IK_VARIANTS, MEASURES, colours, isolation_kernel, label


def test_every_ik_variant_builds_its_partitioning_with_psi_clipped_to_the_rows():
    X = np.random.default_rng(0).normal(size=(30, 2))
    methods = set()
    for key in IK_VARIANTS:
        ik = isolation_kernel(key, psi=64, t=5, seed=0, n=len(X)).fit(X)
        assert ik.psi_ == 30 and ik.method_ == MEASURES[key].isolation["method"]
        methods.add((ik.method_, ik.max_depth))
    assert len(methods) == len(IK_VARIANTS)  # four different partitionings, not one under four names


def test_unknown_or_non_ik_keys_are_refused_by_name():
    with pytest.raises(ValueError, match="unknown kernel or measure 'cosine'"):
        label("cosine")
    with pytest.raises(ValueError, match="'rbf' is not an Isolation Kernel variant"):
        isolation_kernel("rbf", psi=8, t=5, seed=0)


def test_colours_are_one_per_key_and_shared_by_aliases_of_one_kernel():
    assert colours("rbf", "gk") == {"rbf": "#666666", "gk": "#666666"}
    assert colours("ik")["ik"] == colours("ik_anne")["ik_anne"]
