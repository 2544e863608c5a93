"""Run ALFRED's own evaluation loop (askforalfred/alfred ``models/eval/eval_task.py``) on a CPU, with
ALFRED's ``ThorEnv`` pointed at lite built as a THOR 2.1.0 build (``alfred-gen thor-build``).

The agent is a stand-in for a trained model: it answers ALFRED's model interface (``reset``,
``featurize``, ``step``, ``extract_preds``, ``has_interaction``) by playing back a demonstration's
recorded low-level actions with the interaction masks THOR recorded, so ``EvalTask.evaluate`` does
exactly what it does for a learnt agent: ``va_interact`` turns each mask into an object, and the
goal and goal conditions are ALFRED's. Swap ``PlaybackModel`` for a real checkpoint to score it.

Run from an ALFRED checkout, in an environment with ai2thor 2.1.0 and torch (eval.py imports it):

    PATH=BUILD/no-display:$PATH PYTHONPATH=.:gen:models/eval ALFRED_GEN_SCENES=alfred.json \\
        python alfred_eval_task.py BUILD/thor-lite-2.1.0 TRAJ_DATA.json...

ResNet features and the preprocessed dataset are not needed by a playback agent, so their modules
are stubbed (they would download ImageNet weights and read ALFRED's vocabulary).
"""

from __future__ import annotations

import json
import sys
import types
from typing import Any


def _stub(name: str, **attributes: Any) -> None:
    module = types.ModuleType(name)
    module.__dict__.update(attributes)
    sys.modules[name] = module


_stub("models.nn.resnet", Resnet=object)
_stub("data.preprocess", Dataset=object)

import constants  # noqa: E402  (ALFRED's gen/constants.py, as eval_task.py's ThorEnv imports it)
from env.thor_env import ThorEnv  # noqa: E402
from eval_task import EvalTask  # noqa: E402  (ALFRED's models/eval/eval_task.py, unchanged)
from utils.image_util import decompress_mask  # noqa: E402  (ALFRED's gen/utils/image_util.py)


class _Frames:
    """What ``resnet.featurize(...)`` returns; the playback agent does not look at it."""

    def unsqueeze(self, _dim: int) -> _Frames:
        return self


class NoFeatures:
    def featurize(self, _images: list[Any], batch: int = 1) -> _Frames:
        return _Frames()


class PlaybackModel:
    """ALFRED's model interface, acting out one demonstration's recorded actions and masks."""

    def __init__(self, traj: dict[str, Any]) -> None:
        self.traj = traj
        self.t = 0

    def reset(self) -> None:
        self.t = 0

    def featurize(self, _batch: list[dict[str, Any]], load_mask: bool = False) -> dict[str, Any]:
        return {}

    def step(self, _feat: dict[str, Any]) -> None:
        return None

    def has_interaction(self, action: str) -> bool:
        return action not in ("MoveAhead_25", "RotateLeft_90", "RotateRight_90", "LookUp_15", "LookDown_15",
                              EvalTask.STOP_TOKEN)

    def extract_preds(self, _out: Any, batch: list[dict[str, Any]], _feat: Any,
                      clean_special_tokens: bool = False) -> dict[str, dict[str, Any]]:
        lows = self.traj["plan"]["low_actions"]
        if self.t >= len(lows):
            return {self.traj["task_id"]: {"action_low": EvalTask.STOP_TOKEN, "action_low_mask": [None]}}
        discrete = lows[self.t]["discrete_action"]
        self.t += 1
        mask = discrete["args"].get("mask")
        masks = [decompress_mask(mask)[None]] if mask else [None]
        return {self.traj["task_id"]: {"action_low": discrete["action"], "action_low_mask": masks}}


def main(build: str, paths: list[str]) -> int:
    constants.BUILD_PATH = build
    env = ThorEnv(build_path=build)
    args = types.SimpleNamespace(max_steps=1000, max_fails=10, smooth_nav=False, debug=False,
                                 reward_config="models/config/rewards.json")
    successes: list[dict[str, Any]] = []
    failures: list[dict[str, Any]] = []
    results: dict[str, Any] = {}

    class NoLock:
        def acquire(self) -> None: ...
        def release(self) -> None: ...

    for path in paths:
        with open(path) as file:
            traj = json.load(file)
        traj.setdefault("root", path)
        EvalTask.evaluate(env, PlaybackModel(traj), 0, NoFeatures(), traj, args, NoLock(), successes, failures,
                          results)
    env.stop()
    total = len(successes) + len(failures)
    rate = 100.0 * len(successes) / max(1, total)
    conditions = sum(e["goal_condition_success"] for e in successes + failures) / max(1, total)
    print(f"ALFRED eval_task: {len(successes)} of {total} succeeded ({rate:.1f}%), "
          f"goal-condition success {100.0 * conditions:.1f}%")
    for entry in failures:
        print(f"  failed: {entry['type']} {entry['trial']} goal conditions "
              f"{entry['completed_goal_conditions']}/{entry['total_goal_conditions']}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2:]))
