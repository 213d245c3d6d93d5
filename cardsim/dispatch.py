"""The GameSpec protocol inside compiled code: one kernel per protocol function, dispatching on
an integer game id to the game's own kernels.

Solvers (ISMCTS, the agents' game loop, PIMC) are written once against these functions and
import no game. Numba compiles each call site for every game branch and inlines the chosen
kernel; the dispatch costs a compare per call. Measured with numba 0.68 (DESIGN.md §1): plain
module-level kernels behind an integer dispatch cache between processes, while dispatchers
passed as arguments do not. A new game adds one branch to each function here and its id to
:data:`cardsim.spec.GAME_IDS`.

=====================  =====================================================================
``legal_actions``      ``(game, state, params, out) -> n``
``apply_action``       ``(game, state, params, action)``
``is_terminal``        ``(game, state, params) -> bool``
``current_player``     ``(game, state, params) -> seat`` (-1 when terminal)
``returns``            ``(game, state, params, out)``
``determinize``        ``(game, state, params, observer, rng, out)``
``observed_action``    ``(game, state, params, action, observer) -> id`` the action as
                       ``observer`` sees it (equal ids for moves he cannot tell apart)
``heuristic``          ``(game, state, params, actions, n, rng) -> index`` the game's
                       heuristic player (``cardsim/games/<game>/heuristic.py``)
``new_deal``           ``(game, params, rng, out)``
``exact_*``            the exact solver's hooks (``cardsim/games/<game>/exact.py``):
                       ``single_deal`` (solve to the deal's end), ``side`` of a seat,
                       ``value`` of a finished deal for side 0 (int64), ``features`` (the words
                       that identify a position up to equivalence), ``bounds`` on the value,
                       ``order`` (a guess of each move's worth)
=====================  =====================================================================
"""
from numba import njit

from .games.bura import exact as bura_exact
from .games.bura import heuristic as bura_heuristic
from .games.bura import kernels as bura
from .games.minchiate import heuristic as minchiate_heuristic
from .games.minchiate import kernels as minchiate
from .games.minchiate import worlds as minchiate_worlds
from .games.mushka import heuristic as mushka_heuristic
from .games.mushka import kernels as mushka
from .games.scopa import exact as scopa_exact
from .games.scopa import heuristic as scopa_heuristic
from .games.scopa import kernels as scopa
from .spec import GAME_IDS

SCOPA = GAME_IDS["scopa"]
BURA = GAME_IDS["bura"]
MUSHKA = GAME_IDS["mushka"]
MINCHIATE = GAME_IDS["minchiate"]


@njit(cache=True, inline="always")
def legal_actions(game, state, params, out):
    if game == SCOPA:
        return scopa.legal_actions(state, params, out)
    if game == MUSHKA:
        return mushka.legal_actions(state, params, out)
    if game == MINCHIATE:
        return minchiate.legal_actions(state, params, out)
    return bura.legal_actions(state, params, out)


@njit(cache=True, inline="always")
def apply_action(game, state, params, action):
    if game == SCOPA:
        scopa.apply_action(state, params, action)
    elif game == MUSHKA:
        mushka.apply_action(state, params, action)
    elif game == MINCHIATE:
        minchiate.apply_action(state, params, action)
    else:
        bura.apply_action(state, params, action)


@njit(cache=True, inline="always")
def is_terminal(game, state, params):
    if game == SCOPA:
        return scopa.is_terminal(state, params)
    if game == MUSHKA:
        return mushka.is_terminal(state, params)
    if game == MINCHIATE:
        return minchiate.is_terminal(state, params)
    return bura.is_terminal(state, params)


@njit(cache=True, inline="always")
def current_player(game, state, params):
    if game == SCOPA:
        return scopa.current_player(state, params)
    if game == MUSHKA:
        return mushka.current_player(state, params)
    if game == MINCHIATE:
        return minchiate.current_player(state, params)
    return bura.current_player(state, params)


@njit(cache=True, inline="always")
def returns(game, state, params, out):
    if game == SCOPA:
        scopa.returns(state, params, out)
    elif game == MUSHKA:
        mushka.returns(state, params, out)
    elif game == MINCHIATE:
        minchiate.returns(state, params, out)
    else:
        bura.returns(state, params, out)


@njit(cache=True, inline="always")
def determinize(game, state, params, observer, rng, out):
    if game == SCOPA:
        scopa.determinize(state, params, observer, rng, out)
    elif game == MUSHKA:
        mushka.determinize(state, params, observer, rng, out)
    elif game == MINCHIATE:
        minchiate_worlds.determinize(state, params, observer, rng, out)
    else:
        bura.determinize(state, params, observer, rng, out)


@njit(cache=True, inline="always")
def observed_action(game, state, params, action, observer):
    if game == SCOPA:
        return scopa.observed_action(state, params, action, observer)
    if game == MUSHKA:
        return mushka.observed_action(state, params, action, observer)
    if game == MINCHIATE:
        return minchiate_worlds.observed_action(state, params, action, observer)
    return bura.observed_action(state, params, action, observer)


@njit(cache=True, inline="always")
def heuristic(game, state, params, actions, n, rng):
    if game == SCOPA:
        return scopa_heuristic.choose(state, params, actions, n, rng)
    if game == MUSHKA:
        return mushka_heuristic.choose(state, params, actions, n, rng)
    if game == MINCHIATE:
        return minchiate_heuristic.choose(state, params, actions, n, rng)
    return bura_heuristic.choose(state, params, actions, n, rng)


@njit(cache=True, inline="always")
def new_deal(game, params, rng, out):
    if game == SCOPA:
        scopa.new_deal(params, rng, out)
    elif game == MUSHKA:
        mushka.new_deal(params, rng, out)
    elif game == MINCHIATE:
        minchiate.new_deal(params, rng, out)
    else:
        bura.new_deal(params, rng, out)


# --- the exact solver's hooks (cardsim/games/<game>/exact.py, solvers/exact.py) ---------------

@njit(cache=True, inline="always")
def exact_single_deal(game, state, params):
    if game == SCOPA:
        scopa_exact.single_deal(state, params)
    else:
        bura_exact.single_deal(state, params)


@njit(cache=True, inline="always")
def exact_side(game, state, params, seat):
    if game == SCOPA:
        return scopa_exact.side_of(state, params, seat)
    return bura_exact.side_of(state, params, seat)


@njit(cache=True, inline="always")
def exact_value(game, state, params):
    if game == SCOPA:
        return scopa_exact.deal_value(state, params)
    return bura_exact.deal_value(state, params)


@njit(cache=True, inline="always")
def exact_features(game, state, params, out):
    if game == SCOPA:
        return scopa_exact.features(state, params, out)
    return bura_exact.features(state, params, out)


@njit(cache=True, inline="always")
def exact_bounds(game, state, params):
    if game == SCOPA:
        return scopa_exact.bounds(state, params)
    return bura_exact.bounds(state, params)


@njit(cache=True, inline="always")
def exact_order(game, state, params, actions, n, scores):
    if game == SCOPA:
        scopa_exact.move_order(state, params, actions, n, scores)
    else:
        bura_exact.move_order(state, params, actions, n, scores)
