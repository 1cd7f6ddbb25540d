"""The table layer every game sits on: the game protocol (``game``) and the
registry of games (``registry``). It imports no game."""
