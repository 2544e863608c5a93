"""Reading trajectories for training: :class:`AlfredDataset`, a PyTorch-style dataset over ALFRED's layout."""

from alfred_gen.data.dataset import AlfredDataset, Episode

__all__ = ["AlfredDataset", "Episode"]
