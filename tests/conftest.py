"""Test-wide settings: hypothesis draws the same examples on every CI run (derandomized, so a
green CI stays green on the same code); local runs explore new examples each time."""
import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True)
if os.environ.get("CI"):
    settings.load_profile("ci")
