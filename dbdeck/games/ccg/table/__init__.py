"""The CCG's table: two seats, every zone the rulebooks name, the turn's
steps, Combat and damage, and the rules the table adjudicates.

Plain Python (no pydantic, no Textual): the state (``state``), the actions
(``actions``, one frozen record per kind), the rules that check and apply
them, and each seat's view (``view``), private by construction. Pydantic
reads actions and snapshots at the edges (``dbdeck.games.ccg.edge_models``).
"""
