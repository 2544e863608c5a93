"""Embodied Question Answering (EQA) data: questions by functional programs, an entropy filter, and
shortest-path expert navigation (``alfred-gen eqa``).

The pieces, in the order the data flows:

- :mod:`.vocabulary` (and ``vocabulary.json``): THOR types to question words, merges, blacklists;
- :mod:`.colors`: naming an object's colour from its pixels (CIELAB, nearest by ΔE);
- :mod:`.views`: the pose that best shows an object (most of its pixels);
- :mod:`.facts`: what the programs read about a home: rooms, named objects, boxes, views, colours;
- :mod:`.relations`: on / above / below / next to, and distances, from boxes;
- :mod:`.programs`: the nine templates as programs of elementary operations;
- :mod:`.entropy`: the answer-entropy filter over all homes;
- :mod:`.splits`: train / val / test by home;
- :mod:`.questions`: ``eqa questions``; :mod:`.stats` and :mod:`.charts`: ``eqa stats``;
- :mod:`.geodesic` and :mod:`.paths`: ``eqa paths``, the expert trajectories.
"""
