"""The 26 clause categories and the keyword classifier that assigns them.

Rules name a category so the pipeline can pick the paragraphs a rule applies
to without asking a model. The classifier is deliberately simple and
transparent: each category has a *signal* (strong wording in a clause's own
text) and a *title* pattern (how a heading for that kind of clause reads). A
lawyer can read the patterns and see why a paragraph was picked; a wrong pick
costs one extra paragraph in a prompt, a missed one costs a missed issue, so
the signals lean towards recall.
"""

from __future__ import annotations

import re
from enum import StrEnum

from redline.clauses.prefilter import Matcher, matcher
from redline.clauses.scan import Corpus


class Category(StrEnum):
    """ClauseCraft-style clause categories for commercial contracts."""

    DEFINITIONS = "definitions"
    SCOPE_OF_WORK = "scope_of_work"
    PAYMENT_TERMS = "payment_terms"
    PRICING_AND_FEES = "pricing_and_fees"
    TAXES = "taxes"
    TERM_AND_RENEWAL = "term_and_renewal"
    TERMINATION = "termination"
    LIMITATION_OF_LIABILITY = "limitation_of_liability"
    INDEMNIFICATION = "indemnification"
    WARRANTIES = "warranties"
    CONFIDENTIALITY = "confidentiality"
    INTELLECTUAL_PROPERTY = "intellectual_property"
    LICENSE_GRANT = "license_grant"
    DATA_PROTECTION = "data_protection"
    INSURANCE = "insurance"
    FORCE_MAJEURE = "force_majeure"
    GOVERNING_LAW = "governing_law"
    DISPUTE_RESOLUTION = "dispute_resolution"
    ASSIGNMENT = "assignment"
    NON_SOLICITATION = "non_solicitation"
    EXCLUSIVITY = "exclusivity"
    AUDIT_RIGHTS = "audit_rights"
    SERVICE_LEVELS = "service_levels"
    NOTICES = "notices"
    COMPLIANCE = "compliance"
    GENERAL = "general"


CATEGORIES: tuple[str, ...] = tuple(c.value for c in Category)

