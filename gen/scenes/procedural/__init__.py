"""The 120 procedural rooms ``LitePlanN`` (deterministic per scene number): room shapes
(:mod:`~alfred_gen.scenes.procedural.rooms`), furniture (``furnish`` and one module per room type),
small objects (``populate``, ``surfaces``, ``vocab``), and :func:`~alfred_gen.scenes.procedural.build.build_scene`."""
