"""ikviz.experiments.online's warm-ups: once per learner and process, whichever threads ask at once (issue 29 item 2:
no unlocked module global changed at run time)."""

import threading
import time

import numpy as np
import pytest

from ikviz.experiments import online


def test_two_threads_warming_one_learner_at_once_warm_it_once():
    once, calls, ran = online._Once(), [], []
    start = threading.Barrier(2)

    def work():
        calls.append(threading.get_ident())
        time.sleep(0.2)  # long enough for the other thread to arrive while this one works

    def ask():
        start.wait()
        ran.append(once("FOGD", work))

    threads = [threading.Thread(target=ask) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(5)
    assert len(calls) == 1 and sorted(ran) == [False, True]
    assert once("FOGD", work) is False and len(calls) == 1


def test_another_learner_does_not_wait_and_failed_work_is_tried_again():
    once, order = online._Once(), []
    inside = threading.Event()

    def slow():
        inside.set()
        time.sleep(0.3)
        order.append("slow")

    thread = threading.Thread(target=once, args=("NOGD", slow))
    thread.start()
    inside.wait(5)
    assert once("OGD", lambda: order.append("other")) is True
    thread.join(5)
    assert order == ["other", "slow"]  # OGD's warm-up did not wait for NOGD's

    def fails():
        raise RuntimeError("no compiled code")

    with pytest.raises(RuntimeError):
        once("RBP", fails)
    assert once("RBP", lambda: None) is True


def test_run_method_warms_each_learner_once(monkeypatch):
    monkeypatch.setattr(online, "_WARM", online._Once())
    made = []
    real = online.make_learner
    monkeypatch.setattr(online, "make_learner", lambda *a, **k: made.append(a[0]) or real(*a, **k))
    rng = np.random.default_rng(0)
    X, y = rng.random((300, 3)), rng.integers(0, 2, 300)
    p = online.Params(n=300, B=20, tune_eta=False)
    for _ in range(2):
        online.run_method("Perceptron", X, y, p)
    assert made == ["Perceptron"] * 3  # one warm-up, then one learner per pass
