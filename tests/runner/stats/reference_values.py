#!/usr/bin/env python3
"""Independent reference values for tests/runner/stats/stats_test.cpp (run once; needs mpmath).

The C++ code finds the maximum-likelihood distributions of the GSPRT with Van den Bergh's one-dimensional
theta equations and a fixed-point iteration. Here the same optima are found differently: the full
Karush-Kuhn-Tucker system (all p_i and both Lagrange multipliers) is solved with Newton's method in 40-digit
arithmetic, so a mistake in the C++ derivation would show up as a mismatch.

Formulas:
  score s = sum p_i a_i;  var = sum p_i (a_i - s)^2            (a = 0,1/2,1 per game or 0,1/4,..,1 per pair)
  Elo(s) = -400 log10(1/s - 1);   interval s +- 1.959964 sqrt(var/n) -> Elo
  nElo = (s - 1/2)/sqrt(var) * 800/ln10  (games)  |  (s - 1/2)/sqrt(2 var) * 800/ln10  (pairs)
  LOS = (1 + erf((s - 1/2)/sqrt(2 var/n)))/2
  LLR = n_reg * sum q_i ln(p1_i/p0_i), q = counts with zeros replaced by 1e-3, normalized; n_reg = their sum
    normalized model: p_h maximizes sum q ln p subject to sum p = 1 and (mu - 1/2)/sigma = t_h,
                      t_h = c * nelo_h * ln10/800 with c = sqrt(2) for pairs, 1 for games
    logistic model:   p_h maximizes sum q ln p subject to sum p = 1 and mu = 1/(1 + 10^(-elo_h/400))
  bounds: ln(beta/(1-alpha)), ln((1-beta)/alpha)
"""
import math
from mpmath import mp, mpf, findroot, sqrt, log

mp.dps = 40
Z = 1.959963984540054
K = 800 / math.log(10)


def summary(scores, counts, pair):
    n = sum(counts)
    s = sum(a * c for a, c in zip(scores, counts)) / n
    var = sum(c / n * (a - s) ** 2 for a, c in zip(scores, counts))
    sd_game = math.sqrt(2 * var) if pair else math.sqrt(var)
    se = math.sqrt(var / n)
    elo = lambda x: -400 * math.log10(1 / x - 1)
    lo, hi = s - Z * se, s + Z * se
    return dict(score=s, var=var, elo=elo(s), elo_err=(elo(hi) - elo(lo)) / 2,
                nelo=(s - 0.5) / sd_game * K, nelo_err=(hi - lo) / 2 / sd_game * K,
                los=0.5 * (1 + math.erf((s - 0.5) / (math.sqrt(2) * se))))


def kkt_mle(a, q, constraint, grad, start):
    """argmax sum q ln p  s.t. sum p = 1, constraint(p) = 0; grad(p) = d constraint / d p_i.
    start = [p..., lam, nu]; returns the full solution vector."""
    N = len(a)

    def eqs(*x):
        p, lam, nu = list(x[:N]), x[N], x[N + 1]
        g = grad(p)
        # Stationarity q_i / p_i = lam + nu g_i, multiplied by p_i so that tiny buckets stay well conditioned.
        return [q[i] - p[i] * (lam + nu * g[i]) for i in range(N)] + [sum(p) - 1, constraint(p)]

    sol = findroot(eqs, start, tol=mpf(10) ** -20, maxsteps=500, verify=False)
    x = [sol[i] for i in range(N + 2)]
    residual = max(abs(r) for r in eqs(*x))
    assert residual < mpf(10) ** -15, residual  # Newton converged
    assert all(pi > 0 for pi in x[:N])
    return x


def llr(scores, counts, elo0, elo1, model, pair):
    a = [mpf(x) for x in scores]
    reg = [mpf(c) if c > 0 else mpf('0.001') for c in counts]
    n = sum(reg)
    q = [c / n for c in reg]

    N = len(a)
    uniform = [mpf(1) / N] * N + [mpf(1), mpf(0)]

    def dist(elo):
        if model == 'normalized':
            t_target = (sqrt(2) if pair else 1) * mpf(elo) * log(10) / 800
            mu = lambda p: sum(pi * ai for pi, ai in zip(p, a))
            sig = lambda p: sqrt(sum(pi * ai * ai for pi, ai in zip(p, a)) - mu(p) ** 2)
            # Homotopy in t from 0: Newton started far from the optimum of a near one-point sample diverges,
            # so each step starts from the previous solution (the first from the uniform distribution).
            x = uniform
            steps = 20
            for k in range(steps + 1):
                t = t_target * k / steps
                con = lambda p, t=t: mu(p) - mpf('0.5') - t * sig(p)
                gr = lambda p, t=t: [ai - t * (ai * ai - 2 * mu(p) * ai) / (2 * sig(p)) for ai in a]
                x = kkt_mle(a, q, con, gr, x)
            return x[:N]
        s = 1 / (1 + mpf(10) ** (-mpf(elo) / 400))
        con = lambda p: sum(pi * ai for pi, ai in zip(p, a)) - s
        return kkt_mle(a, q, con, lambda p: list(a), uniform)[:N]

    p0, p1 = dist(elo0), dist(elo1)
    return float(n * sum(qi * (log(x1) - log(x0)) for qi, x0, x1 in zip(q, p0, p1)))


