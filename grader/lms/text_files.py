"""Reading a small table a teacher saved (a class list, an extensions file) whatever its encoding.

Spreadsheets save text in a few encodings, and a teacher rarely knows which:

* UTF-8, with or without a byte-order mark (Excel's "CSV UTF-8", LibreOffice, Canvas and Moodle
  downloads; Excel writes the mark ``EF BB BF``);
* UTF-16 with a byte-order mark, tab-separated: what Excel calls "Unicode text" (``FF FE``, little
  endian on Windows and macOS);
* the Windows "ANSI" code page of Excel's plain "CSV (comma delimited)": Windows-1252 (cp1252) on a
  Western-European Windows, GBK (read as GB18030, its superset) on a Simplified-Chinese one, the
  course's other language.

:func:`read_text` tries them in that order and says which one it used. Many bytes are valid in both
code pages (``é`` before a letter is a GBK character, a Chinese name is cp1252 mojibake), so where
both read a file, charset-normalizer (a maintained detector) picks the one whose text is coherent:
a Chinese class list is never read as mojibake, a Western one never as Chinese. A file that is
none of them (an Excel workbook, bytes neither code page defines) is refused with
:class:`TextFileError`, whose message names the file, the line and what to do: never a raw codec error.
"""

from __future__ import annotations

import codecs
import csv
import io
from dataclasses import dataclass
from pathlib import Path

from ptcourse.messages import msg

MAX_BYTES = 20 * 1024**2  # a class list of thousands of students is well under 1 MB


class TextFileError(ValueError):
    """The file cannot be read as text (the message says which file, which line and what to do)."""


@dataclass(frozen=True)
class TextFile:
    text: str  # without a byte-order mark
    encoding: str  # "UTF-8", "UTF-8 with BOM", "UTF-16", "Windows-1252 (cp1252)", "GBK (GB18030)"


BOMS = ((codecs.BOM_UTF8, "utf-8-sig", "UTF-8 with BOM"),
        (codecs.BOM_UTF16_LE, "utf-16", "UTF-16"),
        (codecs.BOM_UTF16_BE, "utf-16", "UTF-16"))
# The code pages of Excel's plain CSV on the Windows of the course's two languages, Western first.
CODE_PAGES = (("cp1252", "Windows-1252 (cp1252)"), ("gb18030", "GBK (GB18030)"))
WORKBOOKS = (b"PK\x03\x04", b"\xd0\xcf\x11\xe0")  # .xlsx/.ods (a zip), .xls (OLE2)


def _line(data: bytes, position: int) -> int:
    return data[:position].count(b"\n") + 1


def _refuse(path: Path, key: str, **values) -> TextFileError:
    return TextFileError(msg(key, file=Path(path).name, **values))


def _utf16_without_bom(data: bytes) -> str | None:
    """UTF-16 saved without a mark: every other byte of ASCII text is 0."""
    sample = data[:4096]
    if len(sample) < 4 or sample.count(0) < len(sample) // 3:
        return None
    return "utf-16-le" if sample[1::2].count(0) > sample[0::2].count(0) else "utf-16-be"


def decode(data: bytes, path: Path) -> TextFile:
    """``data`` (the bytes of ``path``) as text, and the encoding it was read with."""
    if data.startswith(WORKBOOKS):
        raise _refuse(path, "grader.textfile.workbook")
    for bom, codec, name in BOMS:
        if data.startswith(bom):
            try:
                return TextFile(data.decode(codec).lstrip("\ufeff"), name)
            except UnicodeDecodeError as exc:
                raise _refuse(path, "grader.textfile.bad_utf16", line=_line(data, exc.start)) from None
    wide = _utf16_without_bom(data)
    if wide is not None:
        try:
            return TextFile(data.decode(wide), "UTF-16")
        except UnicodeDecodeError as exc:
            raise _refuse(path, "grader.textfile.bad_utf16", line=_line(data, exc.start)) from None
    try:
        return TextFile(data.decode("utf-8"), "UTF-8")
    except UnicodeDecodeError:
        pass
    return _code_page(data, path)


def _code_page(data: bytes, path: Path) -> TextFile:
    """``data`` read in the code page of :data:`CODE_PAGES` that reads it; where several do, the one
    charset-normalizer finds coherent (Western first where it cannot tell)."""
    read, errors = {}, []
    for codec, name in CODE_PAGES:
        try:
            read[codec] = TextFile(data.decode(codec), name)
        except UnicodeDecodeError as exc:
            errors.append(exc)
    if not read:  # said at cp1252's first bad byte
        raise _refuse(path, "grader.textfile.unknown", line=_line(data, errors[0].start),
                      byte=f"0x{data[errors[0].start]:02X}") from None
    if len(read) > 1:
        import charset_normalizer

        best = charset_normalizer.from_bytes(data, cp_isolation=list(read)).best()
        if best is not None and best.encoding in read:
            return read[best.encoding]
    return next(iter(read.values()))


def read_csv(text: str, delimiter: str, path: Path) -> tuple[list[str], list[tuple[int, dict]]]:
    """The header and ``(line, row)`` of each row of CSV ``text``; a malformed file (a field past the
    csv module's limit, say) is a :class:`TextFileError` naming the file and the line."""
    reader = csv.DictReader(io.StringIO(text, newline=""), delimiter=delimiter)
    try:
        header = list(reader.fieldnames or [])
        return header, [(reader.line_num, raw) for raw in reader]
    except csv.Error as exc:
        raise _refuse(path, "grader.textfile.csv_error", line=reader.line_num + 1,  # the line being read
                      error=str(exc)) from None


def read_text(path: Path, max_bytes: int = MAX_BYTES) -> TextFile:
    """The text of ``path`` (see the module's docstring); :class:`TextFileError` in plain words."""
    try:
        with open(path, "rb") as f:
            data = f.read(max_bytes + 1)
    except OSError as exc:
        raise _refuse(path, "grader.textfile.unreadable", reason=exc.strerror or type(exc).__name__) from None
    if len(data) > max_bytes:
        raise _refuse(path, "grader.textfile.too_big", limit=max_bytes // 1024**2)
    found = decode(data, path)
    if "\x00" in found.text:
        line = found.text[:found.text.index("\x00")].count("\n") + 1
        raise _refuse(path, "grader.textfile.binary", line=line)
    return found
