"""Active Defense's fight: health by hit points alone, as the data's `tracker.states` say: Down
at 0 (the site's ruling: the chapter has no rules for dying)."""

from __future__ import annotations

from calc.fight.hit_points import HitPointRules

FIGHT = HitPointRules()
