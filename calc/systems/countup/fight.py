"""Countup's fight: health by hit points alone, as the data's `tracker.states` say. Hurt from 0
to −9 (still acts, at −10 to attack and damage), dead at −10; an NPC dies at 0 unless the GM lets
an important NPC be Hurt (its `npc_hurt` field, the other reading of npc-death-at-zero)."""

from __future__ import annotations

from calc.fight.hit_points import HitPointRules

FIGHT = HitPointRules()
