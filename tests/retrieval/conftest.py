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


# A services agreement with long clauses: a glossary where one term only points elsewhere ("Service Credit"
# has the meaning set forth in Section 4.2), uses of that term deep inside long clauses, and long sections
# a budget must cut (the selection and clause-context tests).
def filler(topic: str, n: int) -> str:
    """``n`` plain sentences about ``topic`` (no defined term, no reference)."""
    return " ".join(f"The parties shall review the {topic} arrangements at meeting number {i} and record the "
                    f"outcome in the minutes kept for that purpose." for i in range(1, n + 1))


_GLOSSARY = "\n\n".join(f'1.{i} "Term {chr(64 + i)}{chr(64 + i)}" means the item numbered {i} in the schedule of '
                       f"items kept by the Supplier for the purposes of this Agreement." for i in range(3, 25))
SERVICES = f"""\
SERVICES AGREEMENT

ARTICLE 1 DEFINITIONS

1.1 "Affiliate" means any entity that controls, is controlled by or is under common control with a Party.

1.2 "Service Credit" has the meaning set forth in Section 4.2.

{_GLOSSARY}

ARTICLE 2 SERVICES

2.1 Delivery. The Supplier shall provide the services described in the order form.

2.2 Reporting. {filler("reporting", 25)} Each report shows the Service Credits accrued in the month. \
{filler("audit", 8)}

ARTICLE 3 FEES

3.1 Invoices. The Customer shall pay each invoice within thirty days. {filler("invoicing", 20)}

ARTICLE 4 SERVICE LEVELS

4.1 Availability. The services shall be available ninety-nine percent of each month, paid for under Section 3.1.

4.2 Credits. If the Supplier misses a service level, it shall pay the Customer five percent of the monthly fee \
(a "Service Credit").

ARTICLE 5 GENERAL

5.1 Remedy. Service Credits are the Customer's sole remedy for a missed service level.

5.2 Notices. {filler("notice", 30)}
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
