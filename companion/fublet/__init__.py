"""Fublet - Legends of Football: the first complete ruleset on the Touchline core."""
