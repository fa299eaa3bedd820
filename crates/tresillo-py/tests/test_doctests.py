"""The examples in the package's docstrings run (issue 56: `restartable`'s did
not)."""

import doctest

import tresillo
from conftest import need


def test_the_package_docstring_runs():
    assert doctest.testmod(tresillo, raise_on_error=True).attempted > 0


def test_the_openspiel_docstrings_run():
    need("pyspiel")
    import tresillo.openspiel

    result = doctest.testmod(tresillo.openspiel, raise_on_error=True)
    assert result.attempted >= 6 and result.failed == 0
