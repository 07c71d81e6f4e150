"""Entry point of the Rummy bot (the Discord side is still being built)."""

import sys

if __name__ == "__main__":
    print("The Discord bot is not built yet; the rules engine is in engine/.", file=sys.stderr)
    sys.exit(1)
