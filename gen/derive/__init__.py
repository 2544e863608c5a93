"""ALFRED-L: new task structures and language perturbations derived from existing demonstrations.

ALFRED-L (Gella et al., EMNLP 2022) tests whether agents trained on ALFRED follow the language or
only ALFRED's seven fixed task structures. It keeps ALFRED's words and changes the structure:

* **NAV-ONLY** keeps only the navigation subgoals (``GotoLocation``) of a demonstration, with their
  low actions and instructions; success is ending within a distance (1.25 m) of the final position;
* **REV-1 / REV-n** append one, or two or more, navigation subgoals that walk the agent back to
  earlier destinations of the same demonstration; success is the original goal plus ending within
  the distance of the last destination walked back to;

and perturbs the language: **E1** removes directional and spatial words, **E2** drops the
step-by-step instructions and keeps the goal.

Modules: :mod:`.reverse` (the paper's reversal rule), :mod:`.source` (a source's subgoals and
destinations), :mod:`.wording` (the new instructions, in words of ALFRED's train annotations),
:mod:`.variants` (the derived plan of each variant), :mod:`.run` (``alfred-gen derive``: record,
vet, write), :mod:`.perturb` (``alfred-gen perturb``: E1 and E2).
"""
