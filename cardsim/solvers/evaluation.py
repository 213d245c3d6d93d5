"""The learned evaluation: a small value network over a game's encoding, written once.

A :class:`Net` values a **sampled world** (every card placed) for one seat: its outputs are the
returns the deal will end with for the seats ``player + r`` (``r`` = 0 .. ``N_SEATS - 1`` of the
game's encoding), divided by the game's ``reward_scale``, and three logits of the deal's
win / draw / loss for ``player`` (a return above, at or below 0). It is what a play-out from
that world would return on average, learned from self-play instead of drawn one noisy sample
at a time: deep Monte-Carlo regression on realized returns (TD-Gammon, Tesauro 1995; DouZero,
Zha et al. 2021), with the perfect-information world as input, as the value networks of
determinized search in trick-taking games (Kermit's and its successors' evaluations in Skat:
Buro, Long, Furtak and Sturtevant, IJCAI 2009). Why a world and not the information state:
ISMCTS's leaves *are* sampled worlds, so a world value replaces a play-out one for one, and the
search's sampling already averages over what the player cannot see.

The game declares its input in ``cardsim/games/<game>/encoding.py`` (``encode(state, params,
player, idx, val) -> n``: the active inputs of a world seen from ``player``, most inputs a card
in a zone set to 1): the model code here is the same for every game. One hidden layer of
``hidden`` rectified units; the first layer sums the rows of the active inputs only (about
forty of several hundred), so a value costs about ``active × hidden`` additions: a
microsecond, allocation-free (:func:`net_returns`).

Weights files (``.npz``) hold the arrays and a JSON header (:data:`FORMAT`): the game, its
encoding's version, the packed rules (``kernel_params``) they were trained for, the rules as
options, and how they were made (the ``cardsim train`` command and its figures). The weights a
game ships are package data (``cardsim/games/<game>/weights/``), found by the rules
(:func:`shipped_net`); a file for other rules, or damaged, is refused in one line
(:class:`cardsim.errors.AgentError`).
"""
from __future__ import annotations

import io
import json
import warnings
import zipfile
from collections import namedtuple
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from cardsim.compiled.jit import G, generic
from cardsim.errors import AgentError
from cardsim.files import read_limited

FORMAT = "cardsim-weights"
FORMAT_VERSION = 1
N_WDL = 3
"""The win / draw / loss logits after the returns."""

Net = namedtuple("Net", "w1 b1 w2 b2 idx val hidden out")
"""A network in compiled code: ``w1`` (inputs × hidden), ``b1``, ``w2`` (hidden × outputs),
``b2`` and scratch arrays for the active inputs, the hidden units and the outputs. An empty
``w1`` (no rows) is *no network*: a search then plays out as it would without one."""


@dataclass(frozen=True)
class Weights:
    """A value network's arrays and what they were made for (module docstring)."""

    game: str
    encoding: int
    params: tuple
    rules: dict
    w1: np.ndarray
    b1: np.ndarray
    w2: np.ndarray
    b2: np.ndarray
    made: dict

    @property
    def hidden(self) -> int:
        return int(self.b1.shape[0])

    def header(self) -> dict:
        return {"format": FORMAT, "version": FORMAT_VERSION, "game": self.game,
                "encoding": self.encoding, "params": list(self.params), "rules": self.rules,
                "hidden": self.hidden, "made": self.made}

    def save(self, path) -> None:
        """Write the weights to ``path`` (an ``.npz``), whole or not at all."""
        path = Path(path)
        tmp = path.with_name(f".{path.name}.tmp")
        with open(tmp, "wb") as f:
            np.savez(f, header=np.frombuffer(json.dumps(self.header(), sort_keys=True)
                                             .encode(), dtype=np.uint8),
                     w1=self.w1.astype(np.float32), b1=self.b1.astype(np.float32),
                     w2=self.w2.astype(np.float32), b2=self.b2.astype(np.float32))
        tmp.replace(path)

    def net(self, spec) -> Net:
        """The compiled form for searches of ``spec``'s game (:class:`Net`)."""
        enc = spec.definition.encoding
        return Net(w1=np.ascontiguousarray(self.w1, dtype=np.float64),
                   b1=np.ascontiguousarray(self.b1, dtype=np.float64),
                   w2=np.ascontiguousarray(self.w2, dtype=np.float64),
                   b2=np.ascontiguousarray(self.b2, dtype=np.float64),
                   idx=np.zeros(enc.MAX_ACTIVE, dtype=np.int64),
                   val=np.zeros(enc.MAX_ACTIVE, dtype=np.float64),
                   hidden=np.zeros(self.hidden, dtype=np.float64),
                   out=np.zeros(self.b2.shape[0], dtype=np.float64))


