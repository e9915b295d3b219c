"""Football Leader: the ruleset for the card-and-d12 football board game (football-leader.txt)."""
