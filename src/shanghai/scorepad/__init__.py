"""The score pad for games played with real cards: the pad (pure logic), its statistics and text,
and its SQLite storage. The command line is ``shanghai scorepad`` (``shanghai.cli.scorepad``)."""

from shanghai.scorepad.model import HandEntry, RoundEntry, ScorePad, ScorePadError
from shanghai.scorepad.stats import PlayerStats, player_stats
from shanghai.scorepad.storage import ScorePadStore, default_db_path

__all__ = ["HandEntry", "PlayerStats", "RoundEntry", "ScorePad", "ScorePadError", "ScorePadStore",
           "default_db_path", "player_stats"]
