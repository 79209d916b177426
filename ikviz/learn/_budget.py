"""The numba pass of the kernel online learners lu2016 compares with (its §2 and §7.1-7.3).

One function, :func:`kernel_pass`, runs any of them over rows of a stream with the
Gaussian kernel K(x, x') = exp(-gamma |x - x'|^2) (so K(x, x) = 1). Each example is
predicted before its label is used (progressive validation), its mistake written into
``mistakes``; then the model (support rows ``support``, coefficients ``alpha``, one
column per weight row: one for two classes, m for m classes) is updated in place, so a
stream fed chunk by chunk gives the model of one pass. The update direction ``g`` of an
example is the one of :func:`ikviz.learn._ogd._step`: +-1 on the one binary row, or +1
on the true class and -1 on the best wrong class (the predicted one on a mistake).

Learners (``algo``):

0 Perceptron, no budget (Freund & Schapire 1999): on a mistake, add x with g.
1 kernel OGD, no budget (Kivinen et al. 2004, hinge loss, no regularisation, as lu2016):
  on a non-zero loss, add x with eta g.
2 RBP (Cavallanti et al. 2007): Perceptron; when the budget is full, a support vector
  drawn uniformly at random is removed first.
3 Forgetron, self-tuned (Dekel et al. 2008): Perceptron; past the budget, every
  coefficient is shrunk by the largest phi in (0, 1] that keeps the accumulated
  "forgetting" Q + psi(phi sigma, mu) <= 15/32 M (M mistakes so far), and the oldest
  support vector is removed.
4 Projectron (Orabona et al. 2009): Perceptron; when the new example's kernel function is
  within distance eta of the span of the support set (delta <= eta), or the budget is
  full, the update is projected onto the span (no new support vector).
5 Projectron++: Projectron, and on a margin error without a mistake, the projected
  update with step min(l / |P k|^2, 2 (l - delta / eta) / |P k|^2, 1) when positive.
6 BPA-S (Wang & Vucetic 2010): passive-aggressive (PA-I, step min(C, l / |g|^2), C =
  ``eta``); when the budget is full, the support vector r whose removal changes the model
  least once the new one takes coefficient alpha_r K(x_r, x) + step g is replaced by it.
7 BOGD (Zhao et al. 2012): OGD with regularisation lam (coefficients shrink by
  1 - eta lam every round); on a non-zero loss with the budget full, a support vector
  drawn uniformly at random is removed and the rest are scaled by B / (B - 1).
8 BSGD, removal (Wang et al. 2012): Pegasos (step 1 / (lam t), shrink 1 - 1/t); past the
  budget, a support vector drawn uniformly at random is removed.
9 BSGD, merging: past the budget, the support vector of the smallest coefficient norm is
  merged with the partner whose merge loses least weight: z = x_r + h (x_m - x_r), h by a
  golden-section search on [0, 1], alpha_z = alpha_r K(x_r, z) + alpha_m K(x_m, z).

``state`` carries what a learner keeps between examples: [0] Q (Forgetron), [1] M
(mistakes, Forgetron), [2] t (rounds, BSGD), [3] the insertion counter (ages).
"""

import math

import numpy as np
from numba import njit

from ._ogd import _step

PERCEPTRON, OGD, RBP, FORGETRON, PROJECTRON, PROJECTRON_PP, BPAS, BOGD, BSGD_REMOVE, BSGD_MERGE = range(10)
#: learners that never remove a support vector (the support set grows with the stream)
UNBUDGETED = (PERCEPTRON, OGD)


@njit(cache=True, nogil=True, inline="always")
def _sqdist(A, i, B, j):
    acc = 0.0
    for q in range(A.shape[1]):
        diff = A[i, q] - B[j, q]
        acc += diff * diff
    return acc


