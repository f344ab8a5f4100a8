"""Fixtures for the analysis engine: realistic contracts, a generated one, and counting providers."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from redline.analysis.clauses import Clause, clauses_from_paragraphs
from redline.analysis.playbook.io import default_playbook
from redline.analysis.playbook.model import Playbook
from redline.analysis.providers.base import ProviderResponse, RuleRequest
from redline.analysis.providers.offline import OfflineProvider
from redline.ooxml.paragraphs import read_document

ROOT = Path(__file__).resolve().parents[2]

# A short but realistic services agreement: some clauses deviate from the default
# playbook (payment period, liability cap, unlimited liability, auto-renewal,
# one-sided indemnity), some comply, and governing law and jurisdiction are missing.
MSA: list[tuple[str, str | None, int | None]] = [
    ("MASTER SERVICES AGREEMENT", "Title", None),
    ("This Agreement is made between Acme Holdings Limited, a company incorporated in England and Wales "
     "(the “Customer”), and Widget Services Inc., a Delaware corporation (the “Supplier”).", None, None),
    ("1. Fees and Payment", "Heading 1", 1),
    ("1.1 The Customer shall pay each undisputed invoice within ninety (90) days of receipt.", None, None),
    ("2. Limitation of Liability", "Heading 1", 1),
    ("2.1 The Supplier's total aggregate liability under this Agreement shall not exceed fifty percent (50%) of "
     "the fees paid in the twelve (12) months preceding the claim.", None, None),
    ("2.2 The Customer shall have unlimited liability for any breach of its obligations under clause 5.", None, None),
    ("3. Term", "Heading 1", 1),
    ("3.1 This Agreement shall automatically renew for successive periods of twelve (12) months unless either "
     "Party gives notice of non-renewal at least ninety (90) days before the end of the then-current term.", None, None),
    ("4. Indemnities", "Heading 1", 1),
    ("4.1 The Customer shall indemnify, defend and hold harmless the Supplier from and against any and all claims, "
     "losses and damages arising out of or in connection with this Agreement.", None, None),
    ("5. Confidentiality", "Heading 1", 1),
    ("5.1 Each Party shall keep the other Party's Confidential Information confidential, and this obligation "
     "survives termination for five (5) years.", None, None),
    ("6. Termination", "Heading 1", 1),
    ("6.1 Either Party may terminate this Agreement if the other commits a material breach which is not remedied "
     "within thirty (30) days of written notice.", None, None),
    ("7. Notices", "Heading 1", 1),
    ("7.1 Notices shall be in writing and delivered by hand or courier to the address of the recipient set out "
     "above, and are deemed received on delivery.", None, None),
    ("8. Data Protection", "Heading 1", 1),
    ("8.1 The Supplier shall comply with data protection law when processing personal data and shall notify the "
     "Customer of any personal data breach within forty-eight (48) hours.", None, None),
    ("9. Force Majeure", "Heading 1", 1),
    ("9.1 Neither Party shall be liable for any delay caused by events beyond its reasonable control, other than "
     "payment obligations.", None, None),
    ("10. General", "Heading 1", 1),
    ("10.1 This Agreement constitutes the entire agreement between the Parties.", None, None),
    ("IN WITNESS WHEREOF the Parties have executed this Agreement.", None, None),
]


def make_clauses(rows: list[tuple[str, str | None, int | None]]) -> list[Clause]:
    """Clauses with synthetic anchors, as the add-in or the reader would give them."""
    return [Clause(f"_RL_{i:012x}", text, style, level) for i, (text, style, level) in enumerate(rows)]


def anchor_of(clauses: list[Clause], prefix: str) -> str:
    """The anchor of the clause whose text starts with ``prefix``."""
    return next(c.anchor for c in clauses if c.text.startswith(prefix))


class CountingProvider:
    """The offline provider, recording every request it is asked (to prove what is cached)."""

    name = "offline"
    model = "rules"
    max_concurrency = 1
    max_batch_chars = None

    def __init__(self) -> None:
        self.inner = OfflineProvider()
        self.requests: list[RuleRequest] = []

    @property
    def identity(self) -> str:
        return self.inner.identity

    def analyze(self, request: RuleRequest) -> ProviderResponse:
        self.requests.append(request)
        return self.inner.analyze(request)


@pytest.fixture
def msa() -> list[Clause]:
    return make_clauses(MSA)


@pytest.fixture(scope="session")
def playbook() -> Playbook:
    return default_playbook()


@pytest.fixture(scope="session")
def generated_docx(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """The 10-page contract from tests/support/make_contract.py (the demo contract generator)."""
    out = tmp_path_factory.mktemp("contract") / "c10.docx"
    subprocess.run([sys.executable, str(ROOT / "tests/support/make_contract.py"), "--pages", "10", "-o", str(out)],
                   check=True, capture_output=True)
    return out.read_bytes()


@pytest.fixture(scope="session")
def generated(generated_docx: bytes) -> list[Clause]:
    return clauses_from_paragraphs(read_document(generated_docx).paragraphs)
