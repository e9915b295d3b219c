"""The Fußball-Liga variant rules as a Touchline ruleset (see rules.py)."""
