"""Render the Word add-in manifest for one deployment.

Office identifies an add-in by its manifest ``Id`` and loads every page and icon
from the URLs in it, so one template (``office-manifest/manifest.xml``) becomes
one manifest per deployment. The id is derived from the base URL unless given,
so rendering again for the same host keeps the id Office already knows (a new
id would appear as a second, duplicate add-in).
"""

from __future__ import annotations

import importlib.metadata
import string
import uuid
from pathlib import Path
from urllib.parse import urlsplit
from xml.sax.saxutils import escape

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

TEMPLATE = Path(settings.BASE_DIR) / "office-manifest" / "manifest.xml"


def origin_of(url: str, *, what: str) -> str:
    """``https://host[:port]`` from ``url``; Office loads add-ins only over HTTPS, from an origin."""
    parts = urlsplit(url.strip())
    if parts.scheme != "https" or not parts.hostname:
        raise CommandError(f"{what} must be an https:// URL (Office loads add-ins only over HTTPS): {url!r}")
    if parts.path not in ("", "/") or parts.query or parts.fragment or parts.username or parts.password:
        raise CommandError(f"{what} must be an origin like https://host[:port], without a path: {url!r}")
    try:
        port = parts.port
    except ValueError as exc:
        raise CommandError(f"{what} has an invalid port: {url!r}") from exc
    host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    return f"https://{host}" + (f":{port}" if port and port != 443 else "")


def manifest_version() -> str:
    """The package version as Office wants it (up to four dot-separated numbers)."""
    numbers = [p for p in importlib.metadata.version("redline").split(".") if p.isdigit()]
    return ".".join((numbers + ["0"] * 4)[:4])


def render_manifest(*, base_url: str, addin_id: str | None = None, app_domains: tuple[str, ...] = ()) -> str:
    """The manifest XML for a deployment at ``base_url`` (an https origin)."""
    base = origin_of(base_url, what="--base-url")
    try:
        the_id = str(uuid.UUID(addin_id)) if addin_id else str(uuid.uuid5(uuid.NAMESPACE_URL, base))
    except ValueError as exc:
        raise CommandError(f"--id must be a GUID: {addin_id!r}") from exc
    domains = dict.fromkeys([base, *(origin_of(d, what="--app-domain") for d in app_domains)])
    values = {
        "ID": the_id,
        "VERSION": manifest_version(),
        "BASE_URL": escape(base, {'"': "&quot;"}),
        "APP_DOMAINS": "\n".join(f"    <AppDomain>{escape(d)}</AppDomain>" for d in domains),
    }
    return string.Template(TEMPLATE.read_text(encoding="utf-8")).substitute(values)


class Command(BaseCommand):
    help = "Render office-manifest/manifest.xml for a deployment (ids, URLs, app domains)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--base-url", required=True, help="Where Redline is served: https://host[:port].")
        parser.add_argument("--out", help="Write the manifest to this file (default: standard output).")
        parser.add_argument("--id", dest="addin_id", help="The add-in GUID (default: derived from --base-url).")
        parser.add_argument("--app-domain", action="append", default=[], dest="app_domains",
                            help="Another https origin the pane may navigate to (repeatable).")

    def handle(self, *args: object, **options: object) -> None:
        xml = render_manifest(base_url=str(options["base_url"]), addin_id=options["addin_id"],  # type: ignore[arg-type]
                              app_domains=tuple(options["app_domains"]))  # type: ignore[arg-type]
        if options["out"]:
            Path(str(options["out"])).write_text(xml, encoding="utf-8")
            self.stderr.write(f"Wrote {options['out']}")
        else:
            self.stdout.write(xml, ending="")
