"""Every file the engine writes during a test, paired with the file it came from.

A spy, not a mock: ``Package.open``, ``Package.save`` and ``PatchBuilder.build``
run unchanged; the spy only remembers which input bytes each package was opened
from and what was written from it. That covers every family that writes OOXML
in-process, whatever helper a test goes through: anchoring (``read_document``),
apply-ops (``redline_document``), accept/reject (``resolve_docx``), the redlined
export of a run, synthetic documents and the add-in's flat-OPC patches. After
the test, :meth:`WrittenFiles.check` holds each output to the validator rule of
:mod:`tests.support.validator` (``tests/conftest.py`` installs one spy for the
session and gives each test its own list of pairs). Files written in another process (a CLI run as a
subprocess, a Celery worker) are not seen here; their tests judge them directly.
"""

from __future__ import annotations

import tempfile
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from redline.ooxml.package import Package
from redline.ooxml.patch import Patch, PatchBuilder
from tests.support.validator import new_findings


@dataclass
class WrittenFiles:
    """The (input, output) pairs seen so far; input is None for a file built from nothing."""

    pairs: list[tuple[bytes | None, bytes]] = field(default_factory=list)
    _inputs: weakref.WeakKeyDictionary = field(default_factory=weakref.WeakKeyDictionary)

    def install(self, monkeypatch: pytest.MonkeyPatch) -> None:
        real_open, real_save, real_build = Package.open.__func__, Package.save, PatchBuilder.build
        spy = self

        def open_(cls: type[Package], data: bytes, *args: object, **kwargs: object) -> Package:
            pkg = real_open(cls, data, *args, **kwargs)
            spy._inputs[pkg] = data
            return pkg

        def save(pkg: Package) -> bytes:
            out = real_save(pkg)
            spy.pairs.append((spy._inputs.get(pkg), out))
            return out

        def build(builder: PatchBuilder, op: object) -> Patch:
            patch = real_build(builder, op)
            if patch.xml is not None:
                spy.pairs.append((spy._inputs.get(builder.pkg), patch.xml))
            return patch

        monkeypatch.setattr(Package, "open", classmethod(open_))
        monkeypatch.setattr(Package, "save", save)
        monkeypatch.setattr(PatchBuilder, "build", build)

    @contextmanager
    def paused(self) -> Iterator[None]:
        """Record nothing inside: for test-input generators that use the engine's
        ``Package`` to play another party (a counterparty's redline), whose output
        is an input to the tests, not a file the engine writes."""
        sink, self.pairs = self.pairs, []
        try:
            yield
        finally:
            self.pairs = sink

    def problems(self) -> list[str]:
        """One line per written file with findings its input did not have."""
        out = []
        seen: set[tuple[int, int]] = set()
        for before, after in self.pairs:
            key = (hash(before), hash(after))
            if key in seen:
                continue
            seen.add(key)
            added = new_findings(before, after)
            if added:
                kept = Path(tempfile.mkdtemp(prefix="rl-validator-"))
                (kept / "output").write_bytes(after)
                if before is not None:
                    (kept / "input.docx").write_bytes(before)
                out.append(f"a written file (kept in {kept}) adds: " + "; ".join(added))
        return out

    def check(self) -> None:
        problems = self.problems()
        assert not problems, "Open XML validator:\n" + "\n".join(problems)
