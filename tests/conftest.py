import os
from pathlib import Path

import numpy as np
import pytest

from ikviz import IsolationKernel

# the app's results store keeps results in memory only during tests (no stale results from disk)
os.environ["IKVIZ_STORE_DIR"] = ""
# and no paper-size results of the checkout (paper-size/) replace the quick rows a test expects
os.environ["IKVIZ_FULL_RESULTS"] = ""
# the papers' fetched data sets come from the offline mirror beside this checkout, where there is one (as in CI)
_MIRROR = Path(__file__).resolve().parents[1].parent / "shared" / "datasets"
if "IKVIZ_DATA_MIRROR" not in os.environ and _MIRROR.is_dir():
    os.environ["IKVIZ_DATA_MIRROR"] = str(_MIRROR)

# the IK variants every property test runs on
VARIANTS = {
    "anne": dict(method="anne"),
    "inne": dict(method="inne"),
    "iforest": dict(method="iforest"),
    "iforest-full": dict(method="iforest", max_depth=None),
}


@pytest.fixture(params=list(VARIANTS))
def variant(request):
    return VARIANTS[request.param]


@pytest.fixture
def blobs():
    """Small seeded data with clusters of different spread (not uniform, so kernels differ)."""
    rng = np.random.default_rng(42)
    return np.vstack([rng.normal(0, 0.3, size=(150, 3)), rng.normal(3, 1.0, size=(150, 3))])


@pytest.fixture
def fitted(variant, blobs):
    return IsolationKernel(psi=16, t=100, random_state=7, **variant).fit(blobs)