@njit(cache=True, nogil=True)
def _remove(s, n_sv, support, alpha, age, lab):
    """Remove support vector ``s`` (the last one takes its slot); returns the new count."""
    last = n_sv - 1
    if s != last:
        for q in range(support.shape[1]):
            support[s, q] = support[last, q]
        for r in range(alpha.shape[1]):
            alpha[s, r] = alpha[last, r]
        age[s] = age[last]
        lab[s] = lab[last]
    for r in range(alpha.shape[1]):
        alpha[last, r] = 0.0
    return last


@njit(cache=True, nogil=True)
def _scores_at(x_row, X, support, alpha, n_sv, gamma, scores):
    m = alpha.shape[1]
    for r in range(m):
        scores[r] = 0.0
    for s in range(n_sv):
        k = math.exp(-gamma * _sqdist(X, x_row, support, s))
        for r in range(m):
            scores[r] += alpha[s, r] * k


@njit(cache=True, nogil=True)
def _rival_margin(scores, label, m):
    """The margin of class ``label``: binary sign * score; else its score minus the best other's."""
    if m == 1:
        return scores[0] if label == 1 else -scores[0]
    best = -np.inf
    for r in range(m):
        if r != label and scores[r] > best:
            best = scores[r]
    return scores[label] - best


@njit(cache=True, nogil=True)
def kernel_pass(X, y, u, algo, gamma, eta, lam, budget, support, alpha, age, lab, kinv, n_sv, state, mistakes):
    """One pass of learner ``algo`` over (X, y); returns (examples consumed, support vectors).

    ``support`` (capacity, d), ``alpha`` (capacity, m), ``age`` and ``lab`` (capacity,)
    hold the model, the first ``n_sv`` filled; ``kinv`` (capacity, capacity) the inverse
    kernel matrix of the support set (Projectron, else unused). ``u`` holds one uniform
    draw per example (the random removals). The pass stops before an example when the
    capacity is full (the unbudgeted learners: the caller grows the arrays and calls
    again); a budgeted learner's capacity is ``budget + 1``, never full between examples.
    """
    n = X.shape[0]
    m = alpha.shape[1]
    capacity = support.shape[0]
    scores = np.empty(m)
    g = np.zeros(m)
    kv = np.empty(capacity)
    dvec = np.empty(capacity)
    other = np.empty(m)
    i = 0
    while i < n and n_sv < capacity:
        label = y[i]
        # --- predict: the kernel row of x against the support set, then the scores
        for r in range(m):
            scores[r] = 0.0
        for s in range(n_sv):
            k = math.exp(-gamma * _sqdist(X, i, support, s))
            kv[s] = k
            for r in range(m):
                scores[r] += alpha[s, r] * k
        pred, up, down, sign = _step(scores, label, 1.0, m)
        mistake = pred != label
        mistakes[i] = mistake
        loss = 1.0 - _rival_margin(scores, label, m)
        for r in range(m):
            g[r] = 0.0
        if up >= 0:
            g[up] = sign
            if down >= 0:
                g[down] = -sign
        gnorm2 = 0.0
        for r in range(m):
            gnorm2 += g[r] * g[r]
        add = False
        step = 1.0
        if algo == PERCEPTRON or algo == RBP or algo == FORGETRON:
            add = mistake
            if add and algo == RBP and n_sv >= budget:
                n_sv = _remove(min(n_sv - 1, int(u[i] * n_sv)), n_sv, support, alpha, age, lab)
        elif algo == OGD:
            add = loss > 0.0
            step = eta
        elif algo == PROJECTRON or algo == PROJECTRON_PP:
            margin_error = (not mistake) and loss > 0.0 and algo == PROJECTRON_PP
            if (mistake or margin_error) and n_sv > 0:
                # projection of K(x, .) onto the span of the support set: d = K^-1 k, delta^2 = 1 - k . d
                proj = 0.0
                for a in range(n_sv):
                    acc = 0.0
                    for b in range(n_sv):
                        acc += kinv[a, b] * kv[b]
                    dvec[a] = acc
                    proj += kv[a] * acc
                delta2 = max(0.0, 1.0 - proj)
                delta = math.sqrt(delta2)
                if mistake:
                    if delta <= eta or n_sv >= budget:
                        for a in range(n_sv):
                            for r in range(m):
                                alpha[a, r] += g[r] * dvec[a]
                    else:
                        add = True
                elif proj > 1e-12:
                    tau = min(loss / proj, 2.0 * (loss - delta / eta) / proj, 1.0)
                    if tau > 0.0:
                        for a in range(n_sv):
                            for r in range(m):
                                alpha[a, r] += tau * g[r] * dvec[a]
                if add:  # the inverse of the grown kernel matrix, by blocks
                    inv = 1.0 / max(delta2, 1e-12)
                    for a in range(n_sv):
                        for b in range(n_sv):
                            kinv[a, b] += dvec[a] * dvec[b] * inv
                        kinv[a, n_sv] = -dvec[a] * inv
                        kinv[n_sv, a] = -dvec[a] * inv
                    kinv[n_sv, n_sv] = inv
            elif mistake:
                add = True
                kinv[0, 0] = 1.0
        elif algo == BPAS:
            if loss > 0.0:
                tau = min(eta, loss / gnorm2)
                if n_sv < budget:
                    add = True
                    step = tau
                else:
                    best, best_cost = 0, np.inf
                    for s in range(n_sv):
                        a2 = 0.0
                        for r in range(m):
                            a2 += alpha[s, r] * alpha[s, r]
                        cost = a2 * (1.0 - kv[s] * kv[s])
                        if cost < best_cost:
                            best, best_cost = s, cost
                    for r in range(m):
                        other[r] = alpha[best, r] * kv[best] + tau * g[r]
                    for q in range(support.shape[1]):
                        support[best, q] = X[i, q]
                    for r in range(m):
                        alpha[best, r] = other[r]
                    age[best] = int(state[3])
                    lab[best] = label
                    state[3] += 1.0
        elif algo == BOGD:
            shrink = 1.0 - eta * lam
            for s in range(n_sv):
                for r in range(m):
                    alpha[s, r] *= shrink
            if loss > 0.0:
                add = True
                step = eta
                if n_sv >= budget:
                    n_sv = _remove(min(n_sv - 1, int(u[i] * n_sv)), n_sv, support, alpha, age, lab)
                    if n_sv > 0:
                        scale = (n_sv + 1.0) / n_sv
                        for s in range(n_sv):
                            for r in range(m):
                                alpha[s, r] *= scale
        else:  # BSGD: Pegasos with budget maintenance
            state[2] += 1.0
            t = state[2]
            shrink = 1.0 - 1.0 / t
            for s in range(n_sv):
                for r in range(m):
                    alpha[s, r] *= shrink
            if loss > 0.0:
                add = True
                step = 1.0 / (lam * t)
        if add:
            for q in range(support.shape[1]):
                support[n_sv, q] = X[i, q]
            for r in range(m):
                alpha[n_sv, r] = step * g[r]
            age[n_sv] = int(state[3])
            lab[n_sv] = label
            state[3] += 1.0
            n_sv += 1
            if algo == FORGETRON:
                state[1] += 1.0
                if n_sv > budget:
                    n_sv = _forget(X, support, alpha, age, lab, n_sv, gamma, state, scores, m)
            elif (algo == BSGD_REMOVE or algo == BSGD_MERGE) and n_sv > budget:
                if algo == BSGD_REMOVE:
                    n_sv = _remove(min(n_sv - 1, int(u[i] * n_sv)), n_sv, support, alpha, age, lab)
                else:
                    n_sv = _merge(support, alpha, age, lab, n_sv, gamma, other)
        i += 1
    return i, n_sv


