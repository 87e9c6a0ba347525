"""What comes in: the rules data exported from `rules_data/` (`data`), a calculator's inputs checked
against their declaration (`declared`) and which of them apply (`applies`), the input to reduce when
a request costs too much (`blame`), and stat blocks read by a system's grammar (`statblock`)."""
