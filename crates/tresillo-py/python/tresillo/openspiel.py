"""Tresillo as an OpenSpiel game: importing this module registers
``python_tresillo`` with ``pyspiel``.

>>> import pyspiel, tresillo.openspiel
>>> game = pyspiel.load_game("python_tresillo", {"rules": "hombre", "players": 3})

Parameters: ``rules`` (a rule set of ``tresillo rules``), ``players`` (3 or 4),
``options`` (``"key:value;key:value"``, the options of ``tresillo rules``;
``"key=value,key=value"`` is read too in a parameter dict) and ``dealer`` (the
dealing seat). ``str(game)`` holds the options in the first form, so that
``pyspiel.load_game(str(game))``, ``pickle`` and ``deepcopy`` round-trip. The
pack is dealt by 40 explicit chance actions; the action space, the observation
tensor, the perfect-recall information-state tensor (for deep CFR, NFSP) and
the information-state string are the package's own
(docs/PYTHON.md). ``resample_from_infostate`` draws from the exact sampler of
the search agents, so OpenSpiel's Python ``ISMCTSBot`` can play it.

OpenSpiel's ``evaluate_bots`` calls ``restart_at`` on every bot, which its
Python ``ISMCTSBot`` and ``MCTSBot`` lack: pass them through
:func:`restartable`. OpenSpiel's C++ bots over Python games (``pyspiel.ISMCTSBot``,
``pyspiel.MCTSBot``) crash the interpreter on any Python game; use the Python ones.
"""

from __future__ import annotations

try:
    import numpy as np
    import pyspiel
except ImportError as _e:
    raise ImportError(
        f"tresillo.openspiel needs the optional packages open_spiel and numpy ({_e}): "
        "pip install 'tresillo[openspiel]'"
    ) from _e

from . import _tresillo

_DEFAULTS = {"rules": "tresillo", "players": 3, "options": "", "dealer": 0}

_GAME_TYPE = pyspiel.GameType(
    short_name="python_tresillo",
    long_name="Python Tresillo (Hombre, L'Hombre)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4,
    min_num_players=3,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULTS,
)


def _options(text: str) -> dict:
    out = {}
    for part in filter(None, (p.strip() for p in text.replace(";", ",").split(","))):
        sep = ":" if ":" in part else "="
        key, found, value = part.partition(sep)
        if not found:
            raise ValueError(f"options: {part!r} is not key:value")
        out[key.strip()] = value.strip()
    return out


def restartable(bot):
    """``bot`` with a ``restart_at(state)`` that does nothing when it has none
    (OpenSpiel's Python ``ISMCTSBot`` and ``MCTSBot`` search afresh at every
    step), so that ``evaluate_bots`` can use it. Returns ``bot``.

    >>> import numpy as np, pyspiel, tresillo.openspiel
    >>> from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts
    >>> game = pyspiel.load_game("python_tresillo")
    >>> bot = restartable(ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1), 1.0, 10))
    >>> bots = [bot, restartable(ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1), 1.0, 10)), bot]
    >>> len(evaluate_bots.evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(1)))
    3
    """
    own = getattr(type(bot), "restart_at", None)
    if own is None or own is getattr(pyspiel.Bot, "restart_at", None):
        bot.restart_at = lambda state: None
    return bot


