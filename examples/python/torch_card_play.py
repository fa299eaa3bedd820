#!/usr/bin/env python3
"""A PyTorch card-play policy trained against `rule` through tresillo.VectorEnv.

It is then measured in rule's place on duplicate deals (docs/PYTHON.md, "A
PyTorch policy against rule in card play").

    pip install torch numpy
    python examples/python/torch_card_play.py reinforce --out policy.pt
    python examples/python/torch_card_play.py evaluate policy.pt --deals 3000
    python examples/python/torch_card_play.py imitate --teacher oracle --out oracle-clone.pt

The learner sits at one seat of every hand of a `VectorEnv` against two `rule`
opponents. It plays its cards; its auction, contract, exchange, conversation and
the play phase's questions (surrender, take over, bola) are `rule`'s, as in a
tournament with `--bidding rule` ("card play alone"). Every network here reads
the seat's 416-value observation tensor and gives a softmax over the legal cards
(the others masked off); none sees a card its seat cannot see.

`reinforce`: a residual policy (Silver et al. 2018, "Residual policy learning"):
the logits are BETA at the card `rule` would play plus a network's correction,
which starts at zero (so training starts from rule's play, sampled at the
softmax's temperature), learned by REINFORCE against the two rule opponents, the
advantage being the hand's return minus a learned value (a second head). The
network also reads rule's card (40 values). Played greedily, it is rule wherever
the correction stays below BETA.

`imitate`: a network alone, trained by DAgger (Ross et al. 2011) to play the
card a teacher names at each of the learner's card decisions (`oracle`, which
sees every hand; or a fair searcher such as `lpimc:worlds=16:threads=1`): round
0 plays the teacher's cards, later rounds the network's own, and after each
round it is trained on every label so far (cross-entropy over the legal cards).

`evaluate`: for each deal seed (the first hand of a `VectorEnv` lane of that
seed) and each seat, the hand is played twice, once with the policy's cards
(greedy), once with `rule`'s, every other seat and decision being rule's in
both; the difference per deal (the mean over the three seats) gives the mean and
its 95% interval. Evaluation seeds (from --seed, 10**9 by default) are not those
training dealt from (lanes seeded 1 to --envs, and 5*10**8 on for --check-deals;
each lane deals its hands from its seed by a hash).

`--help` needs neither PyTorch nor the package; without PyTorch the commands
stop with one line saying what to install.
"""

import argparse
import os
import sys
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

CARDS = 40
OBS = 416


def need_torch():
    """torch, or exit with one line saying what to install."""
    try:
        import torch
    except ImportError:
        sys.exit("error: this example needs PyTorch: pip install torch (CPU is enough)")
    return torch


def card_decisions(mask):
    """Which rows are card plays (a card legal and nothing else): the policy's decisions."""
    return mask[:, :CARDS].any(axis=1) & ~mask[:, CARDS:].any(axis=1)


class Play:
    """Plays the learner's seat of every lane of a VectorEnv: `rule` for every
    decision but the cards, `cards(rows, obs, mask, rule_cards)` for the cards
    (`rule_cards`: the card rule would play in each row)."""

    def __init__(self, env, tresillo):
        self.env = env
        self.rule = tresillo.Agent("rule")

    def actions(self, obs, mask, cards, done=None):
        """One action per lane; `done` lanes (finished, ignored) take their lowest legal id."""
        import numpy as np

        card = card_decisions(mask)
        act = mask.argmax(axis=1).astype(np.int64)
        live = np.ones(len(mask), bool) if done is None else ~done
        rows = np.flatnonzero(live & card)
        rule_cards = np.zeros(len(rows), np.int64)
        for i in np.flatnonzero(live):
            a = self.rule.step(self.env.state(int(i)))
            if card[i]:
                rule_cards[np.searchsorted(rows, i)] = a
            else:
                act[i] = a
        if len(rows):
            act[rows] = cards(rows, obs[rows], mask[rows, :CARDS], rule_cards, self.env)
        return act


