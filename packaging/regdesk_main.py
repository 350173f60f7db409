"""PyInstaller entry script: the frozen ``regdesk`` executable.

Kept separate from ``desktop/launcher.py`` so the bundle runs the same
``main()`` the console script runs, with nothing frozen-only in the product.
"""

import multiprocessing
import sys

from desktop.launcher import main

if __name__ == "__main__":
    # Harmless when nothing forks; required if a library ever spawns workers.
    multiprocessing.freeze_support()
    sys.exit(main())
