"""Matching our comments: durable id first, then author + text + paragraph, claimed once each."""

from __future__ import annotations

from redline.learning.comments import CommentQuery, FoundComment, match_comments

ME = "Redline AI"


def comment(cid: str, text: str, paragraph: int | None, *, author: str = ME, durable: str | None = None,
            resolved: bool = False) -> FoundComment:
    return FoundComment(cid, author, text, paragraph, resolved, durable)


def test_the_durable_id_wins_over_text_and_place():
    comments = [comment("0", "Check this.", 1, durable="AAAA0001"), comment("1", "Check this.", 7, durable="AAAA0002")]
    found = match_comments([CommentQuery("e", "AAAA0002", "Check this.", 1)], comments, author=ME)
    assert found["e"].id == "1"


def test_without_durable_ids_the_same_text_is_told_apart_by_paragraph():
    """LibreOffice drops commentsIds.xml: two identical comments on two clauses."""
    comments = [comment("0", "Check this.", 1), comment("1", "Check this.", 7)]
    queries = [CommentQuery("a", "DEAD0001", "Check this.", 7), CommentQuery("b", "DEAD0002", "Check  this.", 1)]
    found = match_comments(queries, comments, author=ME)
    assert (found["a"].id, found["b"].id) == ("1", "0")


def test_a_deleted_comment_is_not_replaced_by_its_twin_elsewhere():
    comments = [comment("1", "Check this.", 7)]
    queries = [CommentQuery("a", "", "Check this.", 1), CommentQuery("b", "", "Check this.", 7)]
    assert set(match_comments(queries, comments, author=ME)) == {"b"}


def test_an_entry_without_its_anchor_takes_the_first_unclaimed_match():
    comments = [comment("0", "Check this.", 2), comment("1", "Check this.", 5)]
    queries = [CommentQuery("placed", "", "Check this.", 2), CommentQuery("lost", "", "Check this.", None)]
    found = match_comments(queries, comments, author=ME)
    assert (found["placed"].id, found["lost"].id) == ("0", "1")


def test_other_authors_and_reserved_comments_are_never_matched_by_text():
    comments = [comment("0", "Check this.", 1, author="Lawyer"),
                comment("1", "Check this.", 1, durable="BBBB0001")]
    found = match_comments([CommentQuery("a", "", "Check this.", 1)], comments, author=ME, reserved=["BBBB0001"])
    assert found == {}
