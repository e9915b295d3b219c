"""Futboard (and Futboard Street) as a ruleset on the Touchline core."""
