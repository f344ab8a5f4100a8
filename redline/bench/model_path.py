"""``redline bench``'s model rows: ``redline review --provider openai`` as a user runs it, against a loopback
chat-completions server that answers each call after a fixed latency.

The command runs as a fresh process (clause engine, contract graph, batching and all), with the official SDK
talking HTTP to ``tests/support/chat_server.py``; the server counts what the model would have been sent. A row
shows the wall time, the calls, the prompt characters against the contract's markdown (what a model bills,
more or less, is proportional to it) and the tokens the run reports. Contracts are the generator's
``--seed 3`` ones, as issue #29 measured them.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any, TextIO

from .processes import MAKE_CONTRACT, ROOT, run_checked

SEED = 3


def model_rows(pages: list[int], *, latency: float, workdir: Path, out: TextIO) -> None:
    """One row per contract size: a review through the OpenAI provider at ``latency`` seconds per call."""
    from redline.ooxml.markdown import to_markdown
    from redline.ooxml.paragraphs import read_document

    chat = _chat_server()
    workdir.mkdir(parents=True, exist_ok=True)
    for n in pages:
        contract = workdir / f"contract-{n}p-seed{SEED}.docx"
        if not contract.exists():
            run_checked([sys.executable, MAKE_CONTRACT, "--pages", str(n), "--seed", str(SEED), "-o", contract])
        markdown = len(to_markdown(read_document(contract.read_bytes()).paragraphs))

        def answer(body: dict[str, Any]) -> object:  # billed as a model would: ~4 characters per token
            prompt = sum(len(str(m.get("content", ""))) for m in body.get("messages", []))
            return chat.completion(chat.findings(), prompt_tokens=prompt // 4, delay=latency)

        report = workdir / f"{n}p-openai.json"
        with chat.ChatServer(answer) as server:
            env = {**os.environ, "OPENAI_API_KEY": "bench", "OPENAI_BASE_URL": server.url}
            started = time.perf_counter()
            subprocess.run([sys.executable, "-m", "redline", "review", "--provider", "openai", "--input", contract,
                            "--out-redline", workdir / f"{n}p-openai.docx", "--json", report],
                           check=True, capture_output=True, env=env, cwd=ROOT)
            wall = time.perf_counter() - started
            prompt_chars = sum(len(r.text) for r in server.requests)
        stats = json.loads(report.read_text(encoding="utf-8"))["stats"]
        out.write(f"{n:>5}  {f'redline review --provider openai, {latency:g} s per call':<50} {wall:>8.3f} "
                  f"{'':>8}  calls {stats['provider_calls']}, prompt chars {prompt_chars:,} = "
                  f"{prompt_chars / markdown:.2f}× the contract's {markdown:,}, tokens in/out "
                  f"{stats['prompt_tokens']:,}/{stats['completion_tokens']:,}\n")


def _chat_server() -> ModuleType:
    """The loopback server the tests use (tests/support/chat_server.py), loaded from the source tree."""
    path = MAKE_CONTRACT.parent / "chat_server.py"
    spec = importlib.util.spec_from_file_location("chat_server", path)
    if spec is None or spec.loader is None:
        raise RuntimeError(f"the loopback chat server is missing: {path}")
    chat = importlib.util.module_from_spec(spec)
    sys.modules["chat_server"] = chat
    spec.loader.exec_module(chat)
    return chat
