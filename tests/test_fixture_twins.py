"""The faucet of a sink basin no demo names, copied from its twin's (gen/scenes/alfred/fixture_twins.py)."""

from __future__ import annotations

from alfred_gen.domains import catalogue
from alfred_gen.scenes.alfred.evidence import SceneEvidence, id_position
from alfred_gen.scenes.alfred.fixture_twins import twin_faucets, twin_support

ROW = ("Sink|-01.70|+00.62|+02.28|SinkBasin", "Sink|-01.70|+00.62|+03.37|SinkBasin")  # FloorPlan416's
FAUCET = "Faucet|-01.93|+00.72|+03.37"


def _room(basins: tuple[str, ...], faucets: tuple[str, ...]) -> SceneEvidence:
    return SceneEvidence(416, openable={b: [0.0, 0.0, 0, 0] for b in basins}, static_ids=set(faucets), trajectories=3)


def test_a_basin_in_a_row_gets_its_twins_faucet_at_the_same_offset_and_the_faucet_runs_into_it() -> None:
    added = twin_faucets(_room(ROW, (FAUCET,)))
    assert added == ["Faucet|-01.93|+00.72|+02.28"]
    things = [(i, catalogue.type_of_id(i), id_position(i)[0], id_position(i)[2]) for i in (*ROW, FAUCET, *added)]
    assert catalogue.faucet_basins(things) == {FAUCET: ROW[1], added[0]: ROW[0]}


def test_no_faucet_when_both_have_one_none_known_or_the_basins_are_not_in_a_row() -> None:
    assert twin_faucets(_room(ROW, (FAUCET, "Faucet|-01.93|+00.72|+02.28"))) == []
    assert twin_faucets(_room(ROW, ())) == []
    # FloorPlan423's two sinks stand at right angles: not twins
    assert twin_faucets(_room(("Sink|-00.26|+00.66|+01.92|SinkBasin", "Sink|-02.54|+00.66|+00.25|SinkBasin"),
                              ("Faucet|-00.11|+00.79|+01.92",))) == []
    # at another height: another asset
    assert twin_faucets(_room(("Sink|-01.70|+00.62|+02.28|SinkBasin", "Sink|-01.70|+00.90|+03.37|SinkBasin"),
                              (FAUCET,))) == []


def test_a_faucet_that_would_run_into_another_basin_is_not_made() -> None:
    # a bathtub basin right where the copied faucet would go: it would clean the tub, not the sink
    tub = "Bathtub|-01.95|+00.30|+02.30|BathtubBasin"
    assert twin_faucets(_room((*ROW, tub), (FAUCET,))) == []


def test_support_counts_rows_whose_faucets_agree_and_disagree() -> None:
    both = _room(ROW, (FAUCET, "Faucet|-01.93|+00.72|+02.28"))
    other = _room(ROW, (FAUCET, "Faucet|-01.50|+00.72|+02.28"))
    assert twin_support([both, other, _room(ROW, (FAUCET,))]) == (1, 1)
