"""The card schema, the card set loader and the ``dbdeck cards`` commands."""
