"""Scene library: procedural rooms for the embedded simulator, and importers of real ALFRED scenes."""
