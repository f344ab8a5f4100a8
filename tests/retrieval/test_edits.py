"""edit_warnings: what a proposed edit does to defined terms and cross-references elsewhere."""

from __future__ import annotations

from redline.retrieval.edits import edit_warnings
from tests.retrieval.conftest import section


def _block(graph, starts: str):
    return next(b for b in graph.blocks if b.text.startswith(starts))


def _codes(warnings) -> list[str]:
    return [w.code for w in warnings]


def test_renaming_rewording_and_removing_a_definition(graph):
    cause = _block(graph, '"Cause" means')
    user = graph.blocks[section(graph, "3.2").first].anchor
    (renamed,) = edit_warnings(graph, cause.anchor, cause.text.replace('"Cause"', '"Serious Cause"'))
    assert renamed.code == "defined_term_renamed" and renamed.anchors == (user,)
    assert renamed.message == ('renames the defined term "Cause" to "Serious Cause"; "Cause" is still used in '
                               "Section 3.2 Termination for Cause")
    (changed,) = edit_warnings(graph, cause.anchor, cause.text.replace("thirty (30)", "sixty (60)"))
    assert changed.code == "definition_changed" and "Section 3.2 Termination for Cause" in changed.message
    assert _codes(edit_warnings(graph, cause.anchor, None)) == ["definition_removed"]
    assert edit_warnings(graph, cause.anchor, cause.text + " ") == []  # whitespace is not a change


def test_a_definition_nobody_else_uses_can_change_freely(graph):
    term = graph.blocks[section(graph, "3.1").first]  # defines "Effective Date", used nowhere else
    assert edit_warnings(graph, term.anchor, term.text.replace("five years", "three years")) == []
    assert edit_warnings(graph, term.anchor, term.text.replace('"Effective Date"', '"Start Date"')) == []
    affiliate = _block(graph, "For the purposes of this Agreement, the term")  # used in Schedule A
    (w,) = edit_warnings(graph, affiliate.anchor, affiliate.text.replace("controlling", "controlled by"))
    assert w.code == "definition_changed" and w.message.endswith("also applies in Schedule A PRODUCTS")


def test_defining_a_term_that_is_already_defined(graph):
    anchor = graph.blocks[section(graph, "3.2").first].anchor
    (w,) = edit_warnings(graph, anchor, '"Cause" means any breach.', insert=True)
    assert w.code == "term_redefined" and w.message.endswith("already defines it in Section 1.1 Definitions")


def test_lower_casing_a_defined_term_and_citing_a_missing_section(graph):
    block = graph.blocks[section(graph, "3.2").first]
    new = block.text.replace("for Cause", "for cause").replace("Section 2.2(b)", "Section 14.3")
    warnings = {w.code: w for w in edit_warnings(graph, block.anchor, new)}
    assert set(warnings) == {"term_case_changed", "broken_reference"}
    assert warnings["broken_reference"].message == 'refers to "Section 14.3", which this agreement does not have'
    # references already in the paragraph are not new (Section 9.9 is unresolved before and after)
    assert edit_warnings(graph, block.anchor, block.text) == []


def test_a_subdivision_that_does_not_exist_is_a_broken_reference(graph):
    block = graph.blocks[section(graph, "2.1").first]
    (w,) = edit_warnings(graph, block.anchor, block.text + " See Section 2.3(d).")
    assert w.code == "broken_reference" and "Section 2.3 Pricing has no such subdivision" in w.message


def test_deleting_or_renumbering_a_cited_section(graph):
    quality = graph.blocks[section(graph, "2.2").first]
    citing = {graph.blocks[section(graph, n).first].anchor for n in ("2.3",)}
    (deleted,) = edit_warnings(graph, quality.anchor, None)
    assert deleted.code == "referenced_section_deleted" and citing <= set(deleted.anchors)
    assert "Section 2.3 Pricing" in deleted.message
    (moved,) = edit_warnings(graph, quality.anchor, quality.text.replace("2.2", "2.5", 1))
    assert moved.code == "referenced_section_renumbered" and "(now 2.5)" in moved.message
    # an uncited section can go
    assert edit_warnings(graph, graph.blocks[section(graph, "1.2").first].anchor, None) == []


def test_unknown_anchor_gives_no_warnings(graph):
    assert edit_warnings(graph, "_RL_nope", "anything") == []
