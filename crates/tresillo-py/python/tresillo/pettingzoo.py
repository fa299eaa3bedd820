"""Tresillo as a PettingZoo AEC environment (the optional extra
``tresillo[pettingzoo]``).

>>> from tresillo.pettingzoo import env
>>> e = env(rules="tresillo", players=3)
>>> e.reset(seed=1)
>>> for agent in e.agent_iter():
...     obs, reward, termination, truncation, info = e.last()
...     action = None if termination or truncation else e.action_space(agent).sample(obs["action_mask"])
...     e.step(action)

One episode is one hand. Each observation is a dict: ``observation``, the seat's
tensor (``tresillo.State.observation_tensor``, only what it may know), and
``action_mask``, 1 at the legal actions of the seat to move (all 0 for the
others). The reward of every seat comes at the end of the hand: its result in
the rule set's unit. ``reset(seed=s)`` draws the deal and the dealer from ``s``.
"""

from __future__ import annotations

import warnings as _warnings

try:
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as _e:
    raise ImportError(
        f"tresillo.pettingzoo needs the optional packages pettingzoo, gymnasium and numpy ({_e}): "
        "pip install 'tresillo[pettingzoo]'"
    ) from _e

from . import _tresillo


class raw_env(AECEnv):  # noqa: N801 - PettingZoo's naming
    """The AEC environment (see the module docs)."""

    metadata = {"render_modes": ["ansi", "human"], "name": "tresillo_v0", "is_parallelizable": False}

    def __init__(self, rules="tresillo", players=3, options=None, render_mode=None):
        super().__init__()
        self.game = _tresillo.Game(rules=rules, players=players, options=options or {})
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.action_spaces = {a: spaces.Discrete(_tresillo.NUM_ACTIONS) for a in self.possible_agents}
        obs = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (_tresillo.OBSERVATION_SIZE,), np.float32),
                "action_mask": spaces.Box(0, 1, (_tresillo.NUM_ACTIONS,), np.int8),
            }
        )
        self.observation_spaces = {a: obs for a in self.possible_agents}
        # The global state of `state()`: every seat's observation, in seat order.
        self.state_space = spaces.Box(0.0, 1.0, (players * _tresillo.OBSERVATION_SIZE,), np.float32)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode={render_mode!r}: expected one of {self.metadata['render_modes']} or None")
        self.render_mode = render_mode
        self.hand = None
        self._rng = np.random.default_rng()

    def observation_space(self, agent):
        """The observation space (the same for every seat)."""
        return self.observation_spaces[agent]

    def action_space(self, agent):
        """The fixed action space (docs/PYTHON.md)."""
        return self.action_spaces[agent]

    def _seat(self, agent):
        return self.possible_agents.index(agent)

    def observe(self, agent):
        """What ``agent``'s seat may know, with its action mask."""
        seat = self._seat(agent)
        mask = np.zeros(_tresillo.NUM_ACTIONS, np.int8)
        if self.hand.current_player() == seat:
            mask[self.hand.legal_actions()] = 1
        tensor = np.asarray(self.hand.observation_tensor(seat), np.float32)
        return {"observation": tensor, "action_mask": mask}

    def reset(self, seed=None, options=None):
        """A new hand: its deal and dealer drawn from ``seed``."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        deal_seed = int(self._rng.integers(0, 2**63))
        dealer = int(self._rng.integers(0, self.game.players))
        self.hand = self.game.new_initial_state(seed=deal_seed, dealer=dealer)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.hand.current_player()]

    def step(self, action):
        """Plays ``action`` for the agent to move (a ``ValueError`` names the seat,
        the action and the legal ones when it is not legal)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self.hand.apply_action(int(action))
        self._cumulative_rewards[agent] = 0.0
        if self.hand.is_terminal():
            for a, r in zip(self.possible_agents, self.hand.returns()):
                self.rewards[a] = float(r)
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self.agent_selection = self.possible_agents[self.hand.current_player()]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self):
        """The hand as text: returned in render mode ``ansi``, printed (and
        ``None`` returned) in mode ``human``, as PettingZoo defines them."""
        if self.render_mode is None:
            _warnings.warn("render() without a render_mode: pass render_mode='ansi' or 'human'", stacklevel=2)
            return None
        text = str(self.hand)
        if self.render_mode == "human":
            print(text)  # noqa: T201 - the human render mode prints
            return None
        return text

    def state(self):
        """The global state (PettingZoo's ``state()``, for centralized training):
        every seat's observation tensor in seat order, ``players * 416`` floats
        (``state_space``). The heap's hidden order is not in it."""
        n = self.game.players
        return np.concatenate([np.asarray(self.hand.observation_tensor(p), np.float32) for p in range(n)])

    def close(self):
        """Nothing to release."""


def env(rules="tresillo", players=3, options=None, render_mode=None):
    """The AEC environment wrapped as PettingZoo's classic games are (an illegal
    action is an error, the order of calls is checked)."""
    e = raw_env(rules=rules, players=players, options=options, render_mode=render_mode)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e
