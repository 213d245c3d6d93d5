"""The exact (perfect-information, "double-dummy") solver: the value of a deal whose every card
is known — all hands and the stock's order — under best play by both sides, from any point to
the deal's end. One search for every game, through the GameSpec hooks of
:class:`cardsim.protocol.spec.ExactHooks` (``G.exact_*``, written per game in
``cardsim/games/<game>/exact.py``) and compiled for each game on its own (:mod:`cardsim.compiled.jit`).

**Values** are integers from side 0's point of view (Scopa: the deal's point difference; Bura:
the result weighted above the card-point margin). Side 0 maximizes, side 1 minimizes; in a 2x2
game partners share a side. A game of more sides (Mushka, each player for himself) is searched
**paranoid** (Sturtevant & Korf 2000, "On pruning techniques for multi-player games"): the
*root* — the seat the search is for, by default the player to move — is side 0 and every other
seat one coalition against it, and the value is the root's own result. The root is a
search argument; the table's entries belong to one root.

**The search** (as in DDS and open-hand Skat solvers, adapted to these games):

- alpha-beta, fail-soft, over the compiled game kernels; the state of each ply in a
  preallocated stack (no allocation in the search);
- a transposition table of lower and upper bounds, keyed by **Zobrist (tabulation) hashing** of
  the game's *features*: the words that identify a position of the deal up to equivalence —
  e.g. Scopa's piles enter only through what scores (card and coin counts, the settebello, the
  best primiera card per suit), so positions whose piles differ in cards that can no longer
  be told apart share an entry. What is fixed within a deal (the stock's order) is left out:
  entries carry the deal's *age*, and a new deal (a new world of PIMC) ages the table at once.
  Two entries per bucket: one kept for the shallowest position, one always replaced. 64-bit
  keys; a false match needs two positions of one deal with the same 64-bit key;
- **cheap bounds before deep search**: each game bounds the final value from the position
  (Scopa: categories decided or still open, at most one scopa per remaining move), which cuts
  a node off before its moves are generated;
- **move ordering**: the table's best move first, then the game's guess of each move's worth;
- **MTD(f)**: the exact value by a sequence of null-window searches that share the table,
  starting from the table's or the bounds' guess.

:func:`solve` gives the value of a position, :func:`solve_actions` the exact value of every
legal action, :func:`principal_line` the line of best play. The compiled code is cached.
"""
from __future__ import annotations

from collections import namedtuple

import numpy as np

from cardsim.compiled.bits import copy_words
from cardsim.compiled.jit import G, generic, helper, kernel
from cardsim.errors import UnsupportedError

INF = np.int64(1 << 40)
NODES, HITS, CUTS, AGE, ROOT = range(5)
# Columns of the search's ply stack ``frame``: the window as given (narrowed by the bounds),
# the current window, the node's bounds and key, its moves (count, next), side, best so far.
A0, B0, A, B, LO, HI, KEY, N, K, MAXIMIZE, BEST, MOVE = range(12)
MAX_FEATURES = 16
DEFAULT_TABLE_BITS = 20

Workspace = namedtuple("Workspace", "keys lower upper best depth age zobrist features states "
                                    "actions scores order frame stats")
"""The solver's preallocated arrays: the transposition table (``keys``, ``lower``, ``upper``,
``best`` move, ``depth`` = ply of the stored position, ``age`` = the deal it belongs to), the
Zobrist table, a features buffer, the state, legal-action, score, order and frame stacks (one
row per ply) and the counters ``stats[NODES, HITS, CUTS, AGE, ROOT]`` (nodes searched, table
hits, cut-offs by bounds, the current deal's age, the seat searched for)."""


def workspace(spec, table_bits: int = DEFAULT_TABLE_BITS, plies: int | None = None) -> Workspace:
    """A :class:`Workspace` for ``spec``'s game with a table of ``2**table_bits`` entries
    (24 bytes each) and a stack for a whole deal (or ``plies`` moves)."""
    size = 1 << table_bits
    plies = spec.max_deal_moves + 2 if plies is None else plies
    zobrist = np.random.default_rng(20261129).integers(
        0, np.iinfo(np.uint64).max, size=MAX_FEATURES * 8 * 256, dtype=np.uint64,
        endpoint=True)
    return Workspace(
        keys=np.zeros(size, dtype=np.uint64), lower=np.zeros(size, dtype=np.int32),
        upper=np.zeros(size, dtype=np.int32), best=np.zeros(size, dtype=np.int64),
        depth=np.zeros(size, dtype=np.int16), age=np.zeros(size, dtype=np.int64),
        zobrist=zobrist,
        features=np.zeros(MAX_FEATURES, dtype=np.uint64),
        states=np.zeros((plies, spec.state_len), dtype=np.uint64),
        actions=np.zeros((plies, spec.max_actions), dtype=np.int64),
        scores=np.zeros((plies, spec.max_actions), dtype=np.int64),
        order=np.zeros((plies, spec.max_actions), dtype=np.int64),
        frame=np.zeros((plies, 12), dtype=np.int64),
        stats=np.zeros(5, dtype=np.int64))


