"""Answering the server's own requests in the GUI: sampling and elicitation dialogs, the request queue,
URL elicitation (with ``-32042`` explanations), canned replies and the pending-requests indicator."""

from inspector.ui.server_requests.elicitation_dialog import ElicitationDialog
from inspector.ui.server_requests.gui_handlers import GuiRequestHandlers, PendingRequest, url_tracker_of
from inspector.ui.server_requests.sampling_dialog import SamplingDialog
from inspector.ui.server_requests.status import RequestsIndicator
from inspector.ui.server_requests.url_elicitation import (
    UrlElicitationDialog,
    UrlElicitationTracker,
    explain_url_elicitation_required,
)

__all__ = [
    "ElicitationDialog",
    "GuiRequestHandlers",
    "PendingRequest",
    "RequestsIndicator",
    "SamplingDialog",
    "UrlElicitationDialog",
    "UrlElicitationTracker",
    "explain_url_elicitation_required",
    "url_tracker_of",
]
