"""The command line: thin commands over the library (imports are lazy, for a fast --help)."""
