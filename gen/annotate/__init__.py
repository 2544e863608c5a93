"""People's language for demonstrations: HIT pages to annotate and vote, answers imported (rung 5)."""
