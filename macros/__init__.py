"""Data loading, validation and page rendering for Combat Codex (`rules_data/` → `docs/`)."""
