from pathlib import Path

import pytest

SLICE = Path(__file__).resolve().parents[1] / "support" / "cuad_slice"


@pytest.fixture(scope="session")
def cuad_slice() -> Path:
    """A fixed slice of CUAD v1 (12 train, 9 dev contracts) that travels with the tests."""
    return SLICE
