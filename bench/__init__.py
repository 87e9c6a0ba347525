"""Start-up benchmark: `python -m bench` (or `make bench`). See bench/__main__.py."""
