"""The fight forecast: a whole encounter, party against foes, followed round by round as one exact
Markov chain over every fighter's health, never simulated.

Modules by concept: `fighters` (a fighter, and whom a side attacks: focus fire), `round` (one round
of the fight: who acts when under a rolled initiative, and what each action does to the state),
`chain` (the states bounded before anything is computed, then the chain's exact answers), `answer`
(the calculator's result). A system supplies only its fighters: how one attack of one fighter
changes its target's health, reusing its round calculator's per-attack distributions.
"""
