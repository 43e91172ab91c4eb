"""The engine's agents where Python Connect Four agents live: Kaggle, PettingZoo and OpenSpiel (docs/interop.md).

- :func:`as_kaggle_agent` (:mod:`~engine.interop.kaggle_agent`): a ConnectX
  ``agent(observation, configuration)``, every move inside Kaggle's
  ``actTimeout`` from a fresh install on, on any board Kaggle allows;
  ``python -m engine kaggle-submission`` packs one into a submission;
- :func:`as_pettingzoo_policy` (:mod:`~engine.interop.pettingzoo_policy`): a
  ``connect_four_v3`` policy, observation dict -> an action its mask allows;
  :func:`connect_four_env` (:mod:`~engine.interop.pettingzoo_env`): a
  PettingZoo AEC environment for every board the engine plays;
- :func:`as_openspiel_bot` (:mod:`~engine.interop.openspiel_bot`): a
  ``pyspiel.Bot`` for OpenSpiel's ``connect_four``.

The other way round, their agents play in the engine's matches as files
(``python -m engine match --red submission.py ...``, see the classroom agent).
Every adapter checks what it is handed (:mod:`~engine.interop.observations`:
one error naming the field), pickles as its spec, and builds its engine agent
at its first move. Importing this package imports none of the three libraries.
"""

from typing import TYPE_CHECKING

from engine.lazy import lazy_exports

if TYPE_CHECKING:
    from engine.interop.kaggle_agent import KaggleAgent, as_kaggle_agent, kaggle_board
    from engine.interop.observations import ObservationError
    from engine.interop.openspiel_bot import as_openspiel_bot, openspiel_board
    from engine.interop.pettingzoo_env import connect_four_env
    from engine.interop.pettingzoo_policy import PettingZooPolicy, as_pettingzoo_policy, pettingzoo_board

_HOMES = {
    "KaggleAgent": "engine.interop.kaggle_agent",
    "as_kaggle_agent": "engine.interop.kaggle_agent",
    "kaggle_board": "engine.interop.kaggle_agent",
    "ObservationError": "engine.interop.observations",
    "as_openspiel_bot": "engine.interop.openspiel_bot",
    "openspiel_board": "engine.interop.openspiel_bot",
    "connect_four_env": "engine.interop.pettingzoo_env",
    "PettingZooPolicy": "engine.interop.pettingzoo_policy",
    "as_pettingzoo_policy": "engine.interop.pettingzoo_policy",
    "pettingzoo_board": "engine.interop.pettingzoo_policy",
}

__all__ = [
    "KaggleAgent",
    "ObservationError",
    "PettingZooPolicy",
    "as_kaggle_agent",
    "as_openspiel_bot",
    "as_pettingzoo_policy",
    "connect_four_env",
    "kaggle_board",
    "openspiel_board",
    "pettingzoo_board",
]
__getattr__ = lazy_exports(__name__, _HOMES)