class Policy:
    """The networks of both methods: an MLP trunk over the observation (and,
    residual, rule's card one-hot), 40 card logits and a value."""

    def __init__(self, torch, hidden, residual, beta):
        self.torch, self.hidden, self.residual, self.beta = torch, hidden, residual, beta
        nn = torch.nn
        layers, size = [], OBS + (CARDS if residual else 0)
        for h in hidden:
            layers += [nn.Linear(size, h), nn.ReLU()]
            size = h
        self.trunk = nn.Sequential(*layers)
        self.logits = nn.Linear(size, CARDS)
        self.value = nn.Linear(size, 1)
        if residual:  # the correction starts at zero: rule's play
            nn.init.zeros_(self.logits.weight)
            nn.init.zeros_(self.logits.bias)
        self.modules = nn.ModuleDict({"trunk": self.trunk, "logits": self.logits, "value": self.value})

    def forward(self, obs, mask, rule_cards):
        """(masked logits, value) for numpy or torch inputs."""
        torch = self.torch
        x = torch.as_tensor(obs)
        one = torch.nn.functional.one_hot(torch.as_tensor(rule_cards), CARDS).float()
        if self.residual:
            x = torch.cat([x, one], dim=1)
        h = self.trunk(x)
        logits = self.logits(h)
        if self.residual:
            logits = logits + self.beta * one
        return logits.masked_fill(~torch.as_tensor(mask), -1e9), self.value(h).squeeze(1)

    def greedy(self, rows, obs, mask, rule_cards, env=None):
        with self.torch.no_grad():
            return self.forward(obs, mask, rule_cards)[0].argmax(dim=1).numpy()

    def save(self, path, command):
        self.torch.save({"hidden": self.hidden, "residual": self.residual, "beta": self.beta,
                         "state_dict": self.modules.state_dict(), "command": command}, path)

    @staticmethod
    def load(torch, path):
        s = torch.load(path, weights_only=True)
        p = Policy(torch, s["hidden"], s["residual"], s["beta"])
        p.modules.load_state_dict(s["state_dict"])
        return p


def play_hands(tresillo, cards, seeds, seat, envs):
    """The learner's return in the first hand of each seed's lane, at `seat`;
    `cards` None: rule's cards."""
    import numpy as np

    if cards is None:
        def cards(rows, obs, mask, rule_cards, env):
            return rule_cards
    out = np.zeros(len(seeds))
    for k in range(0, len(seeds), envs):
        batch = [int(s) for s in seeds[k : k + envs]]
        env = tresillo.VectorEnv(len(batch), opponents="rule", seat=seat, seed=batch)
        play = Play(env, tresillo)
        obs, mask = env.reset(seed=batch)
        done = np.zeros(len(batch), bool)
        while not done.all():
            obs, rew, term, _, mask = env.step(play.actions(obs, mask, cards, done))
            new = term & ~done
            out[k + np.flatnonzero(new)] = rew[new]
            done |= term
    return out


def duplicate(tresillo, cards, deals, seed, envs):
    """Per deal: the mean over the three seats of (policy's return - rule's)."""
    import numpy as np

    seeds = np.arange(seed, seed + deals, dtype=np.uint64)
    mine = np.mean([play_hands(tresillo, cards, seeds, s, envs) for s in range(3)], axis=0)
    base = np.mean([play_hands(tresillo, None, seeds, s, envs) for s in range(3)], axis=0)
    return mine - base, mine, base


def summary(d):
    """mean [95% interval] of a paired difference per deal."""
    import numpy as np

    h = 1.96 * d.std(ddof=1) / np.sqrt(len(d))
    return f"{d.mean():+.3f} [{d.mean() - h:+.3f}, {d.mean() + h:+.3f}]"


def sample(p, rng):
    """One index per row of probabilities `p`."""
    import numpy as np

    u = rng.random((len(p), 1)) * p.sum(axis=1, keepdims=True)
    return np.minimum((p.cumsum(axis=1) < u).sum(axis=1), p.shape[1] - 1)


