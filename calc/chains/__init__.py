"""Chains of states followed round by round, exactly: a target that only loses hit points (`track`),
one whose state has more to it (`state_chain`, solved by `acyclic` or `solve`), what each gives
(`reached`), and whole rounds of attacks read back from the one-attack calculators (`rounds`)."""