MAX_WEIGHTS_BYTES = 64 << 20
"""The largest weights file read (a few hundred KB is typical)."""


def read_weights(path) -> Weights:
    """The weights in ``path``; :class:`AgentError` in one line if it is no weights file, or a
    damaged one."""
    path = Path(path)
    try:
        data = read_limited(path, MAX_WEIGHTS_BYTES, "a weights file", AgentError)
    except AgentError as e:
        raise AgentError(f"weights: {e}") from None
    try:
        with np.load(io.BytesIO(data), allow_pickle=False) as z:
            header = json.loads(bytes(z["header"]).decode())
            arrays = {k: np.array(z[k], dtype=np.float64) for k in ("w1", "b1", "w2", "b2")}
    except AgentError:
        raise
    except (OSError, ValueError, KeyError, EOFError, UnicodeDecodeError,
            zipfile.BadZipFile) as e:
        raise AgentError(f"weights {path}: cannot be read ({type(e).__name__}: "
                         f"{str(e)[:80]}): not a cardsim weights file, or damaged") from None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise AgentError(f"weights {path}: not a cardsim weights file")
    if header.get("version") != FORMAT_VERSION:
        raise AgentError(f"weights {path}: format version {header.get('version')!r}; this "
                         f"cardsim reads version {FORMAT_VERSION}")
    w1, b1, w2, b2 = (arrays[k] for k in ("w1", "b1", "w2", "b2"))
    hidden = b1.shape[0] if b1.ndim == 1 else -1
    if (w1.ndim != 2 or w1.shape[1] != hidden or w2.ndim != 2 or w2.shape[0] != hidden
            or b2.ndim != 1 or b2.shape[0] != w2.shape[1] or hidden < 1
            or not all(np.isfinite(a).all() for a in (w1, b1, w2, b2))):
        raise AgentError(f"weights {path}: damaged (array shapes or values do not fit)")
    return Weights(game=str(header.get("game")), encoding=header.get("encoding"),
                   params=tuple(header.get("params") or ()), rules=header.get("rules") or {},
                   w1=w1, b1=b1, w2=w2, b2=b2, made=header.get("made") or {})


def check_weights(weights: Weights, spec, where="") -> None:
    """:class:`AgentError` unless ``weights`` fit ``spec``'s game, encoding and rules."""
    where = where or "weights"
    enc = spec.definition.encoding
    if enc is None:
        raise AgentError(f"{where}: {spec.name} has no learned evaluation's encoding")
    if weights.game != spec.name:
        raise AgentError(f"{where}: trained for {weights.game}, not {spec.name}")
    if weights.encoding != enc.VERSION:
        raise AgentError(f"{where}: made for {spec.name}'s encoding version "
                         f"{weights.encoding!r}; this cardsim's is {enc.VERSION}: train anew")
    if tuple(weights.params) != tuple(int(x) for x in spec.params):
        raise AgentError(f"{where}: trained for other rules ({rules_text(weights.rules)}): "
                         "train weights for these (cardsim train)")
    if weights.w1.shape[0] != enc.N_INPUTS or weights.b2.shape[0] != enc.N_SEATS + N_WDL:
        raise AgentError(f"{where}: damaged (array shapes do not fit {spec.name}'s encoding)")


