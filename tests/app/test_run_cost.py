"""A run's model calls, tokens and estimated cost in plain view: the run page, the API's run and the
analytics page. The model runs go through the real ``openai`` SDK to the loopback chat server."""

from __future__ import annotations

import io
import zipfile
from datetime import timedelta

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from redline.jobs.worker import in_process_worker
from redline.models import AnalysisRun, PlaybookVersion, RunStatus
from redline.services.documents import document_version_create
from redline.services.playbooks import playbook_default_install
from tests.support.chat_server import ChatServer, completion, findings
from tests.support.docx_builder import build_docx, para

from .conftest import review_and_wait

CONTRACT = build_docx(
    para("1. Payment", style="Heading1")
    + para("The Customer shall pay each undisputed invoice within ninety (90) days of receipt.")
    + para("2. Liability", style="Heading1")
    + para("The Supplier's total liability shall not exceed fifty percent (50%) of the fees paid.")
    + para("3. Term", style="Heading1")
    + para("This Agreement renews automatically for successive periods of twelve (12) months.")
)


def resaved(data: bytes) -> bytes:
    """The same document saved again: other bytes, the same text."""
    out = io.BytesIO(data)
    with zipfile.ZipFile(out, "a") as z:
        z.comment = b"saved again"
    return out.getvalue()


def signed_in(member) -> Client:
    client = Client()
    assert client.login(username=member.membership.user.username, password=member.password)
    return client


def run_page(member, run_id: int) -> str:
    return signed_in(member).get(reverse("dashboard:run_detail", args=[run_id])).content.decode()


def seeded_run(member, *, provider: str = "openai", model: str = "gpt-4o-mini", stats: dict | None = None,
               key: str = "k") -> AnalysisRun:
    version, *_ = document_version_create(workspace=member.workspace, data=CONTRACT, filename="a.docx",
                                          uploaded_by=None)
    return AnalysisRun.objects.create(
        workspace=member.workspace, document_version=version, provider=provider, model=model,
        playbook_version=PlaybookVersion.objects.filter(playbook__workspace=member.workspace).first()
        or playbook_default_install(workspace=member.workspace),
        request_key=key, status=RunStatus.DONE, finished_at=timezone.now(), stats=stats or {})


def model_stats(calls: int, prompt: int, answer: int, cost: float, **more) -> dict:
    return {"provider_calls": calls, "retries": 0, "prompt_tokens": prompt, "completion_tokens": answer,
            "cost_usd": cost, "cache_hits": 0, "cache_misses": calls, "suggestions": 0, **more}


@pytest.mark.django_db(transaction=True)
def test_a_model_run_shows_calls_tokens_and_cost_and_an_unchanged_rerun_all_from_cache(alice, settings):
    playbook_default_install(workspace=alice.workspace)
    up = alice.api().post("/api/documents", {"file": SimpleUploadedFile("msa.docx", CONTRACT)}).json()
    document_id = up["document"]["id"]
    with ChatServer(lambda body: completion(findings(), prompt_tokens=1200, completion_tokens=80)) as chat:
        settings.OPENAI_API_KEY, settings.OPENAI_BASE_URL = "test-key", chat.url
        settings.REDLINE_OPENAI_MODEL = "gpt-4o-mini"
        first = alice.api().post(f"/api/documents/{document_id}/runs", {"provider": "openai"},
                                 content_type="application/json").json()
        assert in_process_worker().wait_idle(60)
        calls = len(chat.requests)
        again = alice.api().post("/api/documents", {"file": SimpleUploadedFile("msa.docx", resaved(CONTRACT)),
                                                    "document_id": document_id}).json()
        assert again["version"]["id"] != up["version"]["id"]
        second = alice.api().post(f"/api/documents/{document_id}/runs", {"provider": "openai"},
                                  content_type="application/json").json()
        assert second["id"] != first["id"]
        assert in_process_worker().wait_idle(60)
        assert len(chat.requests) == calls  # the unchanged document asked the model nothing

    run = alice.api().get(f"/api/runs/{first['id']}").json()
    assert run["status"] == "done" and calls >= 1
    cost = (1200 * calls * 0.15 + 80 * calls * 0.60) / 1e6
    assert run["cost"]["calls"] == run["stats"]["provider_calls"] == calls
    assert (run["cost"]["prompt_tokens"], run["cost"]["completion_tokens"]) == (1200 * calls, 80 * calls)
    assert run["cost"]["cost_usd"] == pytest.approx(cost) == run["stats"]["cost_usd"]
    line = (f"Model: gpt-4o-mini · {calls} call{'s' if calls > 1 else ''} · {1200 * calls:,} tokens in / "
            f"{80 * calls:,} out · est. ${cost:.4f}")
    assert run["cost"]["line"] == line
    assert f'id="run-cost">{line}</p>' in run_page(alice, first["id"])

    rerun = alice.api().get(f"/api/runs/{second['id']}").json()
    hits = rerun["stats"]["cache_hits"]
    assert rerun["cost"]["calls"] == 0 and hits > 0 and rerun["stats"]["cache_misses"] == 0
    assert rerun["cost"]["line"] == f"Model: gpt-4o-mini · 0 calls — all {hits} answers from cache"
    assert f"0 calls — all {hits} answers from cache" in run_page(alice, second["id"])


@pytest.mark.django_db(transaction=True)
def test_an_offline_run_says_it_made_no_model_calls(alice):
    playbook_default_install(workspace=alice.workspace)
    up = alice.api().post("/api/documents", {"file": SimpleUploadedFile("msa.docx", CONTRACT)}).json()
    run = review_and_wait(alice, up["document"]["id"])
    assert run["cost"]["line"] == "Offline engine · no model calls"
    assert (run["cost"]["calls"], run["cost"]["cost_usd"], run["cost"]["model"]) == (0, 0.0, "")
    page = run_page(alice, run["id"])
    assert 'id="run-cost">Offline engine · no model calls</p>' in page and "$" not in page.split("run-cost")[1][:80]