@kernel(nrt=True)
def clear(ws):
    """Empty the transposition table and the counters."""
    ws.keys[:] = 0
    ws.age[:] = 0
    ws.stats[:] = 0


@helper
def new_deal(ws):
    """Forget the table's entries at once (they belong to another deal): the features leave
    out what is fixed within one deal, such as the order of the stock."""
    ws.stats[AGE] += 1


@helper
def begin(ws, same_deal, root):
    """Start a search for seat ``root``: a new deal, or another root (whose values differ in a
    paranoid search), ages the table."""
    if not same_deal or ws.stats[ROOT] != root:
        new_deal(ws)
    ws.stats[ROOT] = root


@generic(inline=True)
def position_key(state, params, ws):
    """Zobrist (tabulation) hash of the position's features: one random word per (feature
    word, byte, byte value), XORed; never 0 (0 marks an empty table entry)."""
    n = G.exact_features(state, params, ws.features)
    h = np.uint64(0)
    for i in range(n):
        w = ws.features[i]
        for b in range(8):
            h ^= ws.zobrist[(i * 8 + b) * 256 + np.int64((w >> np.uint64(8 * b)) & np.uint64(255))]
    return h if h != 0 else np.uint64(1)


@helper
def probe(ws, key):
    """The table slot holding ``key``, or -1."""
    mask = np.uint64(ws.keys.size - 1)
    slot = np.int64(key & mask & ~np.uint64(1))
    age = ws.stats[AGE]
    if ws.keys[slot] == key and ws.age[slot] == age:
        return slot
    if ws.keys[slot + 1] == key and ws.age[slot + 1] == age:
        return slot + 1
    return -1


@helper
def store(ws, key, ply, lower, upper, best):
    """Keep the bounds of ``key``: in its own slot if present, else in the bucket's first slot
    when this position is shallower than the one there, else in the second."""
    slot = probe(ws, key)
    if slot < 0:
        mask = np.uint64(ws.keys.size - 1)
        slot = np.int64(key & mask & ~np.uint64(1))
        if ws.age[slot] == ws.stats[AGE] and ws.depth[slot] < ply:
            slot += 1
    ws.keys[slot] = key
    ws.age[slot] = ws.stats[AGE]
    ws.lower[slot] = lower
    ws.upper[slot] = upper
    ws.best[slot] = best
    ws.depth[slot] = ply


@generic(inline=True)
def enter(params, ply, ws):
    """Open the node ``ws.states[ply]`` with window ``frame[ply, A0:B0]`` (set by the caller):
    returns (True, value) when it is decided at once — a finished deal, or bounds (the game's
    or the table's) that fall outside the window; otherwise its moves are generated and
    ordered and (False, 0) is returned."""
    state = ws.states[ply]
    f = ws.frame[ply]
    ws.stats[NODES] += 1
    if G.is_terminal(state, params):
        return True, G.exact_value(state, params, ws.stats[ROOT])
    lo, hi = G.exact_bounds(state, params)
    key = position_key(state, params, ws)
    slot = probe(ws, key)
    best_move = np.int64(-1)
    if slot >= 0:
        ws.stats[HITS] += 1
        lo = max(lo, np.int64(ws.lower[slot]))
        hi = min(hi, np.int64(ws.upper[slot]))
        best_move = ws.best[slot]
    if lo >= f[B0] or lo == hi:
        ws.stats[CUTS] += 1
        return True, lo
    if hi <= f[A0]:
        ws.stats[CUTS] += 1
        return True, hi
    f[LO] = lo
    f[HI] = hi
    f[KEY] = np.int64(key)
    f[A0] = max(f[A0], lo)
    f[B0] = min(f[B0], hi)
    f[A] = f[A0]
    f[B] = f[B0]
    actions = ws.actions[ply]
    scores = ws.scores[ply]
    order = ws.order[ply]
    n = G.legal_actions(state, params, actions)
    G.exact_order(state, params, actions, n, scores)
    for i in range(n):                     # best guess first (insertion sort of indices)
        if actions[i] == best_move:
            scores[i] = INF
        j = i
        while j > 0 and scores[order[j - 1]] < scores[i]:
            order[j] = order[j - 1]
            j -= 1
        order[j] = i
    f[N] = n
    f[K] = 0
    f[MAXIMIZE] = 1 if G.exact_side(state, params, G.current_player(state, params),
                                    ws.stats[ROOT]) == 0 else 0
    f[BEST] = -INF if f[MAXIMIZE] else INF
    f[MOVE] = actions[order[0]]
    return False, np.int64(0)


