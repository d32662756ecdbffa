"""What a media file in a pack really is, read from its first bytes.

A pack names its files as it likes; a file called `cat.png` may be an HTML page
whose script would run with a logged-in host's session if served from our own
origin. Only pictures, sounds and videos the rounds can show are kept, each
recognised by its magic number (a short, well-known table: nothing here is
installed that would do it for us), and stored with the extension of what it
is. SVG is left out on purpose: it is a document that can carry script.
"""

from __future__ import annotations

from .model import N_, Pack

# (offset, magic bytes, kind, extension); the first match wins.
_MAGIC: tuple[tuple[int, bytes, str, str], ...] = (
    (0, b"\x89PNG\r\n\x1a\n", "image", "png"),
    (0, b"\xff\xd8", "image", "jpg"),  # SOI; a marker (\xff) follows in real files
    (0, b"GIF87a", "image", "gif"),
    (0, b"GIF89a", "image", "gif"),
    (0, b"BM", "image", "bmp"),
    (0, b"ID3", "audio", "mp3"),
    (0, b"fLaC", "audio", "flac"),
    (0, b"OggS", "audio", "ogg"),
    (0, b"\x1a\x45\xdf\xa3", "video", "webm"),
)
_RIFF = {b"WEBP": ("image", "webp"), b"WAVE": ("audio", "wav"), b"AVI ": ("video", "avi")}
# ISO base media (MP4, M4A, MOV): "ftyp" at offset 4, then the major brand.
_FTYP_AUDIO = (b"M4A ", b"M4B ")
_FTYP_QUICKTIME = b"qt  "
# The extension a file is stored and served with, and its Content-Type.
MEDIA_TYPES = {
    "png": "image/png", "jpg": "image/jpeg", "gif": "image/gif", "bmp": "image/bmp",
    "webp": "image/webp", "mp3": "audio/mpeg", "flac": "audio/flac", "ogg": "audio/ogg",
    "wav": "audio/wav", "m4a": "audio/mp4", "aac": "audio/aac", "mp4": "video/mp4",
    "mov": "video/quicktime", "webm": "video/webm", "avi": "video/x-msvideo",
}


def sniff(data: bytes) -> tuple[str, str] | None:
    """(kind, extension) of a picture, sound or video, or None for anything else
    (HTML, SVG, scripts, archives, an empty file …)."""
    for offset, magic, kind, ext in _MAGIC:
        if data.startswith(magic, offset):
            return kind, ext
    if data[:4] == b"RIFF" and data[8:12] in _RIFF:
        return _RIFF[data[8:12]]
    if data[4:8] == b"ftyp":
        brand = data[8:12]
        if brand in _FTYP_AUDIO:
            return "audio", "m4a"
        return "video", "mov" if brand == _FTYP_QUICKTIME else "mp4"
    if len(data) > 1 and data[0] == 0xFF and data[1] & 0xE0 == 0xE0:
        # MPEG audio frame sync: layer bits 00 are ADTS AAC, others MP3 without a tag.
        return "audio", "aac" if data[1] & 0x06 == 0 else "mp3"
    return None


def screen_media(pack: Pack) -> None:
    """Leave out every media file that is not a picture, sound or video, with a
    warning the host reads in the preview; the questions keep their reference
    (it then shows among the missing files)."""
    for ref in sorted(pack.media):
        if sniff(pack.media[ref]) is None:
            del pack.media[ref]
            pack.warnings.append(N_("media file '%(file)s' is not a picture, sound or video "
                                    "answerdesk can show: left out", file=ref))
