"""The Dragon Ball Z Collectible Card Game (Score, 2000–2001): card identities
and packs, deck files and the deck legality checker under three rule profiles.

Layers, one way: ``titles`` (how titles compare) → ``models`` (the pydantic
edge: shipped data and user packs) → ``library`` (the loaded, plain cards,
characters, reference lists and rulings) → ``profiles`` and ``rules`` (what
each generation of the rules says, with sources) → ``deckfile`` (the text
format) → ``checker`` (the verdict) → ``commands``/``cli`` and ``screen``
(the front ends).
"""