def reinforce(a):
    torch = need_torch()
    import numpy as np
    import tresillo

    torch.manual_seed(a.seed)
    torch.set_num_threads(a.threads)
    rng = np.random.default_rng(a.seed)
    pol = Policy(torch, [int(h) for h in a.hidden.split(",")], True, a.beta)
    opt = torch.optim.Adam(pol.modules.parameters(), lr=a.lr)
    env = tresillo.VectorEnv(a.envs, opponents="rule", seed=a.seed)
    play = Play(env, tresillo)
    obs, mask = env.reset(seed=a.seed)
    pending = [[] for _ in range(a.envs)]  # per lane: its hand's decisions so far
    done = []  # (obs, mask, rule card, action, return) of finished hands
    hands, returns, t0 = 0, [], time.perf_counter()

    def cards(rows, o, m, rc, env):
        with torch.no_grad():
            logits, _ = pol.forward(o, m, rc)
        act = sample(torch.softmax(logits / a.temp, dim=1).double().numpy(), rng)
        for k, i in enumerate(rows):
            pending[i].append((o[k], m[k], rc[k], act[k]))
        return act

    step = 0
    while hands < a.hands and (not a.minutes or time.perf_counter() - t0 < a.minutes * 60):
        obs, rew, term, _, mask = env.step(play.actions(obs, mask, cards))
        for i in np.flatnonzero(term):
            done.extend((*d, rew[i]) for d in pending[i])
            pending[i] = []
            hands += 1
            returns.append(float(rew[i]))
        if len(done) < a.batch:
            continue
        o, m, rc, act, g = (np.array(c) for c in zip(*done))
        done = []
        logits, v = pol.forward(o, m, rc)
        logp = torch.log_softmax(logits / a.temp, dim=1)
        g = torch.as_tensor(g, dtype=torch.float32) / a.scale
        adv = (g - v).detach()
        chosen = logp.gather(1, torch.as_tensor(act).unsqueeze(1)).squeeze(1)
        p = logp.exp()
        entropy = -(p * logp.clamp(min=-30)).sum(1).mean()
        loss = -(adv * chosen).mean() + a.value_coef * ((v - g) ** 2).mean() - a.entropy * entropy
        opt.zero_grad()
        loss.backward()
        opt.step()
        step += 1
        if step % a.report == 0:
            line = (f"update {step}: {hands:,} hands, mean return of the last {len(returns[-20000:]):,} "
                    f"{np.mean(returns[-20000:]):+.3f}, {time.perf_counter() - t0:.0f} s")
            if a.check_deals:
                d, _, _ = duplicate(tresillo, pol.greedy, a.check_deals, a.check_seed, 500)
                line += f"; greedy against rule in its place ({a.check_deals} deals) {summary(d)}"
            print(line, flush=True)
    pol.save(a.out, "python " + " ".join(sys.argv))
    print(f"{hands:,} hands in {time.perf_counter() - t0:.0f} s; wrote {a.out} ({os.path.getsize(a.out):,} bytes)")


def imitate(a):
    torch = need_torch()
    import numpy as np
    import tresillo

    torch.manual_seed(a.seed)
    torch.set_num_threads(a.threads)
    gen = torch.Generator().manual_seed(a.seed)
    rng = np.random.default_rng(a.seed)
    pol = Policy(torch, [int(h) for h in a.hidden.split(",")], False, 0.0)
    opt = torch.optim.Adam(pol.modules.parameters(), lr=a.lr)
    env = tresillo.VectorEnv(a.envs, opponents="rule", seed=a.seed)
    play = Play(env, tresillo)
    teacher = tresillo.Agent(a.teacher)
    obs, mask = env.reset(seed=a.seed)
    X, M, Y = [], [], []
    t0 = time.perf_counter()
    for r in range(a.rounds):
        n = 0

        def cards(rows, o, m, rc, env):
            labels = np.array([teacher.step(env.state(int(i))) for i in rows], np.int64)
            X.append(o)
            M.append(m)
            Y.append(labels)
            if r == 0:
                return labels
            with torch.no_grad():
                logits, _ = pol.forward(o, m, rc)
            return sample(torch.softmax(logits, dim=1).double().numpy(), rng)

        while n < a.decisions:
            obs, _, _, _, mask = env.step(play.actions(obs, mask, cards))
            n = sum(len(y) for y in Y) - r * a.decisions
        x, m, y = (torch.from_numpy(np.concatenate(c)) for c in (X, M, Y))
        for _ in range(a.epochs):
            order = torch.randperm(len(x), generator=gen)
            for i in range(0, len(x), a.batch):
                b = order[i : i + a.batch]
                logits, _ = pol.forward(x[b], m[b], y[b])
                loss = torch.nn.functional.cross_entropy(logits, y[b])
                opt.zero_grad()
                loss.backward()
                opt.step()
        with torch.no_grad():
            agree = (pol.forward(x, m, y)[0].argmax(dim=1) == y).float().mean().item()
        line = (f"round {r}: {len(y):,} labelled card decisions, agreement with {a.teacher} {agree:.3f}, "
                f"{time.perf_counter() - t0:.0f} s")
        if a.check_deals:
            d, _, _ = duplicate(tresillo, pol.greedy, a.check_deals, a.check_seed, 500)
            line += f"; against rule in its place ({a.check_deals} deals) {summary(d)}"
        print(line, flush=True)
    pol.save(a.out, "python " + " ".join(sys.argv))
    print(f"wrote {a.out} ({os.path.getsize(a.out):,} bytes)")


