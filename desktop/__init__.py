"""The PySide6 desktop client of agent_core.

Importing the package first finishes importing pydantic's validators on the
importing (main) thread. The reason is an interaction between two libraries
RegDesk uses together. Once any Qt module is loaded (in the frozen app that
happens before our code runs, in PyInstaller's PySide6 runtime hook),
shiboken's import hook inspects every newly imported module with
``inspect.getsource``, which looks up ``module.__wrapped__``. On a pydantic
module that lookup runs pydantic's lazy module ``__getattr__``, which imports
``pydantic._internal._validators``. When two threads import pydantic for the
first time at once (the GUI and the CLI start the embedded services on a
worker thread while the agent imports), that nested import can meet the
validators module half-initialised and the whole import fails with
"cannot import name 'import_string' from partially initialized module".
Measured before this import: 1 of 12 frozen ``regdesk scenarios`` runs under
load, 2 of 64 source runs of the same two-thread import. With the validators
module complete before any second thread exists, the nested import only ever
finds the finished module.
"""

try:  # a private module: if pydantic moves it, the app still starts
    import pydantic._internal._validators  # noqa: F401
except ImportError:  # pragma: no cover - depends on the installed pydantic
    pass