class TresilloGame(pyspiel.Game):
    """The OpenSpiel game over ``tresillo.Game``."""

    def __init__(self, params=None):
        p = dict(_DEFAULTS)
        p.update(params or {})
        self.inner = _tresillo.Game(rules=p["rules"], players=int(p["players"]), options=_options(p["options"]))
        self.dealer = int(p["dealer"])
        players = self.inner.players
        # The largest swing of one hand (a bola with every condición, or a
        # hombre-chips pool, whose antes grow with `ante`) stays well inside these bounds.
        ante = int(dict(self.inner.options).get("ante", 5))
        bound = max(1000.0, 100.0 * ante)
        info = pyspiel.GameInfo(
            num_distinct_actions=_tresillo.NUM_ACTIONS,
            max_chance_outcomes=40,
            num_players=players,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=None,
            max_game_length=_tresillo.Game.max_game_length() + 40,
        )
        # The options in the form that survives OpenSpiel's game strings.
        p["options"] = ";".join(f"{k}:{v}" for k, v in self.inner.options)
        super().__init__(_GAME_TYPE, info, p)
        self._params = p

    def __reduce__(self):
        # Pickled as its parameters and built afresh (pyspiel's own pickling
        # restores the C++ part only, without `inner`).
        return (TresilloGame, (dict(self._params),))

    def __deepcopy__(self, memo):
        return TresilloGame(dict(self._params))

    def __copy__(self):
        return self

    def new_initial_state(self):
        """A new hand, starting with the deal by chance."""
        return TresilloState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        """The observer: the observation tensor, or under perfect recall the
        information-state tensor (the observation, then the actions since the
        deal: docs/PYTHON.md); the information-state string for both."""
        return TresilloObserver(iig_obs_type, params)


class TresilloState(pyspiel.State):
    """An OpenSpiel state over ``tresillo.State``."""

    def __init__(self, game, inner=None):
        super().__init__(game)
        self.inner = inner if inner is not None else game.inner.new_initial_state(dealer=game.dealer)

    def __reduce__(self):
        # Pickled as its game and its history, replayed when unpickled.
        return (_state_from_history, (self.get_game(), [int(a) for a in self.inner.history()]))

    def __deepcopy__(self, memo):
        return self.clone()

    def current_player(self):
        """The seat to move, or pyspiel's CHANCE or TERMINAL."""
        p = self.inner.current_player()
        if p == _tresillo.CHANCE:
            return pyspiel.PlayerId.CHANCE
        if p == _tresillo.TERMINAL:
            return pyspiel.PlayerId.TERMINAL
        return p

    def _legal_actions(self, player):
        return self.inner.legal_actions()

    def chance_outcomes(self):
        """The cards not yet dealt, uniformly."""
        return self.inner.chance_outcomes()

    def _apply_action(self, action):
        self.inner.apply_action(int(action))

    def _action_to_string(self, player, action):
        return self.inner.action_to_string(player, int(action))

    def is_terminal(self):
        """Whether the hand is over."""
        return self.inner.is_terminal()

    def returns(self):
        """Each seat's result in the rule set's unit (zeros before the end)."""
        return self.inner.returns()

    def resample_from_infostate(self, player_id, probability_sampler):
        """A state the player cannot tell from this one (see the module docs)."""
        seed = int(probability_sampler() * 2**63) if callable(probability_sampler) else 0
        clone = self.clone()
        clone.inner = self.inner.resample_from_infostate(player_id, seed)
        return clone

    def __str__(self):
        return str(self.inner)


def _state_from_history(game, history):
    """The state of ``game`` that ``history`` reaches (unpickling)."""
    state = game.new_initial_state()
    for a in history:
        state.apply_action(a)
    return state


class TresilloObserver:
    """The observer of the PyObserver interface (see pyspiel's observation.py)."""

    def __init__(self, iig_obs_type, params):
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        self.perfect_recall = bool(iig_obs_type and iig_obs_type.perfect_recall)
        size = _tresillo.INFORMATION_STATE_SIZE if self.perfect_recall else _tresillo.OBSERVATION_SIZE
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"info_state" if self.perfect_recall else "observation": self.tensor}

    def set_from(self, state, player):
        """Fills the tensor with what ``player`` may know."""
        if self.perfect_recall:
            self.tensor[:] = state.inner.information_state_tensor(player)
        else:
            self.tensor[:] = state.inner.observation_tensor(player)

    def string_from(self, state, player):
        """The information-state string of ``player``."""
        return state.inner.information_state_string(player)


pyspiel.register_game(_GAME_TYPE, TresilloGame)
