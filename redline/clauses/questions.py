"""Which kind of clause a plain question is about ("Who are the parties?" -> Parties).

A question about a clause type should be answered by the clause engine, not
by word overlap: "What is the name of this agreement?" shares no word with a
title such as "DISTRIBUTION AGREEMENT" that a retriever could rank above the
trademark clause. The kind is read from the question's meaning, every word
of it against plain phrasings of each kind (:mod:`.question_routing`); a
question about no kind is left to retrieval.
"""

from __future__ import annotations

from .question_routing import route_question

# One plain question per CUAD category, as a lawyer would ask it (no words from any contract): what the
# evaluation of ``ask`` runs, and what tests check the router against.
PLAIN_QUESTIONS: dict[str, str] = {
    "Document Name": "What is the name of this agreement?",
    "Parties": "Who are the parties to this contract?",
    "Agreement Date": "When was the agreement signed?",
    "Effective Date": "When does the agreement become effective?",
    "Expiration Date": "When does the agreement expire?",
    "Renewal Term": "Does the contract renew, and for how long?",
    "Notice Period To Terminate Renewal": "How much notice is needed to stop it from renewing?",
    "Governing Law": "Which law governs the contract?",
    "Most Favored Nation": "Is there a most favored nation clause?",
    "Competitive Restriction Exception": "Are there exceptions to the non-compete or exclusivity restrictions?",
    "Non-Compete": "Is either party restricted from competing?",
    "Exclusivity": "Is the relationship exclusive?",
    "No-Solicit Of Customers": "May a party solicit the other party's customers?",
    "No-Solicit Of Employees": "May a party hire the other party's employees?",
    "Non-Disparagement": "Is there a non-disparagement obligation?",
    "Termination For Convenience": "Can a party terminate for convenience?",
    "Rofr/Rofo/Rofn": "Does anyone have a right of first refusal, offer or negotiation?",
    "Change Of Control": "What happens on a change of control?",
    "Anti-Assignment": "Can a party assign the agreement?",
    "Revenue/Profit Sharing": "Is there revenue or profit sharing?",
    "Price Restrictions": "Are there restrictions on raising prices?",
    "Minimum Commitment": "Is there a minimum purchase commitment?",
    "Volume Restriction": "Is there a volume limit?",
    "Ip Ownership Assignment": "Who owns the intellectual property developed under the contract?",
    "Joint Ip Ownership": "Is any intellectual property jointly owned?",
    "License Grant": "What license is granted?",
    "Non-Transferable License": "Can the license be transferred?",
    "Affiliate License-Licensor": "Does the licensor license its affiliates' rights too?",
    "Affiliate License-Licensee": "May the licensee's affiliates use the license?",
    "Unlimited/All-You-Can-Eat-License": "Is the license unlimited in use or copies?",
    "Irrevocable Or Perpetual License": "Is any license irrevocable or perpetual?",
    "Source Code Escrow": "Is source code held in escrow?",
    "Post-Termination Services": "What obligations continue after termination?",
    "Audit Rights": "Does a party have audit rights?",
    "Uncapped Liability": "Is any liability uncapped?",
    "Cap On Liability": "Is liability capped?",
    "Liquidated Damages": "Are there liquidated damages?",
    "Warranty Duration": "How long does the warranty last?",
    "Insurance": "What insurance must be maintained?",
    "Covenant Not To Sue": "Is a party barred from challenging the other's rights or suing?",
    "Third Party Beneficiary": "Can third parties enforce the contract?",
}


def question_category(question: str) -> str | None:
    """The CUAD category a question is most about, or None when it is not about a clause type."""
    kinds = route_question(question)
    return kinds[0] if kinds else None