def rules_text(rules: dict) -> str:
    return ", ".join(f"{k}={v}" for k, v in sorted(rules.items())) or "the defaults"


def weights_folder(game_name: str) -> Path:
    """The package folder of a game's shipped weights (beside its registered package)."""
    from cardsim.game import definition
    return Path(definition(game_name).layout.__file__).parent / "weights"


def shipped_weights(spec) -> Weights | None:
    """The shipped weights of ``spec``'s game trained for its rules, or None."""
    folder = weights_folder(spec.name)
    if spec.definition.encoding is None or not folder.is_dir():
        return None
    for path in sorted(folder.glob("*.npz")):
        w = read_weights(path)
        try:
            check_weights(w, spec, str(path))
        except AgentError:
            continue
        return w
    return None


_WARNED: set = set()


def no_net(spec) -> Net:
    """The empty :class:`Net` (a search plays out without a network)."""
    enc = spec.definition.encoding
    active = enc.MAX_ACTIVE if enc is not None else 1
    return Net(w1=np.zeros((0, 1)), b1=np.zeros(1), w2=np.zeros((1, 1)), b2=np.zeros(1),
               idx=np.zeros(active, dtype=np.int64), val=np.zeros(active),
               hidden=np.zeros(1), out=np.zeros(1))


def net_for(spec, path: str = "") -> Net:
    """The network a searching agent of ``spec``'s game uses: the weights in ``path``, or the
    game's shipped weights for its rules; without any, :func:`no_net` and a warning, once per
    game and rules, that the search plays out as before."""
    if path:
        w = read_weights(path)
        check_weights(w, spec, f"weights {path}")
        return w.net(spec)
    w = shipped_weights(spec)
    if w is not None:
        return w.net(spec)
    key = (spec.name, tuple(int(x) for x in spec.params))
    if key not in _WARNED:
        _WARNED.add(key)
        warnings.warn(f"{spec.name}: no learned evaluation for these rules: leaf=net plays "
                      "out to the end instead (cardsim train makes one)", stacklevel=2)
    return no_net(spec)


@generic(inline=True, nrt=False)
def net_returns(params, world, player, net, rets, scale):
    """``rets[s]``: the network's return for every seat ``s`` of ``world`` (``player``'s
    view, times ``scale``; the first ``len(rets)`` of its outputs, rotated back to seats).
    Allocation-free: the first layer adds the rows of the active inputs."""
    n = G.encode(world, params, player, net.idx, net.val)
    hidden, out = net.hidden, net.out
    width = hidden.shape[0]
    for h in range(width):
        hidden[h] = net.b1[h]
    for k in range(n):
        row = net.idx[k]
        v = net.val[k]
        for h in range(width):
            hidden[h] += v * net.w1[row, h]
    n_out = out.shape[0]
    for j in range(n_out):
        out[j] = net.b2[j]
    for h in range(width):
        x = hidden[h]
        if x > 0.0:
            for j in range(n_out):
                out[j] += x * net.w2[h, j]
    n_players = rets.shape[0]
    for r in range(n_players):
        rets[(player + r) % n_players] = out[r] * scale


@generic(nrt=False)
def world_returns(params, world, player, net, rets, scale):
    """:func:`net_returns` from Python (tests, analysis): the network's returns of ``world``
    seen from ``player`` into ``rets``."""
    net_returns(params, world, player, net, rets, scale)


def world_value(weights: Weights, state, player: int) -> np.ndarray:
    """Every seat's return of ``state`` (a :class:`cardsim.State` whose every card is placed:
    a world) as the network ``weights`` predicts it, seen from ``player``."""
    spec = state.game.spec
    rets = np.zeros(spec.n_players, dtype=np.float64)
    world_returns[spec](spec.params, state.vec, player, weights.net(spec), rets,
                        spec.reward_scale)
    return rets
