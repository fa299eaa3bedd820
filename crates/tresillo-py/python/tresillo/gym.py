"""Tresillo as Gymnasium environments: a learner at one seat, built-in agents
(``tresillo agents``) at the others, one hand an episode.

- :class:`TresilloVectorEnv`: N hands stepped together in one call from Rust
  (``tresillo.VectorEnv``), in the shape of Gymnasium's vector API:
  observations ``(N, 416)`` float32, rewards ``(N,)`` float32, terminations and
  truncations ``(N,)`` bool, and ``infos["action_mask"]`` ``(N, 153)`` bool.
  Auto-reset in the same step (``AutoresetMode.SAME_STEP``): the step that ends
  a hand returns its reward and the next hand's first observation.
- :class:`TresilloEnv`: one hand at a time, registered as ``"tresillo/Tresillo-v0"``
  for ``gymnasium.make``; the mask is ``info["action_mask"]`` and
  ``env.action_masks()``.

>>> import gymnasium, tresillo.gym
>>> env = gymnasium.make("tresillo/Tresillo-v0", opponents="rule")
>>> obs, info = env.reset(seed=1)
>>> obs.shape, info["action_mask"].shape
((416,), (153,))

The reward is the learner's return of the hand in the rule set's unit
(tantos), 0 before its end. docs/PYTHON.md, "Vectorized environments", has the
details and the measured speed.
"""

from __future__ import annotations

try:
    import gymnasium
    import numpy as np
    from gymnasium import spaces
except ImportError as _e:  # pragma: no cover - the extra is missing
    raise ImportError(
        f"tresillo.gym needs the optional packages gymnasium and numpy ({_e}): pip install 'tresillo[gym]'"
    ) from _e

from . import _tresillo

OBSERVATION_SPACE = spaces.Box(0.0, 1.0, (_tresillo.OBSERVATION_SIZE,), np.float32)
ACTION_SPACE = spaces.Discrete(_tresillo.NUM_ACTIONS)


class TresilloVectorEnv(gymnasium.vector.VectorEnv):
    """``num_envs`` hands stepped together (see the module's docs); the other
    arguments are ``tresillo.VectorEnv``'s: ``rules``, ``players``, ``options``,
    ``seat`` (the learner's), ``opponents`` (a spec, or one per other seat),
    ``seed``, ``illegal_reward`` and ``threads``."""

    metadata = {"autoreset_mode": gymnasium.vector.AutoresetMode.SAME_STEP}

    def __init__(self, num_envs=8, copy=True, **kwargs):
        self.inner = _tresillo.VectorEnv(num_envs, **kwargs)
        self._kwargs = dict(kwargs)
        self.num_envs = num_envs
        self.copy = copy
        self.single_observation_space = OBSERVATION_SPACE
        self.single_action_space = ACTION_SPACE
        self.observation_space = gymnasium.vector.utils.batch_space(OBSERVATION_SPACE, num_envs)
        self.action_space = gymnasium.vector.utils.batch_space(ACTION_SPACE, num_envs)
        self._mask = None

    def reset(self, *, seed=None, options=None):
        """Starts a new hand in every environment: ``seed`` an int (environment
        ``i`` gets ``seed + i``) or one per environment."""
        if seed is not None:
            self._np_random, self._np_random_seed = gymnasium.utils.seeding.np_random(
                seed if isinstance(seed, int) else None
            )
        obs, self._mask = self.inner.reset(seed=seed, copy=self.copy)
        return obs, {"action_mask": self._mask}

    def step(self, actions):
        """One action per environment; returns ``(observations, rewards,
        terminations, truncations, {"action_mask": masks})``."""
        obs, rewards, terminated, truncated, self._mask = self.inner.step(np.asarray(actions), copy=self.copy)
        return obs, rewards, terminated, truncated, {"action_mask": self._mask}

    def action_masks(self):
        """The legal actions of every environment, ``(num_envs, 153)`` bool."""
        return self._mask

    def __reduce__(self):
        return (_vector_env, (self.num_envs, self.copy, self._kwargs))


def _vector_env(num_envs, copy, kwargs):
    return TresilloVectorEnv(num_envs, copy=copy, **kwargs)


class TresilloEnv(gymnasium.Env):
    """One hand an episode, the learner at ``seat`` against ``opponents``;
    ``info["action_mask"]`` (and ``action_masks()``) says which of the 153
    actions are legal. An illegal action ends the hand with
    ``illegal_reward`` (-100 by default: Gymnasium's checker samples the whole
    action space; ``None`` raises a ``ValueError`` instead)."""

    metadata = {"render_modes": []}

    def __init__(self, rules="tresillo", players=None, options=None, seat=0, opponents="rule",
                 illegal_reward=-100.0):
        self._kwargs = dict(rules=rules, players=players, options=options, seat=seat, opponents=opponents,
                            illegal_reward=illegal_reward)
        self.inner = _tresillo.VectorEnv(1, **self._kwargs)
        self.observation_space = OBSERVATION_SPACE
        self.action_space = ACTION_SPACE
        self._mask = None

    def reset(self, *, seed=None, options=None):
        """A new hand; ``seed`` makes the deals and the opponents' draws from
        there on reproducible."""
        super().reset(seed=seed)
        if seed is None:
            seed = int(self.np_random.integers(2**63))
        obs, mask = self.inner.reset(seed=seed)
        self._mask = mask[0]
        return obs[0], {"action_mask": self._mask}

    def step(self, action):
        """Plays ``action`` and the others up to the learner's next decision."""
        obs, rewards, terminated, truncated, mask = self.inner.step(np.array([action], np.int64))
        done = bool(terminated[0])
        self._mask = mask[0]
        # The hand ended: the observation returned is its end's (zeros: the
        # next hand is the next reset's).
        ob = np.zeros_like(obs[0]) if done else obs[0]
        return ob, float(rewards[0]), done, False, {"action_mask": self._mask}

    def action_masks(self):
        """The legal actions now, ``(153,)`` bool."""
        return self._mask

    def state(self):
        """The hand in progress, as a ``tresillo.State`` (a copy)."""
        return self.inner.state(0)


if "tresillo/Tresillo-v0" not in gymnasium.registry:
    # gymnasium.make("tresillo/Tresillo-v0"), and gymnasium.make_vec(...,
    # vectorization_mode="vector_entry_point") for the Rust-stepped vector.
    gymnasium.register(id="tresillo/Tresillo-v0", entry_point=TresilloEnv, vector_entry_point=TresilloVectorEnv)
