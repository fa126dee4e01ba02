"""Playing a tournament's deals on Ray: an existing cluster (``--ray-address``) or a local one.

Ray is an optional extra (``pip install 'shanghai[ray]'``). Each deal is one Ray task running the
same :func:`~shanghai.tournament.runner.play_deal` as the local backend, and results are read back
in deal order, so a tournament's report is the same whatever the backend and the cluster's size.

On an existing cluster the package is shipped to the workers with the job (``py_modules``), so
the nodes need Ray and Python, not a copy of shanghai.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from shanghai.tournament.runner import DealTask, GameOutcome, play_deal


class RayUnavailableError(RuntimeError):
    """Ray is not installed, or the cluster could not be reached."""


def _ray() -> Any:
    try:
        import ray
    except ImportError as exc:
        raise RayUnavailableError("the Ray backend needs Ray, an optional extra: "
                                  "pip install 'shanghai[ray]' (or use --backend local)") from exc
    return ray


def ray_deal_results(tasks: list[DealTask], *, cpus: int | None = None,
                     address: str | None = None) -> Iterator[list[GameOutcome]]:
    """Each task's outcomes, in task order, played as Ray tasks.

    With ``address`` it joins that cluster; otherwise it starts a local Ray with ``cpus`` CPUs
    (all of the machine's by default) and stops it when the last result is read. A Ray already
    initialised in this process is used as it is and left running.
    """
    ray = _ray()
    # Ray would otherwise report usage statistics over the network; nothing leaves the machine.
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    started = False
    if not ray.is_initialized():
        options: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False,
                                   "configure_logging": False}
        if address is not None:
            package = Path(__file__).resolve().parent.parent
            options |= {"address": address, "runtime_env": {"py_modules": [str(package)]}}
        else:
            options["num_cpus"] = cpus if cpus is not None else os.cpu_count() or 1
        try:
            ray.init(**options)
        except (ConnectionError, RuntimeError, ValueError) as exc:
            where = f"the Ray cluster at {address!r}" if address else "a local Ray"
            raise RayUnavailableError(f"cannot start {where}: {exc}") from exc
        started = True
    try:
        remote_deal = ray.remote(num_cpus=1)(play_deal)
        refs = [remote_deal.remote(task) for task in tasks]
        for ref in refs:
            outcomes: list[GameOutcome] = ray.get(ref)
            yield outcomes
    finally:
        if started:
            ray.shutdown()
