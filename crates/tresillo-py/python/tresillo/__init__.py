"""Tresillo, Hombre and L'Hombre from Python: the tresillo toolkit's engine and
agents (written in Rust), with OpenSpiel and PettingZoo front ends.

>>> import tresillo
>>> game = tresillo.Game(rules="tresillo", players=3)
>>> state = game.new_initial_state(seed=1)
>>> pimc = tresillo.Agent("pimc:worlds=8")
>>> while not state.is_terminal():
...     state.apply_action(pimc.step(state))
>>> len(state.returns())
3

See docs/PYTHON.md for the action space, the observation and the integrations
(`tresillo.openspiel`, `tresillo.pettingzoo`).
"""

from ._tresillo import (
    CHANCE,
    NUM_ACTIONS,
    OBSERVATION_SIZE,
    TERMINAL,
    Agent,
    Game,
    State,
    agents,
    rule_sets,
)
from .analysis import read_deals

__all__ = [
    "CHANCE",
    "NUM_ACTIONS",
    "OBSERVATION_SIZE",
    "TERMINAL",
    "Agent",
    "Game",
    "State",
    "agents",
    "read_deals",
    "rule_sets",
]
