"""The Metalium artifacts of the test corpus are byte-identical to the recorded ones
(tests/golden/tt_artifacts.sha256; `python tools/artifacts_digest.py --write ...` records an intended change)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from tt_profiles import DEFAULT, PROFILE

from projects import REPO

sys.path.insert(0, str(REPO / "tools"))

import artifacts_digest  # noqa: E402

RECORDED = REPO / "tests" / "golden" / "tt_artifacts.sha256"


@pytest.mark.skipif(PROFILE != DEFAULT, reason=f"the digests are of the spec's API profile ({DEFAULT}); this run "
                                               f"emits {PROFILE}")
def test_every_artifact_of_the_corpus_is_as_recorded(tmp_path: Path) -> None:
    found = artifacts_digest.digests(tmp_path)
    recorded = artifacts_digest.read(RECORDED)
    assert sorted(found) == sorted(recorded)
    assert [name for name in found if found[name] != recorded[name]] == []