W3 = [0, 0.5, 1]
P5 = [0, 0.25, 0.5, 0.75, 1]

print('# trinomial summaries (W, L, D) -> score, elo, elo_err, nelo, nelo_err, los')
for w, l, d in [(76, 89, 123), (136, 96, 111), (34, 356, 0), (120, 80, 50)]:
    r = summary(W3, [l, d, w], False)
    print((w, l, d), {k: round(v, 6) for k, v in r.items()})

print('# pentanomial summaries (LL, LD, DD+WL, WD, WW)')
for c in [(34, 54, 31 + 32, 64, 75), (332, 433, 457 + 41, 333, 334), (7895, 8757, 5485 + 200, 568, 9999),
          (10, 40, 100, 45, 5)]:
    r = summary(P5, list(c), True)
    print(c, {k: round(v, 6) for k, v in r.items()})

print('# LLR')
# One-bucket samples (all draws, all WW) are not here: Newton on the KKT system does not converge when
# all but one bucket hold 1e-3 of a count; the test uses fastchess's published values for them instead.
cases = [
    ('tri', (36433, 36027, 68692), 0, 2, 'normalized'),     # (W, L, D)
    ('tri', (10871, 10650, 20431), -1.75, 0.25, 'normalized'),
    ('tri', (21404, 21184, 40708), 0.5, 2.5, 'logistic'),
    ('tri', (57433, 57030, 106593), 0, 2, 'logistic'),
    ('penta', (365, 16618, 36029 + 200, 16974, 390), 0, 2, 'normalized'),  # (LL, LD, DD+WL, WD, WW)
    ('penta', (127, 4883, 10311 + 401, 5150, 104), -1.75, 0.25, 'normalized'),
    ('penta', (223, 9863, 20279 + 1000, 10037, 246), 0.5, 2.5, 'logistic'),
    ('penta', (871, 26175, 55003 + 980, 26678, 821), 0, 2, 'logistic'),
    ('penta', (10, 40, 100, 45, 5), 0, 5, 'normalized'),
]
for kind, c, e0, e1, model in cases:
    if kind == 'tri':
        w, l, d = c
        v = llr(W3, [l, d, w], e0, e1, model, False)
    else:
        v = llr(P5, list(c), e0, e1, model, True)
    print(kind, c, e0, e1, model, round(v, 6))

print('# bounds alpha=beta=0.05', math.log(0.05 / 0.95), math.log(0.95 / 0.05))


def trinomial_normalized_1d(counts, nelo):
    """The trinomial normalized MLE by a different route: with d = mu - 1/2 and S = p_loss + p_win,
    sigma^2 = S/4 - d^2, so (mu - 1/2)/sigma = t gives d = t sqrt(S / (4 (1 + t^2))); the optimum is a 1-D
    maximization of sum q ln p over S (golden section). Used for the all-draws sample Newton cannot do."""
    reg = [mpf(c) if c > 0 else mpf('0.001') for c in counts]
    n = sum(reg)
    q = [c / n for c in reg]
    t = mpf(nelo) * log(10) / 800

    def p_of(S):
        d = t * sqrt(S / (4 * (1 + t * t)))
        return [S / 2 - d, 1 - S, S / 2 + d]

    def ll(S):
        p = p_of(S)
        return sum(qi * log(pi) for qi, pi in zip(q, p)) if min(p) > 0 else mpf('-inf')

    lo, hi = mpf(0), mpf(1)
    g = (sqrt(5) - 1) / 2
    for _ in range(300):
        a, b = hi - g * (hi - lo), lo + g * (hi - lo)
        if ll(a) < ll(b):
            lo = a
        else:
            hi = b
    return n, q, p_of((lo + hi) / 2)


def trinomial_llr_1d(counts, e0, e1):
    n, q, p0 = trinomial_normalized_1d(counts, e0)
    _, _, p1 = trinomial_normalized_1d(counts, e1)
    return float(n * sum(qi * (log(b) - log(a)) for qi, a, b in zip(q, p0, p1)))


print('# 1-D trinomial check (L, D, W order inside): agrees with the KKT value above')
print('tri (36433, 36027, 68692) 0 2', round(trinomial_llr_1d([36027, 68692, 36433], 0, 2), 6))
print('tri (0, 0, 16700) 0 5 (all draws)', round(trinomial_llr_1d([0, 16700, 0], 0, 5), 6))
