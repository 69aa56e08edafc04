"""The apps installed on a new virtual phone."""

from __future__ import annotations

from androidrl.virtual.apps.launcher import launcher_app
from androidrl.virtual.apps.notes import notes_app
from androidrl.virtual.apps.placeholder import placeholder_apps
from androidrl.virtual.apps.practice import practice_app
from androidrl.virtual.apps.settings import settings_app
from androidrl.virtual.system.framework.app import App


def default_apps() -> list[App]:
    """Fresh instances of every preinstalled app, in install order."""
    return [launcher_app(), settings_app(), *placeholder_apps(), notes_app(), practice_app()]
