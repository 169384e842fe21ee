"""solvers/region.py: a place of a board, its other links held, as a formula of its own.

Checked against the whole board's encoding: the held solution's counts are a model of the place,
and every model of the place, put back into the board, satisfies every clause of the whole
encoding, every cut and no-good, before and after the place is widened."""

import gc
import random

import pytest

from hashikit.generate.coelho import coelho_with_solution
from hashikit.solvers import region
from hashikit.solvers.cadical import CADICAL, open_solver
from hashikit.solvers.sat import Encoding, blocking_clause

from conftest import random_puzzle


def satisfied(clauses, model_of) -> bool:
    return all(any(model_of(lit) for lit in cl) for cl in clauses)


def whole_model(enc, counts):
    base, caps = enc.base, enc.capacities

    def holds(lit):
        v = abs(lit)
        k = max(i for i, b in enumerate(base) if b < v) if v else 0
        return (v - base[k] <= counts[k]) == (lit > 0)
    return holds


def solved(puzzle, enc, held, open_links, cuts, widen_to=(), ignore=()):
    """Counts from a place over ``open_links`` (widened to ``widen_to`` when it has no model, or
    always when ``widen_to`` is given and ``always``), the held links at ``held``; None when none."""
    place = region.Place(puzzle, enc.capacities, held, cuts, ignore=ignore)
    try:
        assert place.widen(open_links)
        found = place.solve()
        for more in widen_to:
            if found is not None:
                break
            assert place.widen(more)
            found = place.solve()
    finally:
        place.close()
    if found is None:
        return None
    counts = list(held)
    for k, c in found.items():
        counts[k] = c
    return counts


@pytest.mark.parametrize("seed", range(40))
def test_a_place_is_the_whole_formula_with_the_rest_held(seed):
    rng = random.Random(seed)
    puzzle, solution = random_puzzle(rng.randint(4, 9), rng.randint(4, 9), seed, maxbridges=rng.choice((1, 2, 3)))
    enc = Encoding(puzzle)
    held = solution.counts(puzzle)
    assert satisfied(enc.clauses, whole_model(enc, held))
    links = [k for k in range(len(puzzle.links)) if enc.capacities[k]]
    open_links = rng.sample(links, rng.randint(0, len(links)))
    cuts = region.Cuts()
    # a cut the held solution meets, and one it does not meet through the held links alone
    used = [k for k in links if held[k]]
    if used:
        cuts.add(region.REQUIRE, [used[0]] + open_links[:2])
    counts = solved(puzzle, enc, held, open_links, cuts)
    assert counts is not None  # the held solution is a model
    assert satisfied(enc.clauses, whole_model(enc, counts))
    assert all(region.meets(counts, *cut) for cut in cuts.cuts)
    assert all(counts[k] == held[k] for k in links if k not in open_links)


@pytest.mark.parametrize("seed", range(60))
def test_a_widened_place_is_the_whole_formula_with_the_rest_held(seed):
    """Widened in steps on one solver, with cuts the held solution meets and a no-good of the held
    solution itself (so a model must move): each model satisfies the whole formula, every cut and
    the no-good; with every link open, a model exists exactly when the whole formula has one."""
    rng = random.Random(500 + seed)
    if seed % 2:
        puzzle, solution = random_puzzle(rng.randint(4, 9), rng.randint(4, 9), 500 + seed, maxbridges=rng.choice((1, 2)))
    else:  # the paper's boards: links that cross
        puzzle, solution = coelho_with_solution(rng.randint(30, 60), 13, 13, rng.choice((25, 50)), 5, seed=500 + seed)
    enc = Encoding(puzzle)
    held = solution.counts(puzzle)
    links = [k for k in range(len(puzzle.links)) if enc.capacities[k]]
    rng.shuffle(links)
    cuts = region.Cuts()
    for _ in range(4):
        kind = rng.choice((region.REQUIRE, region.FORBID))
        cut = rng.sample(links, min(len(links), rng.randint(1, 3)))
        if region.meets(held, kind, cut):
            cuts.add(kind, cut)
    steps = sorted({rng.randint(1, len(links)) for _ in range(3)} | {len(links)})
    place = region.Place(puzzle, enc.capacities, held, cuts, nogoods=[held])
    try:
        for n in steps:
            assert place.widen(links[:n])
            found = place.solve()
            if found is None:
                continue
            assert sorted(found) == sorted(links[:n])
            counts = list(held)
            for k, c in found.items():
                counts[k] = c
            assert satisfied(enc.clauses, whole_model(enc, counts))
            assert all(region.meets(counts, kind, cut) for kind, cut in cuts.cuts)
            assert counts != held
            return
    finally:
        place.close()
    whole = enc.clauses + [[kind * enc.used(k) for k in cut] for kind, cut in cuts.cuts]
    with open_solver(CADICAL, whole + [blocking_clause(enc, held)]) as sat:
        assert not sat.solve()  # no model with every link open: the whole formula has none either


