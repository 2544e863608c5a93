"""ACT-Thor: before/action/after triples and contrast sets of after-images (Hanna et al., COLING 2022).

Given a before-image and an action, a model must pick the true after-image among four. The data is
collected per room, for each pickupable object, held and placed on one surface, with one after-image
per action that applies, all from the same before-state and the same spot:

- :mod:`~alfred_gen.actthor.actions`: the twelve actions, what each needs and how each is sent;
- :mod:`~alfred_gen.actthor.language`: the template sentences;
- :mod:`~alfred_gen.actthor.stage`: the room's surface and spot, and one trial's before-state;
- :mod:`~alfred_gen.actthor.collect`: one room's triples, images and record;
- :mod:`~alfred_gen.actthor.cleaning`: the paper's cleaning rules and their thresholds, in one place;
- :mod:`~alfred_gen.actthor.triples`: ``alfred-gen actthor triples`` over many rooms (workers);
- :mod:`~alfred_gen.actthor.contrast`: contrast sets and the unseen-room / unseen-object splits;
- :mod:`~alfred_gen.actthor.stats`: the paper's tables, counted on a collection;
- :mod:`~alfred_gen.actthor.sheets`: contact sheets of contrast sets for people to check.
"""
