"""The context of a sentence: heading, caption, position, heading runs inside a paragraph."""

from redline.clauses.document import caption_of, is_heading_text, title_of, units_of


def test_headings_captions_and_positions():
    units = units_of([
        "DISTRIBUTION AGREEMENT",
        "ARTICLE 7 TERM AND TERMINATION The initial term is two years. It renews for one year.",
        "7.2 Termination for Convenience. Either party may terminate on 90 days' notice.",
        "ARTICLE 8",
        "Nothing here.",
    ])
    by_text = {u.text: u for u in units}
    assert by_text["DISTRIBUTION AGREEMENT"].is_heading
    first = by_text["ARTICLE 7 TERM AND TERMINATION The initial term is two years."]
    assert first.heading == "ARTICLE 7 TERM AND TERMINATION" and not first.is_heading
    assert by_text["It renews for one year."].heading == "ARTICLE 7 TERM AND TERMINATION"
    conv = by_text["7.2 Termination for Convenience. Either party may terminate on 90 days' notice."]
    assert conv.caption == "Termination for Convenience"
    assert by_text["Nothing here."].heading == "ARTICLE 8" and by_text["Nothing here."].caption == ""
    positions = [u.position for u in units]
    assert positions == sorted(positions) and positions[0] == 0.0


def test_heading_and_caption_rules():
    assert is_heading_text("ARTICLE 12 MISCELLANEOUS")
    assert is_heading_text("anything at all", level=2)
    assert not is_heading_text("The Supplier shall deliver the Goods on time and in full.")
    assert caption_of("12.1 Governing Law. This Agreement is governed by Delaware law.") == "Governing Law"
    assert caption_of("The Supplier. shall") == ""
    assert caption_of("In the event that the parties disagree. Then") == ""


def test_the_title_names_the_kind_of_contract():
    units = units_of(["Exhibit 10.1", "EXCLUSIVE DISTRIBUTOR AGREEMENT", "1. Appointment. Acme appoints Beta."])
    assert {u.title for u in units} == {"EXCLUSIVE DISTRIBUTOR AGREEMENT"}
    assert title_of(["Master Supply Agreement between Acme Inc. and Beta Limited"]) == (
        "Master Supply Agreement between Acme Inc. and Beta Limited")


def test_sentences_and_list_items_that_mention_the_agreement_are_not_its_title():
    assert title_of(["1.2 Term This agreement is for a term of ten (10) years."]) == ""
    assert title_of(["(a) Either Party may terminate this Agreement:"]) == ""
    assert title_of(["Recitals"] * 10 + ["SUPPLY AGREEMENT"]) == ""  # only the opening paragraphs are read
    assert units_of(["No title here.", "The parties agree."])[0].title == ""
