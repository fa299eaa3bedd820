"""The vectorized environment and the Gymnasium ones (issue 56): N hands stepped
together in one call, NumPy arrays of Gymnasium's vector shapes, built-in
opponents, auto-reset, per-environment seeds; a `gymnasium.make` environment
passing Gymnasium's own checker."""

import pickle

import pytest
import tresillo
from conftest import need

np = need("numpy")


def _random_actions(mask, rng):
    scores = rng.random(mask.shape)
    scores[~mask] = -1.0
    return scores.argmax(axis=1)


def test_shapes_dtypes_and_a_hand_played_to_its_end():
    env = tresillo.VectorEnv(6, opponents="rule", seed=3)
    obs, mask = env.reset(seed=3)
    assert obs.shape == (6, tresillo.OBSERVATION_SIZE) and obs.dtype == np.float32
    assert mask.shape == (6, tresillo.NUM_ACTIONS) and mask.dtype == np.bool_
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(200):
        obs, rew, term, trunc, mask = env.step(_random_actions(mask, rng))
        assert rew.shape == term.shape == trunc.shape == (6,)
        assert rew.dtype == np.float32 and term.dtype == trunc.dtype == np.bool_
        assert not trunc.any() and (rew[~term] == 0).all()
        assert mask.any(axis=1).all()  # the learner is to move in every environment
        ended += int(term.sum())
    assert ended > 20


def test_observations_and_masks_are_the_states_own():
    env = tresillo.VectorEnv(4, players=4, seat=2, opponents=["random", "rule", "pimc:worlds=2"], seed=[5, 6, 7, 8])
    obs, mask = env.reset(seed=[5, 6, 7, 8])
    rng = np.random.default_rng(1)
    for _ in range(30):
        for i in range(4):
            s = env.state(i)
            assert s.current_player() == 2
            assert list(np.flatnonzero(mask[i])) == s.legal_actions()
            assert np.array_equal(obs[i], np.asarray(s.observation_tensor(2), np.float32))
        obs, rew, term, trunc, mask = env.step(_random_actions(mask, rng))


def test_seeds_reproduce_and_differ():
    def run(seed):
        env = tresillo.VectorEnv(3, opponents="random", seed=seed)
        obs, mask = env.reset(seed=seed)
        out = []
        for _ in range(40):
            obs, rew, term, _, mask = env.step(mask.argmax(axis=1))
            out.append((obs.copy(), rew.copy(), term.copy()))
        return out

    a, b, c = run(11), run(11), run(12)
    assert all(np.array_equal(x[0], y[0]) and np.array_equal(x[1], y[1]) for x, y in zip(a, b))
    assert not all(np.array_equal(x[0], y[0]) for x, y in zip(a, c))
    # Environment i with seed s+i plays as a one-environment vector seeded s+i.
    env3 = tresillo.VectorEnv(3, opponents="random")
    env1 = tresillo.VectorEnv(1, opponents="random")
    o3, _ = env3.reset(seed=20)
    o1, _ = env1.reset(seed=22)
    assert np.array_equal(o3[2], o1[0])


def test_threads_step_alike():
    rng = np.random.default_rng(2)
    one = tresillo.VectorEnv(200, opponents="rule", seed=1)
    two = tresillo.VectorEnv(200, opponents="rule", seed=1, threads=2)
    _, m1 = one.reset(seed=1)
    _, m2 = two.reset(seed=1)
    for _ in range(20):
        a = _random_actions(m1, rng)
        o1, r1, t1, _, m1 = one.step(a)
        o2, r2, t2, _, m2 = two.step(a)
        assert np.array_equal(o1, o2) and np.array_equal(r1, r2) and np.array_equal(m1, m2)


def test_bad_input_is_named():
    env = tresillo.VectorEnv(2, seed=1)
    _, mask = env.reset()
    with pytest.raises(ValueError, match="environment 0: .*not legal"):
        env.step(np.array([np.flatnonzero(~mask[0])[0], mask[1].argmax()]))
    with pytest.raises(ValueError, match="actions: 3 for 2 environments"):
        env.step([0, 0, 0])
    with pytest.raises(ValueError, match=r"opponent \"nobody\""):
        tresillo.VectorEnv(2, opponents="nobody")
    with pytest.raises(ValueError, match="2 agents for the 3 other seats"):
        tresillo.VectorEnv(2, players=4, opponents=["rule", "rule"])
    with pytest.raises(ValueError, match="num_envs=0"):
        tresillo.VectorEnv(0)
    ended = tresillo.VectorEnv(1, seed=1, illegal_reward=-50.0)
    _, mask = ended.reset()
    _, rew, term, _, _ = ended.step([np.flatnonzero(~mask[0])[0]])
    assert rew[0] == -50.0 and term[0]


def test_gymnasium_vector_env_and_make():
    gym = need("gymnasium")
    import tresillo.gym as tg

    venv = tg.TresilloVectorEnv(4, opponents="rule", seed=0)
    obs, info = venv.reset(seed=0)
    assert obs.shape == (4, 416) and info["action_mask"].shape == (4, 153)
    assert venv.single_observation_space.contains(obs[0])
    obs, rew, term, trunc, info = venv.step(info["action_mask"].argmax(axis=1))
    assert venv.observation_space.shape == (4, 416) and venv.action_space.shape == (4,)
    assert pickle.loads(pickle.dumps(venv)).num_envs == 4
    made = gym.make_vec("tresillo/Tresillo-v0", num_envs=3, vectorization_mode="vector_entry_point")
    assert made.reset(seed=1)[0].shape == (3, 416)

    env = gym.make("tresillo/Tresillo-v0", opponents="random")
    obs, info = env.reset(seed=4)
    total, done = 0.0, False
    while not done:
        obs, r, done, trunc, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        total += r
    assert env.observation_space.contains(obs)


def test_gymnasium_check_env_passes():
    gym = need("gymnasium")
    import tresillo.gym  # noqa: F401 - registers the environment
    from gymnasium.utils.env_checker import check_env

    check_env(gym.make("tresillo/Tresillo-v0").unwrapped, skip_render_check=True)
