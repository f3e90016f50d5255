"""Content viewers: widgets that render raw MCP JSON (content blocks, tool results, resource contents, chat
transcripts). They never talk to a server: actions leave as signals — ``readResourceRequested(uri)``,
``openUrlRequested(url)`` (http/https only) and ``openFileRequested(path)`` (connect to ``open_local_file``)."""

from inspector.ui.viewers.audio_view import AudioView, open_local_file
from inspector.ui.viewers.binary_view import HexView
from inspector.ui.viewers.blocks import ContentBlockView, ContentListView, forward_content_signals
from inspector.ui.viewers.diff_view import DiffView
from inspector.ui.viewers.image_view import ImageView
from inspector.ui.viewers.json_model import JsonTreeModel
from inspector.ui.viewers.json_view import JsonTreeView
from inspector.ui.viewers.link_view import ResourceLinkView
from inspector.ui.viewers.progress_panel import ProgressPanel
from inspector.ui.viewers.resource_view import ResourceContentsView, ResourceContentView
from inspector.ui.viewers.text_view import JsonView, TextMode, TextView
from inspector.ui.viewers.tool_result import ResultState, ToolResultView
from inspector.ui.viewers.transcript import MessageBubble, TranscriptView

__all__ = [
    "AudioView",
    "ContentBlockView",
    "ContentListView",
    "DiffView",
    "HexView",
    "ImageView",
    "JsonTreeModel",
    "JsonTreeView",
    "JsonView",
    "MessageBubble",
    "ProgressPanel",
    "ResourceContentView",
    "ResourceContentsView",
    "ResourceLinkView",
    "ResultState",
    "TextMode",
    "TextView",
    "ToolResultView",
    "TranscriptView",
    "forward_content_signals",
    "open_local_file",
]