def evaluate(a):
    torch = need_torch()
    import numpy as np
    import tresillo

    torch.set_num_threads(a.threads)
    if a.policy.startswith("agent:"):  # a built-in agent's cards, for comparison
        agent = tresillo.Agent(a.policy[len("agent:"):])

        def decide(rows, obs, mask, rule_cards, env):
            return [agent.step(env.state(int(i))) for i in rows]
    else:
        decide = Policy.load(torch, a.policy).greedy
    t0 = time.perf_counter()
    count = [0, 0]  # card decisions with a choice, and those where the policy left rule's card

    def cards(rows, obs, mask, rule_cards, env=None):
        act = np.asarray(decide(rows, obs, mask, rule_cards, env))
        choice = mask.sum(axis=1) > 1
        count[0] += int(choice.sum())
        count[1] += int((act != rule_cards)[choice].sum())
        return act

    d, mine, base = duplicate(tresillo, cards, a.deals, a.seed, a.envs)
    print(f"{a.deals} deals of seeds {a.seed}.., each seat: the policy's cards {mine.mean():+.3f} tantos a hand, "
          f"rule's {base.mean():+.3f}; it left rule's card in {count[1]:,} of its {count[0]:,} card decisions with a choice")
    print(f"policy minus rule, per deal (the mean over the seats), 95% interval: {summary(d)} "
          f"({time.perf_counter() - t0:.0f} s)")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="command", required=True)

    def common(p, out):
        p.add_argument("--out", default=out)
        p.add_argument("--envs", type=int, default=256, help="hands stepped together")
        p.add_argument("--hidden", default="256,256", help="hidden layers' widths")
        p.add_argument("--lr", type=float, default=1e-3)
        p.add_argument("--seed", type=int, default=1, help="lanes seeded SEED to SEED+envs-1, and torch's seed")
        p.add_argument("--check-deals", type=int, default=0, help="measure against rule while training, on these many deals")
        p.add_argument("--check-seed", type=int, default=5 * 10**8, help="their first seed (not the evaluation's)")
        p.add_argument("--threads", type=int, default=1, help="torch's threads")

    r = sub.add_parser("reinforce", help="a residual policy over rule's card, by REINFORCE with a value baseline")
    common(r, "policy.pt")
    r.add_argument("--hands", type=int, default=2_000_000, help="hands to train on (the same policy for a seed)")
    r.add_argument("--minutes", type=float, default=0, help="stop after this long instead, if sooner (0: no limit)")
    r.add_argument("--beta", type=float, default=3.0, help="the logit given to rule's card")
    r.add_argument("--temp", type=float, default=1.0, help="the sampling temperature while training")
    r.add_argument("--batch", type=int, default=8192, help="card decisions per update")
    r.add_argument("--scale", type=float, default=10.0, help="tantos per unit of return")
    r.add_argument("--value-coef", type=float, default=0.5)
    r.add_argument("--entropy", type=float, default=0.0)
    r.add_argument("--report", type=int, default=200, help="updates between progress lines")
    i = sub.add_parser("imitate", help="a network alone, by DAgger on a teacher's cards")
    common(i, "clone.pt")
    i.add_argument("--teacher", default="oracle", help="the agent whose cards are the labels")
    i.add_argument("--rounds", type=int, default=4, help="DAgger rounds (round 0 plays the teacher's cards)")
    i.add_argument("--decisions", type=int, default=40000, help="labelled card decisions per round")
    i.add_argument("--epochs", type=int, default=3, help="passes over every label so far, per round")
    i.add_argument("--batch", type=int, default=256)
    e = sub.add_parser("evaluate", help="measure a saved policy against rule in its place, duplicate")
    e.add_argument("policy", help="a file saved by reinforce or imitate; or agent:SPEC, a built-in agent's cards")
    e.add_argument("--deals", type=int, default=3000)
    e.add_argument("--seed", type=int, default=10**9, help="the first deal seed (deals SEED to SEED+deals-1)")
    e.add_argument("--envs", type=int, default=500)
    e.add_argument("--threads", type=int, default=1)
    a = ap.parse_args()
    {"reinforce": reinforce, "imitate": imitate, "evaluate": evaluate}[a.command](a)


if __name__ == "__main__":
    main()
