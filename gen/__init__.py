"""alfred-gen: ALFRED-style expert demonstrations, planned with PDDL and vetted by replay."""

__version__ = "0.1.0"
