"""Stage 3, export: `calc/rules.json` for the engines, from the checked catalog (`rules_json`);
`python -m macros.export` writes it (`__main__`). Its names are handed on here, so the build and
the tests call `macros.export.write()`, `exported()`, `export_system()`."""

from macros.export.rules_json import OUTPUT, export_system, exported, write

__all__ = ["OUTPUT", "export_system", "exported", "write"]