@pytest.mark.django_db
def test_a_model_with_no_price_shows_its_cost_as_unknown_not_zero(alice):
    run = seeded_run(alice, model="acme-large", stats=model_stats(3, 9000, 400, 0.0, retries=1))
    body = alice.api().get(f"/api/runs/{run.pk}").json()
    assert body["cost"]["cost_usd"] is None
    assert body["cost"]["line"] == ("Model: acme-large · 3 calls · 9,000 tokens in / 400 out · "
                                    "est. cost unknown (no price for acme-large) · 1 retry")
    assert "est. cost unknown" in run_page(alice, run.pk) and "$0.0000" not in run_page(alice, run.pk)


@pytest.mark.django_db
def test_prices_come_from_the_table_for_runs_recorded_without_a_cost(alice, settings):
    settings.REDLINE_MODEL_PRICES = {**settings.REDLINE_MODEL_PRICES, "acme-large": (1.0, 4.0)}
    before = seeded_run(alice, model="acme-large", stats=model_stats(2, 1_000_000, 250_000, 0.0))
    assert alice.api().get(f"/api/runs/{before.pk}").json()["cost"]["line"].endswith("est. $2.00")
    dated = seeded_run(alice, model="gpt-4o-2024-08-06", stats=model_stats(1, 1000, 100, 0.0), key="k2")
    assert alice.api().get(f"/api/runs/{dated.pk}").json()["cost"]["cost_usd"] == pytest.approx(0.0035)
    tiny = seeded_run(alice, stats=model_stats(1, 120, 30, 0.000036), key="k3")
    assert alice.api().get(f"/api/runs/{tiny.pk}").json()["cost"]["line"].endswith("est. < $0.0001")


@pytest.mark.django_db
def test_a_queued_run_has_no_cost_yet(alice):
    run = seeded_run(alice)
    AnalysisRun.objects.filter(pk=run.pk).update(status=RunStatus.QUEUED, stats={})
    assert alice.api().get(f"/api/runs/{run.pk}").json()["cost"] is None
    assert 'id="run-cost"' not in run_page(alice, run.pk)


@pytest.mark.django_db
def test_analytics_totals_the_model_use_of_the_period(alice, bob, settings):
    seeded_run(alice, stats=model_stats(12, 48_210, 3_120, 0.0091035, cache_hits=10))
    seeded_run(alice, stats=model_stats(0, 0, 0, 0.0, cache_hits=240, cache_misses=0), key="k2")
    seeded_run(alice, model="acme-large", stats=model_stats(3, 9_000, 400, 0.0, retries=2), key="k3")
    seeded_run(alice, provider="offline", model="offline", stats=model_stats(0, 0, 0, 0.0), key="k4")
    old = seeded_run(alice, stats=model_stats(100, 1_000_000, 1_000, 0.5), key="k5")
    AnalysisRun.objects.filter(pk=old.pk).update(created_at=timezone.now() - timedelta(days=60))
    seeded_run(alice, stats={}, key="k6")  # queued: nothing to count yet

    use = alice.api().get("/api/analytics?time_range=30d").json()["model_use"]
    assert use == {"runs": 3, "calls": 15, "retries": 2, "prompt_tokens": 57_210, "completion_tokens": 3_520,
                   "cache_hits": 250, "cost_usd": pytest.approx(0.0091035, abs=1e-6), "unpriced_runs": 1}
    assert alice.api().get("/api/analytics?time_range=all").json()["model_use"]["calls"] == 115
    assert bob.api().get("/api/analytics").json()["model_use"]["runs"] == 0  # another workspace's runs are not his

    page = signed_in(alice).get(reverse("dashboard:analytics") + "?time_range=30d").content.decode()
    assert '<span class="kpi-value" id="model-calls">15</span>' in page
    assert "(3 runs, 2 retries, 250 answers from cache)" in page
    assert '<span class="kpi-value" id="model-tokens">57,210 / 3,520</span>' in page
    assert '<span class="kpi-value" id="model-cost">$0.0091</span>' in page
    assert "(not counting 1 run of a model with no price)" in page
    assert "No model calls in this period" in signed_in(bob).get(reverse("dashboard:analytics")).content.decode()


@pytest.mark.django_db(transaction=True)
def test_the_run_says_what_became_of_the_models_findings(alice):
    stats = model_stats(3, 9000, 400, 0.0016, raw_findings=9, hallucination_drops=1, off_target_drops=1,
                        gate={"withheld": {"off_target": 2, "already_meets": 1, "missing_but_present": 1},
                              "as_comment": {"foreign_terms": 1, "no_side": 1}, "repaired": {"partial_phrase": 1},
                              "model": {"withheld": {"off_target": 2, "already_meets": 1},
                                        "as_comment": {"foreign_terms": 1}}})  # the rest were the engine's
    run = seeded_run(alice, stats=stats)
    line = ("Model findings: 9 · dropped: off target 3, already meets 1, quote not in the text 1 · "
            "kept as comments: foreign terms 1 · repaired: partial phrase 1")
    assert alice.api().get(f"/api/runs/{run.pk}").json()["cost"]["guards"] == line
    assert f'id="run-guards">{line}</p>' in run_page(alice, run.pk)
    offline = seeded_run(alice, provider="offline", model="rules", key="o", stats={**stats, "provider_calls": 0})
    assert alice.api().get(f"/api/runs/{offline.pk}").json()["cost"]["guards"] == ""  # the engine's own checks
    assert 'id="run-guards"' not in run_page(alice, offline.pk)
