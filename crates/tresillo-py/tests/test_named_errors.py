"""Issue 56, defects 5 and 6: the legal-action mask is a NumPy array; integers
out of range, chance's actions and a binary-less installed package get named
answers."""

import os

import pytest
import tresillo
from conftest import need, run_cli


def test_legal_actions_mask_is_a_numpy_bool_array():
    np = need("numpy")
    s = tresillo.Game().new_initial_state(seed=3)
    mask = s.legal_actions_mask()
    assert isinstance(mask, np.ndarray) and mask.dtype == np.bool_
    assert np.asarray(mask, bool).shape == (tresillo.NUM_ACTIONS,)  # was () for bytes
    assert list(np.flatnonzero(mask)) == s.legal_actions()


@pytest.mark.parametrize(
    "call,words",
    [
        (lambda s: s.apply_action(2**70), "action=1180591620717411303424: expected an action id"),
        (lambda s: s.apply_action(-1), "action=-1: expected an action id"),
        (lambda s: s.apply_action(153), "action=153: expected an action id"),
        (lambda s: s.resample_from_infostate(0, seed=-1), "seed=-1: expected 0 to 2"),
        (lambda s: s.resample_from_infostate(0, seed=2**64), "seed=18446744073709551616: expected"),
        (lambda s: s.observation_tensor(2**70), "player=1180591620717411303424"),
        (lambda s: s.action_to_string(5, 0), "player 5: the table has seats 0 to 2"),
        (lambda s: s.action_to_string(0, 2**70), "expected an action id"),
        (lambda s: s.action_to_string(-1, 45), "chance's actions are the cards"),
    ],
)
def test_out_of_range_integers_are_named_value_errors(call, words):
    s = tresillo.Game().new_initial_state(seed=3)
    with pytest.raises(ValueError, match=words.replace("(", r"\(")):
        call(s)


def test_chance_actions_are_spelled_as_deals():
    s = tresillo.Game().new_initial_state()
    assert s.action_to_string(tresillo.CHANCE, 0) == "deal 1E"  # was 'play 1E'
    assert s.action_to_string(0, 0) == "play 1E"


def test_cli_parity_runs_in_an_installed_package_without_a_checkouts_binary(monkeypatch, tmp_path):
    # No TRESILLO_BIN, no target directory: the package's own `tresillo` runs.
    monkeypatch.delenv("TRESILLO_BIN", raising=False)
    monkeypatch.setenv("CARGO_TARGET_DIR", str(tmp_path))
    monkeypatch.setenv("PATH", os.defpath)
    want = tresillo.Game().new_initial_state(seed=1).deal()
    assert run_cli("deal", "--seed", "1").splitlines()[0].removeprefix("deal: ") == want
