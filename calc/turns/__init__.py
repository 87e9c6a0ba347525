"""Who acts when: the exact chance one combatant acts before another (`order`), several attackers on
one target (`party`), and the encounter tracker's round order by each system's procedure (`tracker`,
with the helpers the systems' `turns` modules share, `helpers`)."""
