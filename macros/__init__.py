"""From `rules_data/` to the site, in one direction: `load/` (read the YAML into a catalog) →
`check/` (every cross-check) → `export/` (`calc/rules.json` for the engines) → `render/` (pure
data → Markdown). A stage imports only the stages before it. The MkDocs entry points sit here:
`hooks.py` adds the generated pages, `main.py` renders them, `site.py` joins the stages."""
