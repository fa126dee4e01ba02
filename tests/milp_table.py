"""The table problem of manipulation rummy as an integer program, solved with ``scipy.optimize.milp``.

An independent check of ``shanghai.table_solver``, after den Hertog and Hulshof (2006), "Solving
Rummikub problems by integer linear programming". It uses nothing of the solver: every possible meld
is enumerated here (sets of 3 and of 4 different suits of each rank; runs of 3, 4 and 5 cards of each
suit and first rank, ace low only: longer runs are split into these), with an integer variable
``x_m`` in 0..copies for each (how many times it lies on the table), and an integer ``y_c`` in
0..(copies of c in the hand) for each card (how many copies are placed from the hand):

    sum_m a_mc x_m = table_c + y_c   for every card c,

maximising ``sum_c y_c (BIG + rank_c)``: the most cards placed, then the highest sum of ranks.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence

import numpy as np
from scipy.optimize import Bounds, LinearConstraint, milp

BIG = 1000  # more than the value of any hand (at most 13 per card)
CARDS = [s * 16 + r for s in range(4) for r in range(1, 14)]
INDEX = {c: i for i, c in enumerate(CARDS)}


def all_melds() -> list[tuple[int, ...]]:
    melds: list[tuple[int, ...]] = []
    for r in range(1, 14):
        for size in (3, 4):
            melds += [tuple(s * 16 + r for s in suits) for suits in itertools.combinations(range(4), size)]
    for s in range(4):
        for length in (3, 4, 5):
            for low in range(1, 14 - length + 1):  # ace low only: the king ends every run
                melds.append(tuple(s * 16 + r for r in range(low, low + length)))
    return melds


MELDS = all_melds()
A = np.zeros((len(CARDS), len(MELDS)))
for j, meld in enumerate(MELDS):
    for card in meld:
        A[INDEX[card], j] += 1


def milp_best(table: Sequence[int], hand: Sequence[int], must: Sequence[int] = ()) -> tuple[int, int] | None:
    """(cards placed, sum of their ranks) of the best play, or None if there is none.

    Only the melds whose cards are all at hand (table or hand) get a variable: the others are 0 anyway.
    """
    t, h, m = Counter(table), Counter(hand), Counter(must)
    have = t + h
    if any(m[c] > h[c] for c in m):
        return None
    copies = max([*have.values(), 1])  # no meld lies on the table more often than its cards allow
    cols = [j for j, meld in enumerate(MELDS) if all(have[c] for c in meld)]
    rows = [i for i, c in enumerate(CARDS) if have[c]]
    if not rows:
        return 0, 0
    sub = A[np.ix_(rows, cols)]
    cards = [CARDS[i] for i in rows]
    n, k = len(cols), len(rows)
    # variables: x (melds) then y (hand cards placed); equality rows A x - y = table
    matrix = np.hstack([sub, -np.eye(k)])
    rhs = np.array([t[c] for c in cards], dtype=float)
    lower = np.concatenate([np.zeros(n), [m[c] for c in cards]])
    upper = np.concatenate([np.full(n, copies), [h[c] for c in cards]])
    cost = np.concatenate([np.zeros(n), [-(BIG + (c & 15)) for c in cards]])
    if n == 0:
        return (0, 0) if not any(t.values()) and not m else None
    res = milp(cost, constraints=LinearConstraint(matrix, rhs, rhs), integrality=np.ones(n + k),
               bounds=Bounds(lower, upper), options={"mip_rel_gap": 0.0})
    if res.status != 0:
        return None
    y = np.round(res.x[n:]).astype(int)
    return int(y.sum()), int(sum(int(v) * (c & 15) for v, c in zip(y, cards, strict=True)))