@njit(cache=True, nogil=True)
def _forget(X, support, alpha, age, lab, n_sv, gamma, state, scores, m):
    """Self-tuned Forgetron's shrink and removal of the oldest support vector (Dekel et al. 2008, Fig. 3)."""
    oldest = 0
    for s in range(1, n_sv):
        if age[s] < age[oldest]:
            oldest = s
    sigma = 0.0
    for r in range(m):
        sigma += alpha[oldest, r] * alpha[oldest, r]
    sigma = math.sqrt(sigma)
    _scores_at(oldest, support, support, alpha, n_sv, gamma, scores)
    mu = _rival_margin(scores, lab[oldest], m)
    # psi(phi sigma, mu) = (phi sigma)^2 + 2 phi sigma (1 - mu); the largest phi in (0, 1] with Q + psi <= 15/32 M
    a = sigma * sigma
    b = 2.0 * sigma * (1.0 - mu)
    c = state[0] - 15.0 / 32.0 * state[1]
    if a + b + c <= 0.0 or a <= 0.0:
        phi = 1.0
    else:
        disc = b * b - 4.0 * a * c
        phi = (-b + math.sqrt(disc)) / (2.0 * a) if disc >= 0.0 else 0.0
        phi = min(1.0, max(0.0, phi))
    ls = phi * sigma
    state[0] += ls * ls + 2.0 * ls * (1.0 - mu)
    for s in range(n_sv):
        for r in range(m):
            alpha[s, r] *= phi
    return _remove(oldest, n_sv, support, alpha, age, lab)


