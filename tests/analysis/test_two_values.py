"""One right with two values (issue #27, check 7): the same right stated twice with different periods is reported
once, at its second statement, naming the first; two rights that merely share a topic are not (a shorter cure
for non-payment, each party's own notice, a breach of named sections, an insurer's non-renewal, an escrow
release), nor one period written two ways ("sixty (60) days", "two (2) months")."""

from __future__ import annotations

import pytest

from redline.analysis import two_values
from tests.retrieval.hygiene.grounded import grounded

HEAD = """SERVICES AGREEMENT

This Services Agreement is made between Acme Widgets, Inc. ("Supplier") and Beta Stores LLC ("Customer").

1. Services. Supplier shall provide the services described in the order form.

2. Fees. Customer shall pay each invoice within thirty (30) days of receipt.
"""
CURE = ("5. Termination. Either party may terminate this Agreement if the other party materially breaches it and fails "
        "to cure the breach within thirty (30) days after written notice.")


def _found(*clauses: str) -> list[tuple[str, str]]:
    text = HEAD + "".join(f"\n{c}\n" for c in clauses)
    return [(f.quote, f.message) for f in grounded(two_values.check, text)]


def test_two_cure_periods_for_one_breach():
    default = ("9. Default. If a party breaches this Agreement and does not cure the breach within sixty (60) days after "
               "notice, the other party may terminate this Agreement.")
    assert _found(CURE, default) == [(
        "sixty (60) days", "The period to cure a breach before termination is sixty (60) days here (§9) but thirty (30) "
        "days in §5: one right, two values. Say which governs, or make them the same.")]


def test_two_notice_periods_to_terminate_for_convenience():
    first = ("5. Termination. Either party may terminate this Agreement for convenience on thirty (30) days' written "
             "notice to the other.")
    second = ("12. General. Either party may terminate this Agreement without cause upon ninety (90) days' prior written "
              "notice to the other party.")
    assert [q for q, _ in _found(first, second)] == ["ninety (90) days"]


def test_two_notice_periods_of_non_renewal():
    first = ("5. Term. This Agreement renews for one year at a time unless either party gives notice of non-renewal at "
             "least sixty (60) days before the end of the then-current term.")
    second = ("11. Renewal. A party that elects not to renew shall give written notice of its intention not to renew "
              "ninety (90) days before expiry.")
    assert [q for q, _ in _found(first, second)] == ["ninety (90) days"]


@pytest.mark.parametrize("other", [
    # a shorter cure for non-payment: a second right, deliberately
    "9. Non-payment. Supplier may terminate this Agreement if Customer fails to make any payment and does not cure "
    "the breach within ten (10) days after notice.",
    # a breach of named provisions (c0336)
    "9. Marks. Supplier may terminate this Agreement if Customer breaches Section 7 and fails to cure such breach "
    "within five (5) days after notice.",
    # an escrow release, not a termination (c0189)
    "9. Escrow. The source code is released to Customer if Supplier breaches its support obligations and such breach "
    "is not cured within sixty (60) days of notice.",
    # the same period, written another way
    "9. Default. If a party breaches this Agreement and does not cure the breach within one (1) month after notice, "
    "the other party may terminate this Agreement.",
    # a period pointing back to one stated before, for a narrower case (c0067's late royalties)
    "9. Royalties. If Customer fails to pay royalties when due, it has a one-time cure period of fifteen (15) days. If "
    "a party fails to cure the breach within such fifteen (15)-day period, the other party may terminate this "
    "Agreement.",
    # the same, pointing back with "the" (c0067: "an initial cure within the fifteen (15)-day period")
    "9. Royalties. If Customer fails to pay royalties when due, it has a one-time cure period of fifteen (15) days. If "
    "the breach recurs after an initial cure within the fifteen (15)-day period, the other party may terminate this "
    "Agreement.",
    # another instrument's termination (c0016's trademark licence)
    "9. Marks. Supplier may terminate the trademark licence if Customer breaches the brand guidelines and does not "
    "cure the breach within ten (10) days.",
    # two periods in one sentence: which is the right's is not certain
    "9. Default. If a party breaches this Agreement and does not cure the breach within sixty (60) days, or ninety "
    "(90) days where the cure needs a third party, the other party may terminate this Agreement.",
])
def test_two_rights_that_share_a_topic_are_not_one_right(other):
    assert _found(CURE, other) == []


def test_a_narrower_case_in_another_item_of_the_list_does_not_hide_the_period():
    listed = ("9. Default. In the event that a party commits a material breach of this Agreement, the other party may "
              "terminate this Agreement (i) if the breach can be cured, upon written notice if the breaching party fails "
              "to cure it within sixty (60) days after receipt of notice, or (ii) at once upon a breach of Section 5.")
    assert [q for q, _ in _found(CURE, listed)] == ["sixty (60) days"]  # c0388's clause, with another period


def test_a_right_of_either_party_is_also_each_partys():
    supplier = ("9. Default. Supplier may terminate this Agreement if Customer breaches it and does not cure the breach "
                "within sixty (60) days after notice.")
    assert [q for q, _ in _found(CURE, supplier)] == ["sixty (60) days"]


def test_each_party_may_have_its_own_notice_period():
    first = "5. Termination. Customer may terminate this Agreement for convenience on thirty (30) days' notice."
    second = "12. Exit. Supplier may terminate this Agreement for convenience on one hundred eighty (180) days' notice."
    assert _found(first, second) == []
    second_for_customer = second.replace("Supplier", "Customer")
    assert [q for q, _ in _found(first, second_for_customer)] == ["one hundred eighty (180) days"]


def test_an_insurers_notice_of_non_renewal_is_not_the_agreements():
    term = ("5. Term. This Agreement renews for one year at a time unless either party gives notice of non-renewal at "
            "least sixty (60) days before the end of the then-current term.")
    insurance = ("13. Insurance. All certificates must provide that Supplier will receive at least thirty (30) days' "
                 "prior written notice of any cancellation or non-renewal of the coverages.")  # c0359
    assert _found(term, insurance) == []
