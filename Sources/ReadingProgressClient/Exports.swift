// The reporter speaks in ProgressCore's types (`ScrollSnapshot`, `ProgressFigures`, …), so an
// app that imports ReadingProgressClient has them too.
@_exported public import ProgressCore
