"""Exact numbers: dice expressions (`dice`), exact distributions over integers (`dist`) and the cost
of computing them, bounded before the work (`bounds`). Nothing here knows a rule or a system."""
