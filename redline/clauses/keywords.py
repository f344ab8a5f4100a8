"""A few words per CUAD category that a reviewer would search for.

Two uses: the keyword baseline (``baseline.py``) that the model must beat in
every category, and a feature of the model itself ("this sentence matches the
reviewer's search for category X"), which carries a lawyer's prior into
categories with only a dozen training contracts.
"""

from __future__ import annotations

import re

KEYWORDS: dict[str, str] = {
    "Document Name": r"^[A-Z0-9 ,&'\-]*AGREEMENT[A-Z0-9 ,&'\-]*$",
    "Parties": r"\bby and (?:between|among)\b|\bbetween\b.{0,200}\band\b.{0,200}\(",
    "Agreement Date": r"\b(?:dated|made|entered into)\b.{0,60}\b(?:19|20)\d\d\b",
    "Effective Date": r"\beffective date\b",
    "Expiration Date": r"\b(?:initial term|term of this agreement|shall expire|expiration)\b",
    "Renewal Term": r"\b(?:renew\w*|successive)\b",
    "Notice Period To Terminate Renewal": r"\bnotice\b.{0,120}\b(?:renew\w*|expiration|non-renewal)\b",
    "Governing Law": r"\bgoverned by\b|\bgoverning law\b|\blaws of the state\b",
    "Most Favored Nation": (r"\bmost favou?red\b|\b(?:no|not be) less favou?rabl|\bat least as favou?rable\b|\bMFN\b"
                            r"|\b(?:more|most) favou?rable (?:terms|prices?|pricing|treatment)|\blowest (?:net )?(?:prices?|rates?)\b"
                            r"|\bnot be charged a higher\b"),
    "Competitive Restriction Exception": r"\bnotwithstanding\b.{0,120}\b(?:compet\w*|exclusiv\w*)\b",
    "Non-Compete": r"\bnon-?compet\w*|\bshall not\b.{0,80}\bcompet\w*",
    "Exclusivity": r"\bexclusiv\w*",
    "No-Solicit Of Customers": (r"\b(?:solicit|divert|induce|entice|persuade)\w*\b.{0,100}\b(?:customers?|clients?)\b"
                                r"|\bcircumvent\w*\b.{0,60}\brelationships?\b|\bnot\b.{0,40}\bcontact\b.{0,40}\bcustomer"),
    "No-Solicit Of Employees": r"\b(?:solicit\w*|hire)\b.{0,80}\b(?:employees?|personnel)\b",
    "Non-Disparagement": (r"\bdisparag\w*|\bdisrepute\b|\btarnish\w*|\b(?:injurious|harmful) to the (?:business|goodwill|reputation)"
                          r"|\b(?:reputation|goodwill)\b.{0,60}\b(?:adverse|detriment|damag|harm|injur)\w*|\bnegative (?:light|statements?|comments?)"),
    "Termination For Convenience": r"\bterminat\w*\b.{0,120}\b(?:for any reason|without cause|convenience|at any time)\b",
    "Rofr/Rofo/Rofn": r"\bright of first\b|\bfirst (?:refusal|offer|negotiation)\b",
    "Change Of Control": r"\bchange (?:of|in) control\b|\bmerger\b|\bacquisition\b",
    "Anti-Assignment": r"\bassign\w*\b.{0,100}\b(?:consent|without)\b",
    "Revenue/Profit Sharing": r"\broyalt\w*|\brevenue share|\bprofit\w*\b|\bpercent\w* of (?:net|gross)\b",
    "Price Restrictions": r"\bprice\w*\b.{0,80}\b(?:increase|not exceed|fixed)\b",
    "Minimum Commitment": r"\bminimum\b.{0,60}\b(?:purchase|order|quantit\w*|commitment)\b",
    "Volume Restriction": r"\b(?:maximum|cap|limit\w*)\b.{0,60}\b(?:units|volume|quantit\w*)\b",
    "Ip Ownership Assignment": r"\b(?:hereby assigns?|shall own|sole and exclusive property)\b",
    "Joint Ip Ownership": r"\bjointly own\w*|\bjoint ownership\b",
    "License Grant": r"\bgrants?\b.{0,80}\blicen[cs]e\b",
    "Non-Transferable License": r"\bnon-?transferable\b",
    "Affiliate License-Licensor": r"\baffiliates?\b.{0,80}\blicen[cs]e\b",
    "Affiliate License-Licensee": r"\blicen[cs]e\b.{0,80}\baffiliates?\b",
    "Unlimited/All-You-Can-Eat-License": r"\bunlimited\b.{0,60}\b(?:licen[cs]e|use|copies)\b",
    "Irrevocable Or Perpetual License": r"\b(?:irrevocable|perpetual)\b",
    "Source Code Escrow": r"\bescrow\b",
    "Post-Termination Services": r"\b(?:after|upon|following)\b.{0,40}\b(?:termination|expiration)\b",
    "Audit Rights": r"\baudit\w*\b|\binspect\w*\b.{0,60}\brecords\b",
    "Uncapped Liability": r"\bshall not apply\b.{0,120}\b(?:liabilit\w*|indemnif\w*)\b",
    "Cap On Liability": r"\b(?:in no event|shall not exceed|aggregate liability|limitation of liability)\b",
    "Liquidated Damages": r"\bliquidated damages\b|\bpenalt\w*",
    "Warranty Duration": r"\bwarrant\w*\b.{0,80}\b(?:days|months|years|period)\b",
    "Insurance": r"\binsur\w*",
    "Covenant Not To Sue": r"\b(?:not|never)\b.{0,40}\b(?:contest|challenge|sue)\b",
    # "No third-party beneficiaries" boilerplate is not the clause; an exception to it, or a named beneficiary, is.
    "Third Party Beneficiary": (r"(?<!no )\bthird[- ]party (?:creditor )?beneficiar\w*(?! shall| under)"
                                r"|\bintended (?:third[- ]party )?beneficiar\w*|\bexcept\b.{0,80}\bthird[- ]party beneficiar"),
}
COMPILED = {name: re.compile(rx, re.IGNORECASE if name != "Document Name" else 0) for name, rx in KEYWORDS.items()}