# (signal in a clause's own text, wording of a heading for that category)
_PATTERNS: dict[Category, tuple[str, str]] = {
    Category.DEFINITIONS: (
        r"^\W{0,3}[\"“][^\"”]{1,80}[\"”]\s+(?:shall\s+)?means?\b|\bshall have the meanings?\b",
        r"\bdefinitions?\b|\binterpretation\b",
    ),
    Category.SCOPE_OF_WORK: (
        r"\bstatements? of work\b|\bscope of (?:the )?(?:services|work)\b|\bacceptance (?:tests?|criteria|certificate)\b",
        r"\bservices\b|\bscope\b|\bstatements? of work\b|\bdeliverables\b|\bacceptance\b",
    ),
    Category.PAYMENT_TERMS: (
        r"\binvoices?\b|\binvoiced\b|\bpayable\b|\bpayments?\b|\bpay\b|\blate payment\b|\boverdue\b",
        r"\bpayment\b|\binvoic\w*\b|\bcharges\b|\bfees\b",
    ),
    Category.PRICING_AND_FEES: (
        r"\b(?:increase|adjust|vary|change|revise)\w*\s+(?:the\s+|its\s+)?(?:fees|charges|prices|rates)\b"
        r"|\bprice (?:increase|adjustment|review)s?\b|\bindexation\b|\brate card\b|\bconsumer price index\b|\bCPI\b",
        r"\bfees\b|\bcharges\b|\bpric\w+\b|\brates\b",
    ),
    Category.TAXES: (
        r"\btaxes\b|\bVAT\b|\bvalue added tax\b|\bwithholding\b|\bsales tax\b|\bGST\b",
        r"\btax\w*\b",
    ),
    Category.TERM_AND_RENEWAL: (
        r"\binitial term\b|\brenewal terms?\b|\bauto(?:matic(?:ally)?)?[\s-]?renew\w*|\brenew\w*\b|\bsuccessive (?:periods?|terms?)\b",
        r"\bterm\b|\bduration\b|\brenewal\b",
    ),
    Category.TERMINATION: (
        r"\bterminat(?:e|es|ed|ing|ion)\b",
        r"\bterminat\w+\b|\bexit\b",
    ),
    Category.LIMITATION_OF_LIABILITY: (
        r"\blimitation of liability\b|\b(?:aggregate|total|maximum|cumulative|entire) liability\b"
        r"|\bliab(?:le|ility)\b.{0,120}?\b(?:exceed|limited to|capped|cap)\b|\bin no event (?:shall|will)\b.{0,80}?\bliable\b"
        r"|\b(?:indirect|consequential|special|punitive)\b.{0,60}?\b(?:loss|losses|damages?)\b|\bunlimited liability\b",
        r"\bliabilit\w*\b",
    ),
    Category.INDEMNIFICATION: (
        r"\bindemnif\w*|\bindemnit(?:y|ies)\b|\bhold harmless\b|\bdefend\b.{0,40}?\bagainst\b",
        r"\bindemn\w+\b",
    ),
    Category.WARRANTIES: (
        r"\bwarrant(?:s|y|ies|ed)?\b|\bas is\b|\bas-is\b|\bmerchantability\b|\bfitness for (?:a )?particular purpose\b",
        r"\bwarrant\w*\b|\brepresentations\b",
    ),
    Category.CONFIDENTIALITY: (
        r"\bconfidential(?:ity)?\b|\bnon-disclosure\b|\bproprietary information\b",
        r"\bconfidential\w*\b|\bnon-disclosure\b",
    ),
    Category.INTELLECTUAL_PROPERTY: (
        r"\bintellectual property\b|\bcopyrights?\b|\bpatents?\b|\btrade ?marks?\b|\bmoral rights\b"
        r"|\bwork product\b|\bbackground (?:ip|materials|technology)\b|\bforeground (?:ip|materials)\b",
        r"\bintellectual property\b|\bownership\b|\b(?:ip|ipr)\b",
    ),
    Category.LICENSE_GRANT: (
        r"\b(?:grants?|granted)\b.{0,80}?\blicen[cs]e\b|\blicen[cs]e\b.{0,60}?\b(?:to use|perpetual|irrevocable|royalty|exclusive|sub-?licen[cs]\w*|transferable)\b",
        r"\blicen[cs]\w+\b",
    ),
    Category.DATA_PROTECTION: (
        r"\bpersonal data\b|\bpersonal information\b|\bdata protection\b|\bGDPR\b|\bdata subjects?\b|\bprocessor\b"
        r"|\bdata breach\b|\bsecurity (?:incident|breach)\b|\bprivacy\b|\bsub-?processors?\b",
        r"\bdata\b|\bprivacy\b|\bsecurity\b",
    ),
    Category.INSURANCE: (r"\binsur(?:ance|ed|er|ers)\b", r"\binsurance\b"),
    Category.FORCE_MAJEURE: (
        r"\bforce majeure\b|\bacts? of god\b|\bbeyond (?:its|their|the affected party's) reasonable control\b",
        r"\bforce majeure\b",
    ),
    Category.GOVERNING_LAW: (
        r"\bgoverned by\b|\bgoverning law\b|\bconstrued in accordance with the laws?\b|\blaws of (?:the )?(?:state|commonwealth|province)\b",
        r"\bgoverning law\b|\blaw and jurisdiction\b|\bapplicable law\b|\bchoice of law\b",
    ),
    Category.DISPUTE_RESOLUTION: (
        r"\b(?:exclusive|non-exclusive) jurisdiction\b|\bsubmit\w* to the jurisdiction\b|\bcourts? of\b|\barbitrat\w+\b"
        r"|\bdispute resolution\b|\bmediation\b|\bvenue\b|\bescalat\w+ (?:procedure|process)\b",
        r"\bdisputes?\b|\bjurisdiction\b|\barbitration\b",
    ),
    Category.ASSIGNMENT: (
        r"\bassign(?:s|ed|ment)?\b.{0,80}?\b(?:this agreement|its rights|consent|obligations)\b|\bnovat(?:e|ion)\b|\bsubcontract\w*\b|\bchange of control\b",
        r"\bassign\w*\b|\bsubcontract\w*\b|\bnovation\b",
    ),
    Category.NON_SOLICITATION: (
        r"\b(?:solicit\w*|entice\w*|hire|employ|engage)\b.{0,80}?\b(?:employees?|personnel|staff|workers)\b|\bnon-solicit\w*\b",
        r"\bnon-solicit\w*\b|\bsolicitation\b",
    ),
    Category.EXCLUSIVITY: (
        r"\bexclusive (?:supplier|provider|distributor|reseller|basis|rights?)\b|\bexclusively from\b|\bexclusivity\b"
        r"|\bnon-compet\w*\b|\bshall not (?:directly or indirectly )?compete\b|\bsole (?:supplier|provider|source)\b",
        r"\bexclusiv\w*\b|\bnon-compet\w*\b",
    ),
    Category.AUDIT_RIGHTS: (
        r"\baudit\w*\b|\binspect(?:ion)?\b.{0,40}?\b(?:records|books|premises)\b|\bbooks and records\b",
        r"\baudit\w*\b|\brecords\b",
    ),
    Category.SERVICE_LEVELS: (
        r"\bservice levels?\b|\bSLAs?\b|\bservice credits?\b|\buptime\b|\bavailability\b.{0,40}?%|\bresponse times?\b",
        r"\bservice levels?\b|\bsla\b|\bperformance\b",
    ),
    Category.NOTICES: (
        r"\bnotices?\b.{0,120}?\b(?:in writing|delivered|by hand|courier|registered|e-?mail|addressed)\b|\bdeemed (?:to have been )?received\b",
        r"\bnotices?\b",
    ),
    Category.COMPLIANCE: (
        r"\banti-(?:bribery|corruption)\b|\bbribery act\b|\bFCPA\b|\bsanctions\b|\bexport control\w*\b|\bmodern slavery\b|\bcomply with all applicable laws?\b",
        r"\bcompliance\b|\banti-bribery\b|\bethics\b",
    ),
    Category.GENERAL: (
        r"\bentire agreement\b|\bseverab\w+\b|\bwaiver\b|\bcounterparts\b|\bno partnership\b|\bthird[- ]party rights\b|\bamendments?\b",
        r"\bgeneral\b|\bmiscellaneous\b|\bboilerplate\b",
    ),
}

_SIGNALS: tuple[tuple[Category, Matcher], ...] = tuple(
    (cat, matcher(re.compile(signal, re.IGNORECASE))) for cat, (signal, _) in _PATTERNS.items()
)
_TITLES: tuple[tuple[Category, Matcher], ...] = tuple(
    (cat, matcher(re.compile(title, re.IGNORECASE))) for cat, (_, title) in _PATTERNS.items()
)


def classify_text(text: str) -> frozenset[Category]:
    """Categories whose strong wording appears in a clause's own text."""
    lower = text.lower()
    return frozenset(cat for cat, m in _SIGNALS if m.search(text, lower))


def classify_texts(corpus: Corpus) -> list[frozenset[Category]]:
    """:func:`classify_text` of every text of ``corpus``, each pattern run only where its literals occur."""
    hits = [(cat, corpus.matching(m.rx)) for cat, m in _SIGNALS]
    return [frozenset(cat for cat, found in hits if i in found) for i in range(len(corpus.texts))]


def classify_heading(text: str) -> frozenset[Category]:
    """Categories a heading announces ("ARTICLE 14 LIMITATION OF LIABILITY")."""
    lower = text.lower()
    return frozenset(cat for cat, m in _TITLES if m.search(text, lower))
