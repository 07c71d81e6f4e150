"""Keeps the translation catalogues in step with the code, slash commands
included::

    python -m app.catalogues update   # after changing any text
    python -m app.catalogues check    # every language has every text
"""

from __future__ import annotations

import sys

from presentation.catalogues import main

from .commands_text import command_texts

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:], extra=command_texts(), prog="python -m app.catalogues"))
