"""Helpers the test modules share (they import from here, never from each other).

``tests/`` is on ``sys.path`` while pytest runs (no ``__init__.py`` there), so a test module
imports ``helpers.console``, ``helpers.net`` and so on; fixtures are in ``tests/conftest.py``.
"""
