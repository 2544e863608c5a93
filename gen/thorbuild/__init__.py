"""lite as a THOR build: an executable that ai2thor's own ``Controller`` launches as its Unity build.

ai2thor's ``Controller`` starts whatever ``local_executable_path`` names and then speaks a small
protocol with it (5.x: msgpack fields over two named pipes; 2.1.0: HTTP). This package is the
build's end of that protocol, answering every action with lite:

* :mod:`~alfred_gen.thorbuild.write` writes the executable (``alfred-gen thor-build``): a short
  script that runs ``python -m alfred_gen.thorbuild`` with the interpreter that wrote it, plus a
  marker file saying which ai2thor line it speaks;
* :mod:`~alfred_gen.thorbuild.session` keeps one lite simulator and turns each incoming action
  (that line's dialect) into a lite action, and lite's answer into that line's metadata layout;
* :mod:`~alfred_gen.thorbuild.fifo` is 5.x's wire (ai2thor/fifo_server.py is the other end).

So code written for THOR (ALFRED's ``ThorEnv``, ALFWorld, ``--backend thor``) runs on a CPU, and
ai2thor's own start-up, protocol and event-parsing code is exercised end to end.
"""
