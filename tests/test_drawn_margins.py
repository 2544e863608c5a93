"""A fixture's drawing as margins around its box: one rule for the simulator and the importer."""

from __future__ import annotations

from alfred_gen.sim.scene import Box, drawing_margins, margins_of, with_margins


def test_with_margins_moves_each_side_out_and_no_margins_leave_the_box() -> None:
    box = Box((-0.5, 0.0, 1.5), (0.5, 0.75, 2.0))
    assert with_margins(box, ()) == box  # an undrawn fixture: its box
    drawn = with_margins(box, (0.1, 0.0, 0.0, 0.0, 0.05, 0.2))
    assert drawn.lo == (-0.6, 0.0, 1.5) and drawn.hi == (0.5, 0.8, 2.2)
    assert margins_of(box, drawn.lo, drawn.hi) == (0.1, 0.0, 0.0, 0.0, 0.05, 0.2)


def test_shut_margins_add_to_the_drawn_ones_only_while_shut() -> None:
    drawn, shut_extra = (0.1, 0.0, 0.0, 0.0, 0.0, 0.0), (0.0, 0.0, 0.0, 0.2, 0.0, 0.0)
    assert drawing_margins(drawn, shut_extra, shut=True) == (0.1, 0.0, 0.0, 0.2, 0.0, 0.0)
    assert drawing_margins(drawn, shut_extra, shut=False) == drawn
    assert drawing_margins((), shut_extra, shut=True) == shut_extra  # shut margins on an undrawn box
    assert drawing_margins((), (), shut=True) == ()
