"""Content viewers: widgets that render raw MCP JSON (content blocks, tool results, resource contents, chat
transcripts). They never talk to a server: actions leave as signals — ``readResourceRequested(uri)``,
``openUrlRequested(url)`` (http/https only) and ``openFileRequested(path)`` (connect to ``open_local_file``)."""

from inspector.ui.content.audio_view import AudioView, open_local_file
from inspector.ui.content.binary_view import HexView
from inspector.ui.content.blocks import ContentBlockView, ContentListView, forward_content_signals
from inspector.ui.content.diff_view import DiffView
from inspector.ui.content.image_view import ImageView
from inspector.ui.content.json_model import JsonTreeModel
from inspector.ui.content.json_view import JsonTreeView
from inspector.ui.content.link_view import ResourceLinkView
from inspector.ui.content.progress_panel import ProgressPanel
from inspector.ui.content.resource_view import ResourceContentsView, ResourceContentView
from inspector.ui.content.text_view import JsonView, TextMode, TextView
from inspector.ui.content.tool_result import ResultState, ToolResultView
from inspector.ui.content.transcript import MessageBubble, TranscriptView

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
