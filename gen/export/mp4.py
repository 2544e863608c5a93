"""H.264 MP4 files from RGB frames, and back: through PyAV, whose wheels bundle FFmpeg and x264.

Why PyAV (PyPI ``av``, the optional extra ``alfred-gen[video]``): it encodes and decodes in the
Python process, frame by frame, with exact timestamps, so a video has exactly one frame per image
and a test can decode it back and count; no system ffmpeg and no subprocess pipe
(imageio-ffmpeg ships an ffmpeg binary and talks to it through a pipe, and decoding back needs a
second tool). The wheel is about 36 MB, hence an extra rather than a dependency.

Settings: libx264, yuv420p (what every browser and player decodes), constant rate factor 23,
preset ``veryfast``, one encoder thread, macroblock-tree rate control off, ``+faststart`` (the index
at the front, so a browser starts playing before the file is loaded). Fixed settings make the bytes
reproducible: the same frames give the same file. Why mbtree is off: with it on, one encoding in two
to eight of the same frames differed in a few blocks, depending on what the process had allocated
before (x264's lookahead reads memory it has not set); with it off, 0 of 40 differed. The RGB to
YUV step is ours (``rgb_to_yuv420p``, integer BT.601 as FFmpeg's default) and each frame is copied
into a picture FFmpeg allocated, padding set (:func:`yuv_picture`), so the encoder's input is
fully determined by the frames. Frame i has timestamp i / fps, so the duration is frames / fps.

Files are written atomically: encoded into a temporary file beside the target (the muxer has to
seek back to move its index to the front), then renamed over it with the mode the umask gives a
new file (``alfred_gen.atomic.replacing``).
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import Any, NamedTuple

import numpy as np

from alfred_gen.atomic import replacing
from alfred_gen.errors import ExitCode, UserError

CODEC = "libx264"
PIXEL_FORMAT = "yuv420p"
ENCODER_OPTIONS = {"crf": "23", "preset": "veryfast", "x264-params": "mbtree=0"}
INSTALL_HINT = "pip install 'alfred-gen[video]'"


class VideoFacts(NamedTuple):
    """What decoding a video gives: frames counted, seconds, size, codec."""

    frames: int
    seconds: float
    width: int
    height: int
    codec: str


def require_av() -> None:
    """UserError MISSING_DEPENDENCY unless PyAV can be imported: checked before any work."""
    _av()


def _av() -> Any:
    try:
        import av
    except ImportError:
        raise UserError(f"videos need PyAV ({INSTALL_HINT})", ExitCode.MISSING_DEPENDENCY) from None
    return av


def write_mp4(frames: Iterable[np.ndarray], path: str | os.PathLike[str], fps: int,
              keyframe_interval: int | None = None) -> int:
    """Encode HxWx3 uint8 RGB frames (all the same even size) as an H.264 MP4 at ``path``;
    returns the number of frames. ValueError for no frames, odd or changing sizes.
    ``keyframe_interval`` (x264's ``keyint``) bounds how many frames a seek decodes: datasets read
    at random frames want it small (LeRobot's writer uses 2); players want the default."""
    av = _av()
    if fps < 1:
        raise ValueError(f"fps must be at least 1, got {fps}")
    count = 0
    with (replacing(path, suffix=".mp4") as temp_name,
          av.open(str(temp_name), mode="w", format="mp4", options={"movflags": "+faststart"}) as container):
        stream = None
        for frame in frames:
            pixels = np.ascontiguousarray(frame, dtype=np.uint8)
            if stream is None:
                stream = _stream(container, fps, pixels.shape, keyframe_interval)
            if pixels.shape != (stream.height, stream.width, 3):
                raise ValueError(f"frame {count} has shape {pixels.shape}, the first had "
                                 f"{(stream.height, stream.width, 3)}")
            picture = yuv_picture(av, rgb_to_yuv420p(pixels))
            picture.pts = count
            container.mux(stream.encode(picture))
            count += 1
        if stream is None:
            raise ValueError("a video needs at least one frame")
        container.mux(stream.encode(None))
    return count


def rgb_to_yuv420p(pixels: np.ndarray) -> np.ndarray:
    """An HxWx3 RGB image (even H and W) as one (3H/2)xW yuv420p array: the Y plane, then U and V
    at half size (each 2x2 block averaged), BT.601 limited range in integer arithmetic, so the
    same pixels always give the same bytes."""
    rgb = pixels.astype(np.int32)
    red, green, blue = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    luma = ((66 * red + 129 * green + 25 * blue + 128) >> 8) + 16
    height, width = red.shape
    quads = rgb.reshape(height // 2, 2, width // 2, 2, 3).sum(axis=(1, 3))  # 4x each 2x2 mean
    red4, green4, blue4 = quads[..., 0], quads[..., 1], quads[..., 2]
    blue_diff = ((-38 * red4 - 74 * green4 + 112 * blue4 + 512) >> 10) + 128
    red_diff = ((112 * red4 - 94 * green4 - 18 * blue4 + 512) >> 10) + 128
    planes = [plane.astype(np.uint8).ravel() for plane in (luma, blue_diff, red_diff)]
    return np.concatenate(planes).reshape(height * 3 // 2, width)


def yuv_picture(av: Any, planes: np.ndarray) -> Any:
    """A yuv420p frame that owns its memory, from :func:`rgb_to_yuv420p`'s (3H/2)xW array; each row's
    padding (up to FFmpeg's line size) repeats the row's last sample, so no byte the encoder may
    read is left unset."""
    width = planes.shape[1]
    height = planes.shape[0] * 2 // 3
    flat = planes.ravel()
    chroma = (height // 2) * (width // 2)
    sources = (flat[: height * width].reshape(height, width),
               flat[height * width: height * width + chroma].reshape(height // 2, width // 2),
               flat[height * width + chroma:].reshape(height // 2, width // 2))
    picture = av.VideoFrame(width, height, PIXEL_FORMAT)
    for plane, source in zip(picture.planes, sources):
        rows = np.frombuffer(plane, dtype=np.uint8).reshape(-1, plane.line_size)[: source.shape[0]]
        rows[:, : source.shape[1]] = source
        rows[:, source.shape[1]:] = source[:, -1:]
    return picture


def _stream(container: Any, fps: int, shape: tuple[int, ...], keyframe_interval: int | None = None) -> Any:
    if len(shape) != 3 or shape[2] != 3 or shape[0] % 2 or shape[1] % 2:
        raise ValueError(f"frames must be HxWx3 with even H and W (yuv420p), got {shape}")
    stream = container.add_stream(CODEC, rate=fps)
    stream.height, stream.width = shape[0], shape[1]
    stream.pix_fmt = PIXEL_FORMAT
    stream.options = dict(ENCODER_OPTIONS)
    if keyframe_interval is not None:
        stream.options["x264-params"] += f":keyint={keyframe_interval}:min-keyint=1"
    stream.codec_context.thread_count = 1  # one thread: the same frames give the same bytes
    return stream


def read_facts(path: str | os.PathLike[str]) -> VideoFacts:
    """Decode every frame of a video: how many, how long (last timestamp plus one frame), size."""
    av = _av()
    with av.open(str(path)) as container:
        stream = container.streams.video[0]
        count, last_time = 0, 0.0
        for frame in container.decode(stream):
            count += 1
            last_time = float(frame.time or 0.0)
        rate = float(stream.average_rate or 0) or 1.0
        seconds = last_time + 1.0 / rate if count else 0.0
        return VideoFacts(count, seconds, stream.codec_context.width, stream.codec_context.height,
                          stream.codec_context.name)


def read_frame(path: str | os.PathLike[str], index: int) -> np.ndarray:
    """Frame ``index`` of a video as HxWx3 uint8 RGB (decoded from the start; for tests and pictures)."""
    av = _av()
    with av.open(str(path)) as container:
        for i, frame in enumerate(container.decode(container.streams.video[0])):
            if i == index:
                return np.asarray(frame.to_ndarray(format="rgb24"))
    raise IndexError(f"{path} has no frame {index}")
