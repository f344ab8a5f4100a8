"""Fixtures for the contract graph and retrieval tests: a hand-written contract and a generated one."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from redline.retrieval.graph import ContractGraph

MAKE_CONTRACT = Path(__file__).resolve().parents[1] / "support" / "make_contract.py"

# A contract as it comes out of a PDF/EDGAR text dump: a table of contents,
# running headers, page numbers on their own lines, articles with numbered
# sections and lettered clauses, every definition shape, every reference shape.
CONTRACT = """\
MASTER SUPPLY AGREEMENT

TABLE OF CONTENTS
ARTICLE I DEFINITIONS 1
1.1 Definitions 1
ARTICLE II SUPPLY 2
ARTICLE III TERM AND TERMINATION 3
Schedule A Products 5

This Master Supply Agreement (this "Agreement") is made between Acme Corp. (hereinafter "Supplier") and \
Beta LLC (the "Customer" and, together with Supplier, the "Parties").

ARTICLE I
DEFINITIONS

1.1 Definitions. In this Agreement:

"Cause" means a material breach of Section 2.2 that is not cured within thirty (30) days.

"Products" shall mean the goods listed in Schedule A.

"Business Day" has the meaning given in Section 3.3.

For the purposes of this Agreement, the term "Affiliate" refers to any entity controlling a Party.

1.2 Interpretation. Headings do not affect interpretation.

Source: ACME CORP, 10-K, 3/1/2020

2

ARTICLE II
SUPPLY

2.1 Orders. The Customer may order Products on any Business Day.

2.2 Quality. The Supplier shall deliver Products that:
(a) conform to the specifications in Exhibit B;
(b) are free from defects; and
(c) comply with paragraph (a) at delivery.

2.3 Pricing. Prices are set out in Schedule A, subject to Sections 2.1 and 2.2 and Article III.

Source: ACME CORP, 10-K, 3/1/2020

3

ARTICLE III
TERM AND TERMINATION

3.1 Term. This Agreement starts on the date of signature (the "Effective Date") and lasts five years.

3.2 Termination for Cause. Either Party may terminate this Agreement for Cause by notice, \
provided that the breaching Party has failed to remedy the breach under clause 3.1 and Section 2.2(b). \
The notice must follow Section 9.9 and Section 4.2 of the Master Services Agreement.

3.3 Business Days. A day on which banks in London are open is a business day for the purposes of this Agreement.

Source: ACME CORP, 10-K, 3/1/2020

4

SCHEDULE A
PRODUCTS

Widgets and gadgets supplied by the Supplier to the Customer's Affiliates.

Source: ACME CORP, 10-K, 3/1/2020

5
"""


@pytest.fixture(scope="session")
def contract_text() -> str:
    return CONTRACT


@pytest.fixture(scope="session")
def graph() -> ContractGraph:
    return ContractGraph.from_text(CONTRACT)


def section(graph: ContractGraph, number: str):
    """The section with this number (test helper)."""
    found = [s for s in graph.sections if s.number == number]
    assert found, f"no section {number}: {[s.number for s in graph.sections]}"
    return found[0]


@pytest.fixture(scope="session")
def generated_docx(tmp_path_factory) -> Path:
    """A generated 10-page contract (Word headings, clause numbers, tables, header and footer)."""
    path = tmp_path_factory.mktemp("contracts") / "contract-10p.docx"
    subprocess.run([sys.executable, str(MAKE_CONTRACT), "--pages", "10", "-o", str(path)],
                   check=True, capture_output=True)
    return path
