"""Segments' fight: health by hit points alone, as the data's `tracker.states` say. Down at 0
(the site's ruling: the chapter is silent); under the other reading of round-drop-at-zero (the
`drop_at` ruling), Down at 0 and dead at −10."""

from __future__ import annotations

from calc.fight.hit_points import HitPointRules

FIGHT = HitPointRules()