@generic(inline=True)
def descend(params, ply, ws):
    """Play the node's next move in order into ``ws.states[ply + 1]``, with the window."""
    f = ws.frame[ply]
    child = ws.states[ply + 1]
    copy_words(child, ws.states[ply])
    G.apply_action(child, params, ws.actions[ply, ws.order[ply, f[K]]])
    ws.frame[ply + 1, A0] = f[A]
    ws.frame[ply + 1, B0] = f[B]


@generic(inline="ir")
def alphabeta(params, root, alpha, beta, ws):
    """Fail-soft alpha-beta of the position ``ws.states[root]`` within (alpha, beta), side 0
    maximizing: the exact value when it lies inside the window, else a bound on the side of the
    window it fails. Iterative over the ply stack (``ws.frame`` holds each node's window,
    bounds, moves and best so far): numba cannot cache a recursive function."""
    ply = root
    ws.frame[ply, A0] = alpha
    ws.frame[ply, B0] = beta
    done, value = enter(params, ply, ws)
    while True:
        if not done:                       # go down to the node's next move
            descend(params, ply, ws)
            ply += 1
            done, value = enter(params, ply, ws)
            continue
        if ply == root:
            return value
        ply -= 1                           # back up with the child's value
        f = ws.frame[ply]
        action = ws.actions[ply, ws.order[ply, f[K]]]
        if f[MAXIMIZE]:
            if value > f[BEST]:
                f[BEST] = value
                f[MOVE] = action
                if value > f[A]:
                    f[A] = value
        elif value < f[BEST]:
            f[BEST] = value
            f[MOVE] = action
            if value < f[B]:
                f[B] = value
        f[K] += 1
        if f[A] < f[B] and f[K] < f[N]:
            done = False
            continue
        best = f[BEST]                     # the node is finished: keep what it proved
        lo = f[LO]
        hi = f[HI]
        if best <= f[A0]:                  # failed low: an upper bound
            hi = min(hi, best)
        elif best >= f[B0]:                # failed high: a lower bound
            lo = max(lo, best)
        else:
            lo = best
            hi = best
        store(ws, np.uint64(f[KEY]), ply, lo, hi, f[MOVE])
        value = best


@generic(inline="ir")
def mtdf(params, ply, ws, guess):
    """The exact value of ``ws.states[ply]``: null-window searches narrowing [lower, upper],
    from ``guess`` (or the table's bounds when they are narrower)."""
    state = ws.states[ply]
    if G.is_terminal(state, params):
        return G.exact_value(state, params, ws.stats[ROOT])
    lower, upper = G.exact_bounds(state, params)
    slot = probe(ws, position_key(state, params, ws))
    if slot >= 0:
        lower = max(lower, np.int64(ws.lower[slot]))
        upper = min(upper, np.int64(ws.upper[slot]))
    guess = max(lower, min(upper, guess))
    while lower < upper:
        beta = guess + 1 if guess == lower else guess
        guess = alphabeta(params, ply, beta - 1, beta, ws)
        if guess < beta:
            upper = guess
        else:
            lower = guess
    return lower


@generic
def solve_root(params, state, ws, same_deal, root):
    """The exact value of ``state`` (copied into the workspace's root) searched for seat
    ``root``; ``same_deal`` keeps the table's entries of the previous call (a position of the
    same deal, the same root)."""
    begin(ws, same_deal, root)
    copy_words(ws.states[0], state)
    G.exact_single_deal(ws.states[0], params)
    return mtdf(params, np.int64(0), ws, np.int64(0))


@generic
def solve_children(params, state, ws, actions, n, out, same_deal, root):
    """The exact value for seat ``root`` of each of ``actions[:n]`` played in ``state`` (into
    ``out``); each search starts from the value of the one before."""
    begin(ws, same_deal, root)
    guess = np.int64(0)
    for i in range(n):
        copy_words(ws.states[0], state)
        G.exact_single_deal(ws.states[0], params)
        G.apply_action(ws.states[0], params, actions[i])
        out[i] = mtdf(params, np.int64(0), ws, guess)
        guess = out[i]


