"""Which kind of clause a plain question is about ("Who are the parties?" -> Parties).

A question about a clause type should be answered by the clause engine, not
by word overlap: "What is the name of this agreement?" shares no word with a
title such as "DISTRIBUTION AGREEMENT" that a retriever could rank above the
trademark clause. The patterns are tried in order, the more specific first
(renewal notice before renewal, uncapped before capped liability); a question
that matches none is left to retrieval.
"""

from __future__ import annotations

import re

_QUESTIONS: tuple[tuple[str, str], ...] = (
    ("Third Party Beneficiary", r"\bthird[- ]part(?:y|ies)\b"),
    ("Warranty Duration", r"\bwarrant\w*\b.{0,40}\b(?:long|period|duration|last)\b|\bhow long\b.{0,40}\bwarrant\w*\b"),
    ("Document Name", r"\b(?:name|title) of (?:this|the) (?:agreement|contract|document)\b"
                      r"|\bwhat (?:is|'s) (?:this|the) (?:agreement|contract) called\b|\bdocument name\b"),
    ("Parties", r"\bparties\b|\bwho (?:is|are)\b.{0,40}\b(?:part(?:y|ies)|signator\w*|contracting)\b"),
    ("Notice Period To Terminate Renewal", r"\bnotice\b.{0,60}\b(?:renew\w*|non-renewal|extension)\b"
                                           r"|\b(?:renew\w*|non-renewal)\b.{0,60}\bnotice\b"),
    ("Renewal Term", r"\brenew\w*\b|\bextension term\b|\bautomatic(?:ally)? extend"),
    ("Effective Date", r"\beffective\b|\bcommence\w*\b|\bstart(?:s|ing)? date\b|\bwhen does\b.{0,30}\bstart\b"),
    ("Agreement Date", r"\bdate of (?:this|the) (?:agreement|contract)\b|\bwhen was\b.{0,40}\b(?:signed|executed|"
                       r"made|dated|entered)\b|\bagreement date\b|\bdated\b"),
    ("Expiration Date", r"\bexpir\w*\b|\bend date\b|\bwhen does\b.{0,40}\bend\b|\binitial term\b|\bhow long\b"),
    ("Governing Law", r"\bgovern\w*\b|\bwhich (?:law|laws|jurisdiction)\b|\bapplicable law\b|\bchoice of law\b"),
    ("Most Favored Nation", r"\bmost[- ]favou?red\b|\bmfn\b|\bbest (?:price|terms)\b|\bno less favou?rable\b"),
    ("Competitive Restriction Exception", r"\bexceptions?\b.{0,60}\b(?:non-?compet\w*|exclusiv\w*|restrict\w*)\b"
                                          r"|\bcarve[- ]?outs?\b"),
    ("Non-Compete", r"\bnon-?compet\w*\b|\bcompet(?:e|es|ing|ition)\b"),
    ("Exclusivity", r"\bexclusiv\w*\b"),
    ("No-Solicit Of Customers", r"\bsolicit\w*\b.{0,40}\b(?:customers?|clients?)\b"),
    ("No-Solicit Of Employees", r"\b(?:solicit\w*|hir\w+|poach\w*|recruit\w*)\b.{0,40}\b(?:employees?|staff|personnel)\b"),
    ("Non-Disparagement", r"\bdisparag\w*\b|\bnegative statements?\b"),
    ("Termination For Convenience", r"\bterminat\w*\b.{0,60}\b(?:convenience|without cause|any reason|at will|"
                                    r"for no reason)\b"),
    ("Rofr/Rofo/Rofn", r"\bright of first\b|\bfirst (?:refusal|offer|negotiation)\b|\brof[rno]\b"),
    ("Change Of Control", r"\bchange (?:of|in) control\b|\bmergers?\b|\bacquisition\b|\bacquired\b"),
    ("Anti-Assignment", r"\bassign\w*\b.{0,60}\b(?:agreement|contract|consent|rights)\b|\bcan\b.{0,30}\bassign\b"),
    ("Revenue/Profit Sharing", r"\brevenue\b|\bprofits?\b|\broyalt\w*\b"),
    ("Price Restrictions", r"\bprices?\b.{0,40}\b(?:increase\w*|restrict\w*|chang\w*|rais\w*|fixed)\b"
                           r"|\b(?:rais\w*|increas\w*|chang\w*)\b.{0,20}\bprices?\b"),
    ("Minimum Commitment", r"\bminimum\b"),
    ("Volume Restriction", r"\bvolume\b|\bmaximum (?:quantit\w*|amount|number)\b"),
    ("Joint Ip Ownership", r"\bjoint\w*\b.{0,40}\b(?:own\w*|ip|intellectual property)\b"),
    ("Ip Ownership Assignment", r"\b(?:owns?|ownership)\b.{0,60}\b(?:ip|intellectual property|inventions?|work product|"
                                r"improvements?|developments?)\b|\bassign\w*\b.{0,40}\bintellectual property\b"),
    ("Uncapped Liability", r"\buncapped\b|\bunlimited liability\b|\bliabilit\w*\b.{0,40}\bnot (?:capped|limited)\b"),
    ("Unlimited/All-You-Can-Eat-License", r"\bunlimited\b|\ball[- ]you[- ]can[- ]eat\b"),
    ("Affiliate License-Licensor", r"\baffiliates?\b.{0,40}\blicensor\b|\blicensor\b.{0,40}\baffiliates?\b"),
    ("Affiliate License-Licensee", r"\baffiliates?\b.{0,60}\blicen[cs]\w*\b|\blicen[cs]\w*\b.{0,60}\baffiliates?\b"),
    ("Non-Transferable License", r"\b(?:non-?transferable|transfer\w*)\b.{0,40}\blicen[cs]\w*\b"
                                 r"|\blicen[cs]\w*\b.{0,40}\btransfer\w*\b"),
    ("Irrevocable Or Perpetual License", r"\birrevocable\b|\bperpetual\b"),
    ("License Grant", r"\blicen[cs]\w*\b"),
    ("Source Code Escrow", r"\bescrow\b|\bsource code\b"),
    ("Post-Termination Services", r"\b(?:after|post|following|upon)[- ](?:the )?(?:termination|expiration|expiry)\b"
                                  r"|\bwind[- ]down\b|\btransition (?:services|period)\b"),
    ("Audit Rights", r"\baudit\w*\b|\binspect\w*\b.{0,40}\b(?:books|records)\b"),
    ("Cap On Liability", r"\b(?:caps?|capped|limit\w*)\b.{0,40}\bliabilit\w*\b|\bliabilit\w*\b.{0,40}\b(?:caps?|"
                         r"capped|limit\w*)\b|\bmaximum liability\b"),
    ("Liquidated Damages", r"\bliquidated\b|\bpenalt\w*\b|\bbreak fee\b|\btermination fee\b"),
    ("Insurance", r"\binsur\w*\b"),
    ("Covenant Not To Sue", r"\b(?:sue|suing|contest\w*|challeng\w*)\b"),
)
_COMPILED = tuple((name, re.compile(rx, re.IGNORECASE)) for name, rx in _QUESTIONS)

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
    """The CUAD category a question asks about, or None when it is not about a clause type."""
    for name, rx in _COMPILED:
        if rx.search(question):
            return name
    return None
