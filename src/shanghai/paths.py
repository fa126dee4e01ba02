"""Where shanghai keeps its files on the user's machine."""

from __future__ import annotations

import os
import sys
from pathlib import Path


def data_dir() -> Path:
    """The folder for saved games, score pads and the server's database: ``$SHANGHAI_DATA_DIR``
    when set, else ``$XDG_DATA_HOME/shanghai`` (``%LOCALAPPDATA%`` on Windows), else
    ``~/.local/share/shanghai``. It is not created here.

    >>> import os
    >>> os.environ["SHANGHAI_DATA_DIR"] = "/tmp/sh"
    >>> str(data_dir())
    '/tmp/sh'
    >>> del os.environ["SHANGHAI_DATA_DIR"]
    """
    own = os.environ.get("SHANGHAI_DATA_DIR")
    if own:
        return Path(own).expanduser()
    base = os.environ.get("XDG_DATA_HOME")
    if not base and sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA")
    root = Path(base).expanduser() if base else Path.home() / ".local" / "share"
    return root / "shanghai"
