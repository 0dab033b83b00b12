"""The Simplified Chinese (zh-CN) catalogue: the same message ids as ``en``, translated."""
