"""Simulator backends behind one AI2-THOR-shaped interface (`lite` embedded, `thor` real)."""
