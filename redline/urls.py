from django.urls import include, path

from addin_api.api import api

urlpatterns = [
    path("api/", api.urls),
    path("addin/", include("addin_api.page_urls")),
    path("", include("dashboard.urls")),
]
