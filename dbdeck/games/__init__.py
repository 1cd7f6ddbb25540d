"""The games dbdeck plays, one package each: each brings its engine, its
view types and its screens, and imports no other game."""
