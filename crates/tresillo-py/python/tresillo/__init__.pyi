"""Type stubs of the package `tresillo` (see docs/PYTHON.md)."""

import os
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

from ._tresillo import (
    __version__ as __version__,
    LONG_VERSION as LONG_VERSION,
    CHANCE as CHANCE,
    NUM_ACTIONS as NUM_ACTIONS,
    OBSERVATION_SIZE as OBSERVATION_SIZE,
    INFORMATION_STATE_SIZE as INFORMATION_STATE_SIZE,
    TERMINAL as TERMINAL,
    Agent as Agent,
    Game as Game,
    SeatView as SeatView,
    State as State,
    VectorEnv as VectorEnv,
    World as World,
    agents as agents,
    rule_sets as rule_sets,
    register_rule_set as register_rule_set,
)

def read_deals(run_dir: Union[str, "os.PathLike[str]"]) -> Any: ...
def read_dataset(path: Union[str, "os.PathLike[str]"]) -> Dict[str, Any]: ...
def read_pairs(run_dir: Union[str, "os.PathLike[str]"]) -> List[Dict[str, Any]]: ...
def read_sprt(sprt_dir: Union[str, "os.PathLike[str]"]) -> Dict[str, Any]: ...
def tournament(
    agents: Sequence[Union[str, Agent, Callable[[SeatView], int], Tuple[str, Union[Agent, Callable[[SeatView], int]]]]],
    deals: int,
    out: Union[str, "os.PathLike[str]"],
    duplicate: bool = False,
    rules: str = "tresillo",
    players: Optional[int] = None,
    options: Optional[Dict[str, Union[str, bool, int]]] = None,
    seed: int = 1,
    scoring: str = "deal",
    shard: Optional[str] = None,
    threads: Optional[int] = None,
    resume: bool = False,
    force: bool = False,
    record: Optional[Union[str, "os.PathLike[str]"]] = None,
    progress: bool = False,
    bidding: Optional[str] = None,
    ms_per_decision: Optional[int] = None,
    format: str = "csv",
    bidding_covers: Optional[str] = None,
) -> List[Dict[str, str]]: ...
