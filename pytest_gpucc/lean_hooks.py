"""The hook relay of a candidate item whose outcome is ready: its setup, call and teardown
without the output-capture and log-capture wrappers.

pytest runs each item's setup, call and teardown through the item's hook relay (``item.ihook``).
The capture plugin wraps every phase (resuming and suspending the global capture, reading its
buffers) and so does the logging plugin (two log handlers): a fifth of the per-item time of a
``--gpu-candidates`` run (issue #11), whose items are the run's samples.  Once the batch has
run, a candidate item's call only looks its outcome up: its phases print and log nothing, so
those wrappers would add no report section.  :class:`LeanHooks` calls, for those three hooks,
every other implementation the item's own relay calls (the setup state, skip marks, any other
plugin's), and is the item's own relay for every other hook.
"""

from __future__ import annotations

PHASES = ("pytest_runtest_setup", "pytest_runtest_call", "pytest_runtest_teardown")
QUIET = ("capturemanager", "logging-plugin")  # pytest's plugins that capture what a phase prints or logs


class LeanHooks:
    """``relay`` (an item's ``ihook``) with the phase hooks of :data:`PHASES` minus :data:`QUIET`."""

    def __init__(self, relay, pluginmanager):
        self._relay = relay
        quiet = [p for p in map(pluginmanager.get_plugin, QUIET) if p is not None]
        for name in PHASES:
            own = [impl.plugin for impl in getattr(relay, name).get_hookimpls()]  # conftests of other paths left out
            others = [impl.plugin for impl in getattr(pluginmanager.hook, name).get_hookimpls() if impl.plugin not in own]
            setattr(self, name, pluginmanager.subset_hook_caller(name, others + quiet))

    def __getattr__(self, name):
        return getattr(self._relay, name)
