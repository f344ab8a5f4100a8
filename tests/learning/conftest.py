"""Fixtures for the learning tests: the redlined contract and the lawyer's pass over it, built once."""

from __future__ import annotations

import pytest

from tests.learning.lawyer import Written, review, write_contract


@pytest.fixture(scope="session")
def written() -> Written:
    """The contract with one suggestion per scenario written into it."""
    return write_contract()


@pytest.fixture(scope="session")
def reviewed(written: Written) -> bytes:
    """The redlined contract after the lawyer acted out every scenario."""
    return review(written)
