"""The bad-input corpus (issue 14, section 3): pages, server routes and CLI cases.

Every ``cases_*.py`` module here defines ``PAGES`` (files written into the corpus
folder), ``ROUTES`` (server paths whose handler writes the whole response) and
``CASES`` (:class:`badinput.case.Case`); ``tests/test_badinput.py`` runs them all.
"""