# --- Python API ----------------------------------------------------------------------------

@generic(nrt=False)
def _side(state, params, seat, root):
    return G.exact_side(state, params, seat, root)


@generic(nrt=False)
def _single_deal(state, params):
    G.exact_single_deal(state, params)


@generic(nrt=False)
def _bounds(state, params):
    return G.exact_bounds(state, params)


@generic(nrt=False)
def _features(state, params, out):
    return G.exact_features(state, params, out)


@generic(nrt=False)
def _cards_left(state, params):
    return G.exact_cards_left(state, params)


def _spec(state, search: bool = True):
    """The state's GameSpec; :class:`UnsupportedError` when the solver does not cover it: not
    the game, or (to be searched) not a position with more cards left than the game's
    ``max_cards`` (an endgame solver: Minchiate)."""
    spec = state.game.spec
    if spec.exact is None:
        raise UnsupportedError(spec.no_exact)
    limit = spec.exact.max_cards
    if search and limit:
        n = cards_left(state)
        if n > limit:
            raise UnsupportedError(
                f"the exact solver covers {spec.name} endgames: at most {limit} cards left to "
                f"play; this position has {n}")
    return spec


def root_of(state, root: int | None) -> int:
    """The seat searched for: ``root``, or the player to move (a finished deal: seat 0)."""
    if root is not None:
        return int(root)
    return 0 if state.is_terminal() else int(state.current_player())


def solve(state, ws: Workspace | None = None, root: int | None = None) -> int:
    """The exact value of ``state`` (a :class:`cardsim.State`) for side 0, to the deal's end;
    ``root`` is the seat searched for (module docstring; default the player to move)."""
    spec = _spec(state)
    ws = workspace(spec) if ws is None else ws
    return int(solve_root[spec](spec.params, state.vec, ws, False, root_of(state, root)))


def solve_actions(state, ws: Workspace | None = None, same_deal: bool = False,
                  root: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Every legal action of ``state`` and its exact value for side 0 (the deal's end);
    ``same_deal`` keeps what the table learnt from an earlier position of the same deal (for
    the same ``root``, default the player to move)."""
    spec = _spec(state)
    ws = workspace(spec) if ws is None else ws
    actions = np.array(state.legal_actions(), dtype=np.int64)
    values = np.zeros(len(actions), dtype=np.int64)
    if len(actions):
        solve_children[spec](spec.params, state.vec, ws, actions, len(actions), values,
                             same_deal, root_of(state, root))
    return actions, values


def cards_left(state) -> int:
    """The cards still to be played in the state's deal (the game's ``cards_left`` hook: an
    endgame solver's ``max_cards`` is counted in them)."""
    spec = _spec(state, search=False)
    return int(_cards_left[spec](state.vec, spec.params))


def side_to_move(state, root: int | None = None) -> int:
    """The side (0 or 1) of the player to move, in a search for ``root`` (default: him)."""
    spec = _spec(state, search=False)
    return int(_side[spec](state.vec, spec.params, state.current_player(),
                           root_of(state, root)))


def bounds(state) -> tuple[int, int]:
    """The game's cheap bounds (low, high) on the position's exact value for side 0."""
    spec = _spec(state, search=False)
    lo, hi = _bounds[spec](state.vec, spec.params)
    return int(lo), int(hi)


def features(state) -> np.ndarray:
    """The words that identify the position for the transposition table (module docstring)."""
    spec = _spec(state, search=False)
    out = np.zeros(MAX_FEATURES, dtype=np.uint64)
    n = _features[spec](state.vec, spec.params, out)
    return out[:n]


def principal_line(state, ws: Workspace | None = None, root: int | None = None) -> list[int]:
    """A line of best play from ``state`` to the deal's end: at each step the first action
    (in canonical order) of best exact value for the side to move, in a search for ``root``
    (default the player to move at ``state``) all along."""
    spec = _spec(state)
    ws = workspace(spec) if ws is None else ws
    root = root_of(state, root)
    s = state.clone()
    _single_deal[spec](s.vec, spec.params)
    line = []
    while not s.is_terminal():
        actions, values = solve_actions(s, ws, same_deal=bool(line), root=root)
        pick = int(np.argmax(values) if side_to_move(s, root) == 0 else np.argmin(values))
        line.append(int(actions[pick]))
        s.apply_action(int(actions[pick]))
    return line
