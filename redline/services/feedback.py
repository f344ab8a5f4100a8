"""Thumbs feedback on suggestions: one vote per user per suggestion, tagged server-side."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser

from ..errors import ApplicationError
from ..learning.feedback import feedback_tags
from ..models import Feedback, Suggestion


def feedback_give(
    *,
    suggestion: Suggestion,
    user: AbstractBaseUser,
    thumbs_up: bool,
    follow_up_reason: str | None = None,
    additional_comments: str = "",
    user_accepted_clause: bool | None = None,
) -> tuple[Feedback, bool]:
    """Record or update the user's vote; tags follow the seed's reason → tag table exactly."""
    if thumbs_up and follow_up_reason:
        raise ApplicationError("invalid_feedback", "A follow-up reason is only for a thumbs-down.", status=422)
    try:
        tags = feedback_tags(follow_up_reason or None)
    except ValueError as exc:
        raise ApplicationError("invalid_reason", str(exc), status=422) from None
    return Feedback.objects.update_or_create(
        suggestion=suggestion, user=user,
        defaults={"thumbs_up": thumbs_up, "follow_up_reason": follow_up_reason or "", "tags": tags,
                  "additional_comments": additional_comments[:5000], "user_accepted_clause": user_accepted_clause},
    )
