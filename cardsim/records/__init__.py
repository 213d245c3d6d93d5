"""Played games and what a person sees of them: a game's record (:mod:`.record`) and its
replay (:mod:`.replay`), positions drawn as text (:mod:`.render`), and reading the JSON and
TOML files a user wrote (:mod:`.documents`)."""
