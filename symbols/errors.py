"""The one error the library raises for bad input."""


class FormatError(ValueError):
    """The bytes are not what they claim to be (truncated, out of range,
    corrupt).  The message says what is wrong in one line, without the file
    name: callers add it."""
