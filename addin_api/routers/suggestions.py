from __future__ import annotations

from django.http import HttpRequest
from ninja import Router, Status

from redline import selectors
from redline.services.feedback import feedback_give

from ..schemas.common import ErrorOut
from ..schemas.feedback import FeedbackIn, FeedbackOut

router = Router(tags=["suggestions"])


@router.post("/{suggestion_pk}/feedback", response={201: FeedbackOut, 200: FeedbackOut, 404: ErrorOut, 422: ErrorOut})
def give_feedback(request: HttpRequest, suggestion_pk: int, body: FeedbackIn) -> Status:
    """👍/👎 on a suggestion (``pk`` from the suggestions list). A second vote by the same user updates the first."""
    suggestion = selectors.suggestion_get(workspace=request.auth.workspace, suggestion_pk=suggestion_pk)
    feedback, created = feedback_give(suggestion=suggestion, user=request.auth.user, **body.dict())
    out = {**{f: getattr(feedback, f) for f in ("thumbs_up", "follow_up_reason", "tags", "additional_comments",
                                                "user_accepted_clause", "updated_at")},
           "suggestion_pk": suggestion.pk}
    return Status(201 if created else 200, out)
