"""Pure statistics (tournaments, the coach): Wilson intervals, means with t intervals, paired differences.

Only the standard library is used (Student's t quantile comes from the regularized incomplete beta
function, inverted by bisection), so the package keeps no run-time dependencies.

>>> lo, hi = wilson_interval(5, 10)
>>> round(lo, 4), round(hi, 4)
(0.2366, 0.7634)
>>> m, (lo, hi) = mean_ci([1.0, 2.0, 3.0])
>>> m, round(lo, 4), round(hi, 4)
(2.0, -0.4841, 4.4841)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist

__all__ = [
    "PairedDifference",
    "handicap_win_share",
    "mean_ci",
    "paired_difference",
    "t_quantile",
    "wilson_interval",
]


def _normal_quantile(p: float) -> float:
    return NormalDist().inv_cdf(p)


def wilson_interval(successes: float, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """Wilson score interval for a proportion ``successes / n`` (``successes`` may be fractional,
    e.g. shared wins). ``n == 0`` gives the uninformative ``(0.0, 1.0)``.

    Hand-computed: 5 of 10, z = 1.959964: centre (0.5 + z²/20) / (1 + z²/10) = 0.5,
    half-width z·sqrt(0.025 + z²/400) / (1 + z²/10) = 0.26340.

    >>> [round(x, 4) for x in wilson_interval(5, 10)]
    [0.2366, 0.7634]
    >>> [round(x, 4) for x in wilson_interval(0, 10)]
    [0.0, 0.2775]
    >>> wilson_interval(0, 0)
    (0.0, 1.0)
    """
    if n < 0 or successes < 0 or successes > n:
        raise ValueError(f"need 0 <= successes <= n, got {successes} of {n}")
    if n == 0:
        return (0.0, 1.0)
    z = _normal_quantile(0.5 + confidence / 2)
    p = successes / n
    z2 = z * z
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    lo = 0.0 if successes == 0 else max(0.0, centre - half)
    hi = 1.0 if successes == n else min(1.0, centre + half)
    return (lo, hi)


def _betacf(a: float, b: float, x: float) -> float:
    """Continued fraction of the incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1, a - 1
    c = 1.0
    d = 1 - qab * x / qap
    d = tiny if abs(d) < tiny else d
    d = 1 / d
    h = d
    for m in range(1, 300):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1 + aa * d
        d = tiny if abs(d) < tiny else d
        c = 1 + aa / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1 + aa * d
        d = tiny if abs(d) < tiny else d
        c = 1 + aa / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return h


def _betainc(a: float, b: float, x: float) -> float:
    """Regularized incomplete beta I_x(a, b)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    ln_front = (math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
                + a * math.log(x) + b * math.log1p(-x))
    front = math.exp(ln_front)
    if x < (a + 1) / (a + b + 2):
        return front * _betacf(a, b, x) / a
    return 1 - front * _betacf(b, a, 1 - x) / b


def _t_cdf(t: float, df: float) -> float:
    x = df / (df + t * t)
    tail = 0.5 * _betainc(df / 2, 0.5, x)
    return 1 - tail if t > 0 else tail


def t_quantile(p: float, df: float) -> float:
    """The ``p`` quantile of Student's t with ``df`` degrees of freedom.

    >>> round(t_quantile(0.975, 1), 4), round(t_quantile(0.975, 2), 4), round(t_quantile(0.975, 10), 4)
    (12.7062, 4.3027, 2.2281)
    >>> round(t_quantile(0.025, 5), 4)
    -2.5706
    """
    if not 0 < p < 1:
        raise ValueError(f"p must be in (0, 1), got {p}")
    if df <= 0:
        raise ValueError(f"df must be positive, got {df}")
    if p == 0.5:
        return 0.0
    if p < 0.5:
        return -t_quantile(1 - p, df)
    lo, hi = 0.0, 1.0
    while _t_cdf(hi, df) < p:
        hi *= 2
    for _ in range(200):
        mid = (lo + hi) / 2
        if _t_cdf(mid, df) < p:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-12 * max(1.0, hi):
            break
    return (lo + hi) / 2


def mean_ci(values: Sequence[float], confidence: float = 0.95) -> tuple[float, tuple[float, float] | None]:
    """The mean of ``values`` and its Student-t confidence interval; the interval is ``None`` with
    fewer than two values (no spread to estimate).

    Hand-computed: [1, 2, 3]: mean 2, s = 1, se = 1/sqrt(3) = 0.57735, t(0.975, 2) = 4.30265,
    half-width 2.48414.

    >>> m, ci = mean_ci([1.0, 2.0, 3.0]); m, [round(x, 4) for x in ci]
    (2.0, [-0.4841, 4.4841])
    >>> mean_ci([4.0, 4.0])
    (4.0, (4.0, 4.0))
    >>> mean_ci([7.0])
    (7.0, None)
    """
    n = len(values)
    if n == 0:
        raise ValueError("mean_ci needs at least one value")
    mean = math.fsum(values) / n
    if n < 2:
        return mean, None
    var = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    half = t_quantile(0.5 + confidence / 2, n - 1) * math.sqrt(var / n)
    return mean, (mean - half, mean + half)


@dataclass(frozen=True, slots=True)
class PairedDifference:
    """Mean of ``a[i] - b[i]`` over paired observations, with its t interval (None if n < 2)."""

    n: int
    mean: float
    ci: tuple[float, float] | None


def paired_difference(a: Sequence[float], b: Sequence[float], confidence: float = 0.95) -> PairedDifference:
    """The paired difference ``a - b`` (e.g. two players' scores on the same deals).

    Hand-computed: differences [2, 4, 6]: mean 4, s = 2, se = 2/sqrt(3), half-width 4.96828.

    >>> d = paired_difference([12.0, 14.0, 16.0], [10.0, 10.0, 10.0])
    >>> d.n, d.mean, [round(x, 4) for x in d.ci]
    (3, 4.0, [-0.9683, 8.9683])
    >>> paired_difference([1.0], [2.0, 3.0])
    Traceback (most recent call last):
    ...
    ValueError: paired samples differ in length: 1 and 2
    """
    if len(a) != len(b):
        raise ValueError(f"paired samples differ in length: {len(a)} and {len(b)}")
    diffs = [x - y for x, y in zip(a, b, strict=True)]
    mean, ci = mean_ci(diffs, confidence)
    return PairedDifference(len(diffs), mean, ci)


def handicap_win_share(totals: Sequence[float], seat: int, points: float) -> float:
    """The share of the win that seat ``seat`` would have had with ``points`` taken off its total
    (lowest total wins, ties share). Averaged over many games, it says how big a lead in points a
    game is worth in wins.

    >>> handicap_win_share([100, 90, 120], 0, 0), handicap_win_share([100, 90, 120], 0, 10)
    (0.0, 0.5)
    >>> handicap_win_share([100, 90, 120], 0, 11), handicap_win_share([100, 90, 120], 1, -20)
    (1.0, 0.0)
    """
    if not 0 <= seat < len(totals):
        raise ValueError(f"no seat {seat} in a game of {len(totals)} seats")
    mine = totals[seat] - points
    others = [t for i, t in enumerate(totals) if i != seat]
    if any(t < mine for t in others):
        return 0.0
    return 1.0 / (1 + sum(1 for t in others if t == mine))
