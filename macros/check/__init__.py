"""Stage 2, check: what the schema cannot express, over the loaded catalog. `loader.load()` reads
and cross-checks the data (what every user of it calls); `crossref` runs one system's checks, one
module for each file they read; `coverage` holds the data against its source text;
`python -m macros.check` prints every problem (`__main__`). Imports only `macros.load`."""