@pytest.mark.parametrize("seed", range(20))
def test_a_place_with_no_way_left_says_so_until_widened(seed):
    rng = random.Random(100 + seed)
    puzzle, solution = random_puzzle(6, 6, 100 + seed)
    enc = Encoding(puzzle)
    held = solution.counts(puzzle)
    links = [k for k in range(len(puzzle.links)) if enc.capacities[k] and held[k]]
    k = rng.choice(links)
    cuts = region.Cuts()
    cuts.add(region.FORBID, [k])  # "link k carries no bridge": its island's count must move elsewhere
    assert solved(puzzle, enc, held, [k], cuts) is None  # one link alone cannot move: its ends' numbers hold it
    everything = [h for h in range(len(puzzle.links)) if enc.capacities[h]]
    counts = solved(puzzle, enc, held, [k], cuts, widen_to=[everything])
    # the whole board open: a model without link k exactly when the formula has one
    with open_solver(CADICAL, enc.clauses + [[-enc.used(k)]]) as sat:
        exists = sat.solve()
    assert (counts is not None) == exists
    if counts is not None:
        assert counts[k] == 0 and satisfied(enc.clauses, whole_model(enc, counts))


def test_an_unmet_cut_left_to_its_own_place_is_not_met_here():
    puzzle, solution = random_puzzle(8, 8, 3)
    enc = Encoding(puzzle)
    held = solution.counts(puzzle)
    k = next(k for k in range(len(puzzle.links)) if enc.capacities[k] and held[k])
    cuts = region.Cuts()
    cuts.add(region.FORBID, [k])
    assert solved(puzzle, enc, held, [k], cuts) is None
    assert solved(puzzle, enc, held, [k], cuts, ignore={0}) is not None


def test_a_widening_sets_off_no_garbage_collection_and_leaves_the_collector_as_it_was():
    """The collector is paused while a place writes its clauses (a collection walks the whole heap)
    and left on or off as the caller had it."""
    puzzle, solution = random_puzzle(9, 9, 5)
    enc = Encoding(puzzle)
    held = solution.counts(puzzle)
    everything = [k for k in range(len(puzzle.links)) if enc.capacities[k]]
    collections = []

    def seen(phase, info):
        if phase == "start":
            collections.append(info["generation"])

    threshold = gc.get_threshold()
    gc.callbacks.append(seen)
    try:
        for enabled in (True, False):
            place = region.Place(puzzle, enc.capacities, held, region.Cuts())
            widen, half = place.widen, everything[: len(everything) // 2]
            try:
                (gc.enable if enabled else gc.disable)()
                gc.set_threshold(1)  # a collection at nearly every allocation, were the collector on
                collections.clear()
                first = widen(half)
                second = widen(everything)
                during = len(collections)
                gc.set_threshold(*threshold)
                assert first and second and during == 0
                assert gc.isenabled() == enabled
            finally:
                place.close()
    finally:
        gc.callbacks.remove(seen)
        gc.set_threshold(*threshold)
        gc.enable()


@pytest.mark.parametrize("seed", range(10))
def test_a_link_crossing_a_held_bridge_stays_held_until_the_bridge_opens(seed):
    """A link asked open that crosses a held bridge gets no variables (it must carry none while the
    bridge is held): the place answers it at 0; once the bridge is asked open too, both are open."""
    rng = random.Random(900 + seed)
    pairs = []
    while not pairs:
        puzzle, solution = coelho_with_solution(rng.randint(40, 60), 13, 13, 50, 5, seed=rng.randrange(10**6))
        enc = Encoding(puzzle)
        held = solution.counts(puzzle)
        pairs = [(k, h) for h in range(len(puzzle.links)) if held[h]
                 for k in puzzle.crossing_partners[h]
                 if enc.capacities[k] and sum(held[j] > 0 for j in puzzle.crossing_partners[k]) == 1]
    k, h = rng.choice(pairs)
    ring = {j for e in puzzle.links[k][:2] for j in puzzle.incident[e] if enc.capacities[j]} - {h}
    place = region.Place(puzzle, enc.capacities, held, region.Cuts())
    try:
        assert place.widen(ring)
        assert k not in place.open
        found = place.solve()
        assert found is not None and found[k] == 0 and set(found) == ring
        assert place.widen(ring | {h})
        assert k in place.open and h in place.open
        found = place.solve()
        assert found is not None and set(found) == ring | {h}
        counts = list(held)
        for j, c in found.items():
            counts[j] = c
        assert satisfied(enc.clauses, whole_model(enc, counts))
    finally:
        place.close()
