"""Qt-free logic behind the content viewers: block classification, viewer choice by mimeType, outputSchema
validation, text previews, hex dumps, diffs, JSON trees and transcripts. Never imports Qt."""
