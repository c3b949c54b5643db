"""bench_ratios.mann_whitney_p, bench-history's before/after test, as three laws checked
with Hypothesis on small integer samples (ties are the common case) and on samples past
EXACT_MAX_N (the normal approximation):

- symmetric: the test is two-sided, so p(a, b) == p(b, a);
- rank-based: p(f(a), f(b)) == p(a, b) for every strictly increasing f;
- exact: up to EXACT_MAX_N values, p is the brute-force share of the C(n, n1) splits
  of the ranks at least as far from the mean (fakes.brute_force_p).

Each law is shown failing on a p-value broken the way it guards against: one-sided,
on the values instead of their ranks, and with ties ranked in order."""
import itertools
import math

import pytest
from hypothesis import example, find, given, strategies as st

from lib import bench_ratios as br
from fakes import brute_force_p

small = st.lists(st.integers(0, 5), min_size=2, max_size=6)  # n <= 12: brute force is cheap
large = st.lists(st.integers(0, 9), min_size=11, max_size=30)  # n > EXACT_MAX_N: the normal branch
INCREASING = {"3x+7": lambda x: 3 * x + 7, "x^3": lambda x: x ** 3, "exp": math.exp, "-1/(x+100)": lambda x: -1 / (x + 100)}
increasing = st.sampled_from(sorted(INCREASING))


def symmetric(p, a, b):
    return p(a, b) == p(b, a)


def rank_based(p, a, b, f):
    return p(a, b) == p([INCREASING[f](x) for x in a], [INCREASING[f](x) for x in b])


def exact(p, a, b):
    return p(a, b) == brute_force_p(a, b)


@given(st.one_of(small, large), st.one_of(small, large))
def test_symmetric(a, b):
    assert symmetric(br.mann_whitney_p, a, b)


@given(st.one_of(small, large), st.one_of(small, large), increasing)
def test_rank_based(a, b, f):
    assert rank_based(br.mann_whitney_p, a, b, f)


@given(small, small)
@example([1, 2, 3], [4, 5, 6]).via("fully apart")
@example([5, 5, 5], [5, 5]).via("all tied")
@example([1, 1, 2, 2, 3], [2, 3, 3, 4]).via("ties across the samples")
@example([19, 22, 16, 29, 24], [20, 11, 17, 12]).via("scipy's worked example")
@example([3, 1, 4, 1, 5, 9, 2, 6, 5], [3, 5, 8, 9, 7, 9, 3, 2, 3]).via("18 values, near EXACT_MAX_N")
def test_exact(a, b):
    assert exact(br.mann_whitney_p, a, b)


def _splits_p(a, b, score, two_sided=True):
    """The share of splits of the pooled values (scored by `score`) as extreme as a's."""
    pooled = list(a) + list(b)
    scores = score(pooled)
    n1 = len(a)
    mean = sum(scores) * n1 / len(pooled)
    seen = sum(scores[:n1]) - mean
    splits = list(itertools.combinations(range(len(pooled)), n1))
    far = [c for c in splits if (abs(sum(scores[k] for k in c) - mean) >= abs(seen) if two_sided
                                 else sum(scores[k] for k in c) - mean >= seen)]
    return len(far) / len(splits)


def _ordinal(pooled):  # ties ranked in the order they come
    order = sorted(range(len(pooled)), key=lambda k: pooled[k])
    return [order.index(k) + 1 for k in range(len(pooled))]


BROKEN = {
    "symmetric": (lambda a, b: _splits_p(a, b, br.midranks, two_sided=False), symmetric),
    "rank-based": (lambda a, b: _splits_p(a, b, lambda v: [x * x for x in v]), rank_based),
    "exact": (lambda a, b: _splits_p(a, b, _ordinal), exact),
}


@pytest.mark.parametrize("law", sorted(BROKEN))
def test_each_law_catches_its_broken_p(law):
    broken, holds = BROKEN[law]
    args = st.tuples(small, small, increasing) if law == "rank-based" else st.tuples(small, small)
    found = find(args, lambda t: not holds(broken, *t))  # NoSuchExample (a failure) when it holds
    assert not holds(broken, *found)
    assert holds(br.mann_whitney_p, *found), f"the real p breaks {law} on {found}"
