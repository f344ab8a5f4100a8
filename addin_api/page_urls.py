"""URLs of the add-in's pages (the API itself is under /api/)."""

from django.urls import path

from . import pages

app_name = "addin"

urlpatterns = [
    path("taskpane/", pages.taskpane, name="taskpane"),
    path("signin/", pages.signin, name="signin"),
    path("account/", pages.account, name="account"),
    path("signout/", pages.signout, name="signout"),
]
