"""What comes in: the rules data exported from `rules_data/` (`data`), a calculator's inputs checked
against their declaration (`declared`) and which of them apply (`applies`), and stat blocks read by a
system's grammar (`statblock`)."""