@njit(cache=True, nogil=True)
def _merge(support, alpha, age, lab, n_sv, gamma, az):
    """BSGD's merge: the smallest support vector with the partner that loses least weight (Wang et al. 2012)."""
    m = alpha.shape[1]
    r0 = 0
    smallest = np.inf
    for s in range(n_sv):
        a2 = 0.0
        for r in range(m):
            a2 += alpha[s, r] * alpha[s, r]
        if a2 < smallest:
            r0, smallest = s, a2
    best, best_h, best_loss = -1, 0.0, np.inf
    gr = 0.5 * (math.sqrt(5.0) - 1.0)
    for p in range(n_sv):
        if p == r0:
            continue
        D = _sqdist(support, r0, support, p)
        krp = math.exp(-gamma * D)
        dot, ap2 = 0.0, 0.0
        for r in range(m):
            dot += alpha[r0, r] * alpha[p, r]
            ap2 += alpha[p, r] * alpha[p, r]
        lo, hi = 0.0, 1.0
        for _ in range(24):  # golden section: the h maximising |alpha_z|^2
            h1 = hi - gr * (hi - lo)
            h2 = lo + gr * (hi - lo)
            if _merged_norm2(alpha, r0, p, h1, D, gamma) < _merged_norm2(alpha, r0, p, h2, D, gamma):
                lo = h1
            else:
                hi = h2
        h = 0.5 * (lo + hi)
        for cand in (0.0, 1.0):  # the ends (a coefficient of the other sign pushes h there)
            if _merged_norm2(alpha, r0, p, cand, D, gamma) > _merged_norm2(alpha, r0, p, h, D, gamma):
                h = cand
        loss = smallest + ap2 + 2.0 * krp * dot - _merged_norm2(alpha, r0, p, h, D, gamma)
        if loss < best_loss:
            best, best_h, best_loss = p, h, loss
    if best < 0:
        return _remove(r0, n_sv, support, alpha, age, lab)
    D = _sqdist(support, r0, support, best)
    k_r = math.exp(-gamma * best_h * best_h * D)
    k_p = math.exp(-gamma * (1.0 - best_h) * (1.0 - best_h) * D)
    for r in range(m):
        az[r] = alpha[r0, r] * k_r + alpha[best, r] * k_p
    for q in range(support.shape[1]):
        support[best, q] = support[r0, q] + best_h * (support[best, q] - support[r0, q])
    for r in range(m):
        alpha[best, r] = az[r]
    return _remove(r0, n_sv, support, alpha, age, lab)


@njit(cache=True, nogil=True, inline="always")
def _merged_norm2(alpha, r0, p, h, D, gamma):
    k_r = math.exp(-gamma * h * h * D)
    k_p = math.exp(-gamma * (1.0 - h) * (1.0 - h) * D)
    acc = 0.0
    for r in range(alpha.shape[1]):
        v = alpha[r0, r] * k_r + alpha[p, r] * k_p
        acc += v * v
    return acc
