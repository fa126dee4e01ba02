"""The ``shanghai`` command line: ``rules``, ``judge``, ``simulate``, ``replay`` and ``play``.

The entry point is ``shanghai.cli.main:main``; ``python -m shanghai.cli`` runs it too.
"""
