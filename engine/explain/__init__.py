"""Why a position is won, drawn or lost: Allis's rules, every reason checked by playing it out.

Victor Allis's thesis (*A Knowledge-based Approach of Connect-Four*, 1988)
gives nine rules with which the player who controls zugzwang refutes the
other's groups. One idea per module:

* :mod:`~engine.explain.cells` - cells (``d2``) and groups (``d2-g2``) of a board;
* :mod:`~engine.explain.field` - the position as the rules see it: zones, even cells, problems, odd threats;
* :mod:`~engine.explain.rule` - :class:`Instance`: one application of a rule;
* the nine rules, one module each: :mod:`~engine.explain.claimeven` (§6.1),
  :mod:`~engine.explain.baseinverse` (§6.2), :mod:`~engine.explain.vertical` (§6.3),
  :mod:`~engine.explain.aftereven` (§6.4), :mod:`~engine.explain.lowinverse` (§6.5),
  :mod:`~engine.explain.highinverse` (§6.6), :mod:`~engine.explain.baseclaim` (§6.7),
  :mod:`~engine.explain.before` (§6.8), :mod:`~engine.explain.specialbefore` (§6.9);
* :mod:`~engine.explain.combine` - which instances go together (§7.4), a set that solves every problem;
* :mod:`~engine.explain.check` - a set played out against every reply: no reason is shown unchecked;
* :mod:`~engine.explain.prove` - one position's reason: double threats, no line left, a checked set of rules;
* :mod:`~engine.explain.forcing` - reasons a few moves ahead: every reply answered;
* :mod:`~engine.explain.words` and :mod:`~engine.explain.explanation` - the reason in words and as data;
* :mod:`~engine.explain.explainer` - :class:`Explainer`: the exact score and the reason (the way in);
* :mod:`~engine.explain.marks` - what a reason marks on the board (the game's overlay, the diagrams);
* :mod:`~engine.explain.diagram` - a reason drawn on its board (PNG), for ``explain --png`` and docs/explain.md;
* :mod:`~engine.explain.play` - :class:`Strategist`: the moves of a reason's strategy ("Show me").

Typical use::

    from engine.explain import Explainer

    explanation = Explainer().explain("4453")      # a 7x6 position, Red to move
    explanation.score, explanation.claim, explanation.text
"""

from typing import TYPE_CHECKING

from engine.lazy import lazy_exports

if TYPE_CHECKING:  # (what the names below are, for type checkers)
    from engine.explain.explainer import Explainer
    from engine.explain.explanation import Explanation, Reason

_HOMES = {
    "Explainer": "engine.explain.explainer",
    "Explanation": "engine.explain.explanation",
    "Reason": "engine.explain.explanation",
}

__all__ = ["Explainer", "Explanation", "Reason"]
__getattr__ = lazy_exports(__name__, _HOMES)
