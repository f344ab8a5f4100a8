from django.urls import include, path

from addin_api.api import api

urlpatterns = [
    path("api/", api.urls),
    path("", include("dashboard.urls")),
]
