"""The Word add-in manifest: rendered per deployment and valid against the Office manifest schema."""

from __future__ import annotations

import re
import struct
import uuid
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.core.management import CommandError, call_command
from lxml import etree

from redline.management.commands.addin_manifest import render_manifest

SHARED_XSD = Path(__file__).resolve().parents[3] / "shared" / "office-manifest-xsd"
BUNDLED_XSD = Path(__file__).resolve().parents[1] / "support" / "office-manifest-xsd"
NS = {"o": "http://schemas.microsoft.com/office/appforoffice/1.1",
      "ov": "http://schemas.microsoft.com/office/taskpaneappversionoverrides",
      "bt": "http://schemas.microsoft.com/office/officeappbasictypes/1.0"}
BASE = "https://redline.example.com:8443"


@pytest.fixture(scope="module")
def schema() -> etree.XMLSchema:
    """The Office add-in manifest schema: the shared copy when present, else the one bundled for CI."""
    folder = SHARED_XSD if (SHARED_XSD / "OfficeAppManifestV1_1.xsd").exists() else BUNDLED_XSD
    return etree.XMLSchema(etree.parse(str(folder / "OfficeAppManifestV1_1.xsd")))


def parse(xml: str) -> etree._Element:
    return etree.fromstring(xml.encode())


def test_rendered_manifest_is_valid_against_the_schema():
    """Against every copy of the schema there is: the bundled one always, the shared one beside the checkout."""
    folders = [f for f in (SHARED_XSD, BUNDLED_XSD) if (f / "OfficeAppManifestV1_1.xsd").exists()]
    assert BUNDLED_XSD in folders
    for folder in folders:
        schema = etree.XMLSchema(etree.parse(str(folder / "OfficeAppManifestV1_1.xsd")))
        schema.assertValid(parse(render_manifest(base_url=BASE)))


def test_the_schema_rejects_a_broken_manifest(schema):
    root = parse(render_manifest(base_url=BASE))
    root.remove(root.find("o:Permissions", namespaces=NS))
    assert not schema.validate(root)


def test_manifest_is_a_word_task_pane_with_a_ribbon_button():
    root = parse(render_manifest(base_url=BASE))
    assert root.get("{http://www.w3.org/2001/XMLSchema-instance}type") == "TaskPaneApp"
    assert root.xpath("o:Hosts/o:Host/@Name", namespaces=NS) == ["Document"]
    assert root.xpath("o:Permissions/text()", namespaces=NS) == ["ReadWriteDocument"]
    sets = root.xpath("o:Requirements/o:Sets/o:Set", namespaces=NS)
    assert [(s.get("Name"), s.get("MinVersion")) for s in sets] == [("WordApi", "1.4")]
    assert root.xpath("o:DefaultSettings/o:SourceLocation/@DefaultValue", namespaces=NS) == [f"{BASE}/addin/taskpane/"]
    action = root.xpath("//ov:Control[@id='Redline.OpenPane']/ov:Action", namespaces=NS)[0]
    assert action.get("{http://www.w3.org/2001/XMLSchema-instance}type") == "ShowTaskpane"
    resid = action.xpath("ov:SourceLocation/@resid", namespaces=NS)[0]
    assert root.xpath(f"//bt:Url[@id='{resid}']/@DefaultValue", namespaces=NS) == [f"{BASE}/addin/taskpane/"]


def test_every_url_is_on_the_deployment_and_every_icon_exists_at_its_size():
    xml = render_manifest(base_url=BASE)
    urls = re.findall(r'DefaultValue="(https?://[^"]+)"', xml)
    assert urls and all(u.startswith(BASE + "/") for u in urls)
    icons = [u for u in urls if u.endswith(".png")]
    assert len(icons) >= 4
    for url in icons:
        path = finders.find(url.removeprefix(f"{BASE}/static/"))
        assert path, url
        data = Path(path).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n"
        width, height = struct.unpack(">II", data[16:24])
        assert f"icon-{width}.png" in url and width == height


def test_id_is_stable_per_deployment_and_can_be_given():
    ids = {parse(render_manifest(base_url=b)).findtext("o:Id", namespaces=NS)
           for b in (BASE, BASE + "/", "https://REDLINE.example.com:8443")}
    assert len(ids) == 1 and uuid.UUID(ids.pop())
    other = parse(render_manifest(base_url="https://other.example.com")).findtext("o:Id", namespaces=NS)
    assert other not in ids
    given = "6f1b2a3c-0000-4000-8000-000000000001"
    assert parse(render_manifest(base_url=BASE, addin_id=given)).findtext("o:Id", namespaces=NS) == given


def test_app_domains_are_the_deployment_and_any_extra_origins(schema):
    root = parse(render_manifest(base_url="https://redline.example.com",
                                 app_domains=("https://sso.example.com", "https://redline.example.com")))
    assert root.xpath("o:AppDomains/o:AppDomain/text()", namespaces=NS) == [
        "https://redline.example.com", "https://sso.example.com"]
    schema.assertValid(root)


@pytest.mark.parametrize("bad", ["http://redline.example.com", "https://redline.example.com/sub", "redline.example.com",
                                 "https://redline.example.com:99999"])
def test_base_url_must_be_an_https_origin(bad):
    with pytest.raises(CommandError):
        render_manifest(base_url=bad)


def test_command_writes_the_file(tmp_path, capsys):
    out = tmp_path / "manifest.xml"
    call_command("addin_manifest", "--base-url", "https://localhost:3000", "--out", str(out))
    assert f"Wrote {out}" in capsys.readouterr().err
    root = etree.parse(str(out)).getroot()
    assert root.xpath("o:DefaultSettings/o:SourceLocation/@DefaultValue", namespaces=NS) == [
        "https://localhost:3000/addin/taskpane/"]
    call_command("addin_manifest", "--base-url", "https://localhost:3000")
    assert capsys.readouterr().out == out.read_text()
