"""Stage 1, load: `rules_data/` read into a `catalog.Catalog` (`reader`: each YAML file with the
line of every field (`yamlsource`), checked against its JSON Schema (`schema`), indexed by id),
with the vocabulary every later stage shares: located `problems`, the `[[...]]` `markup`, table
`cells`, the calculators' `inputs` read, and each system as the engines read it (`engine_view`).
Imports nothing of the later stages (check → export → render)."""
