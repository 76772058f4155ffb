"""The adversarial suite: each case is named in :data:`tests.security.cases.CASES` with the test that holds it.

Real Chromium, loopback pages (``pages/``, served by :mod:`tests.security.site`; "another site" is the same
server reached as ``localhost``) and, for the model-driven cases, the scripted model server told to obey the
injection - what stops each attack is a guard in code. ``test_suite.py`` fails when a listed case has no test.
"""
