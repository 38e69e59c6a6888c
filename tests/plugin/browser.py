"""Headless Chromium for the HTML report tests: find it, dump a page's DOM after its scripts ran,
take a screenshot.  Debian's package is ``chromium`` (``.ci/run`` installs it)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def find_chromium() -> str | None:
    """The first Chromium-like binary on PATH, or None."""
    return next((path for path in map(shutil.which, NAMES) if path), None)


def _chromium(binary: str, url: str, profile: Path, *flags: str) -> str:
    """Run headless Chromium on `url` (a throw-away profile, no sandbox: CI runs as root)."""
    cmd = [binary, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
           f"--user-data-dir={profile}", *flags, url]  # fmt: skip
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=180, check=False)
    if done.returncode != 0:
        raise AssertionError(f"{' '.join(cmd)} exited {done.returncode}:\n{done.stderr[-3000:]}")
    return done.stdout


def dump_dom(binary: str, url: str, profile: Path) -> str:
    """The page's DOM as HTML, serialized after the page loaded and its scripts ran."""
    return _chromium(binary, url, profile, "--dump-dom")


def screenshot(binary: str, url: str, png: Path, profile: Path, size: tuple[int, int] = (1400, 2000)) -> Path:
    """A PNG of the page in a `size` window."""
    _chromium(binary, url, profile, "--hide-scrollbars", f"--window-size={size[0]},{size[1]}", f"--screenshot={png}")
    return png
