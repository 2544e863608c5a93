"""The trajectory format (rung 0): ALFRED's ``traj_data.json`` in one place.

- :mod:`~alfred_gen.traj.format`: the file format (documented in its docstring), reading
  (``load_trajectory`` validates, ``parse_trajectory_json`` only parses), writing (``save_trajectory``:
  validated, atomic, ALFRED's formatting), the directory layout and its names, the JSON Schema
  ``traj_data.schema.json`` (it also accepts ALFRED's released files);
- :mod:`~alfred_gen.traj.rle`: interaction masks as ALFRED's run-length encoding, boxes and points;
- :mod:`~alfred_gen.traj.validate`: ``alfred-gen validate``.
"""
