"""What a run shows the user: the progress bar while it runs, and the summary and exit code at the end.

Every long command must show progress and end with a summary (made, failed by reason, time); this
module is the one place that wording and the exit-code verdict live, so the CLI and Python callers
report a run the same way.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from alfred_gen.errors import ExitCode, JobError


@dataclass
class RunSummary:
    """What a run did, for the final lines and the exit code."""

    target: int
    made_before: int
    made_now: int = 0
    failures: Counter = field(default_factory=Counter)
    failed_tuples: int = 0
    seconds: float = 0.0
    exhausted: bool = False
    interrupted: bool = False
    crashed: bool = False
    examples: dict[str, str] = field(default_factory=dict)  #: first detail seen per failure reason
    phase_seconds: Counter = field(default_factory=Counter)  #: generator time per phase, all jobs
    short: int = 0  #: trials no feasible tuple was left for
    left_open: int = 0  #: trials of groups stopped because a job kept raising (the next run tries again)
    repaired: int = 0  #: planned trials found damaged on disk and made again
    deaths: int = 0  #: worker processes that died while running a job (replaced; the job ran again)
    foreign: int = 0  #: trial directories in the output that are not in this run's plan (left alone)

    @property
    def made(self) -> int:
        return self.made_before + self.made_now

    @property
    def per_minute(self) -> float:
        return 60.0 * self.made_now / self.seconds if self.seconds > 0 else 0.0

    def exit_code(self) -> ExitCode:
        if self.interrupted:
            return ExitCode.INTERRUPTED
        if self.crashed:
            return ExitCode.INTERNAL
        return ExitCode.OK if self.made >= self.target else ExitCode.FAILED

    def lines(self) -> list[str]:
        out = [
            f"made {self.made_now} trajectories in {self.seconds:.1f} s ({self.per_minute:.1f} per minute); "
            f"{self.made} of {self.target} in the output"
        ]
        total_failed = sum(self.failures.values())
        if total_failed:
            reasons = ", ".join(f"{reason} {count}" for reason, count in sorted(self.failures.items(),
                                                                                 key=lambda kv: (-kv[1], kv[0])))
            out.append(f"failed {total_failed} attempts: {reasons}")
            if JobError.EXCEPTION in self.examples:
                out.append(f"first exception: {self.examples['exception']}")
        else:
            out.append("failed 0 attempts")
        if self.failed_tuples:
            one = self.failed_tuples == 1
            out.append(f"{self.failed_tuples} {'tuple' if one else 'tuples'} failed {'its' if one else 'their'} "
                       f"tries without a trajectory (recorded; {'its group' if one else 'their groups'} went on "
                       "with other tuples)")
        if self.deaths:
            out.append(f"{self.deaths} worker processes died during a job and were replaced")
        if self.repaired:
            out.append(f"{self.repaired} damaged trials were made again")
        if self.foreign:
            out.append(f"{self.foreign} trial directories in the output are not in this run's plan "
                       "(another seed, other options or a larger --n): left alone, not counted")
        if self.crashed:
            out.append("stopped: generation keeps raising exceptions (a bug in alfred-gen; please report it)")
        elif self.interrupted:
            out.append("interrupted: finished trajectories are kept; run the same command to continue")
        elif self.left_open:
            out.append(f"stopped short by {self.left_open}: a job raised on each of its tries (a bug in alfred-gen, "
                       "or the machine: see the first exception); run the same command to try it again")
        elif self.made < self.target:
            out.append(f"stopped early: no feasible task tuple is left to try ({self.made} of {self.target})")
        elif self.made_now == 0:
            out.append("nothing left to do")
        return out
